// NodeFileWriter on a real file system: recursive mkdir, exact UTF-8, atomic replacement
// and no temporary files left behind, whatever happens.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { NodeFileWriter } from 'tool-offload';
import { inTempDir } from './helpers.ts';

const TEMP = /^\.tool-offload-.*\.tmp$/;

/**
 * Replace functions of `node:fs/promises` for the duration of `body`. The package's ESM
 * build imports them by name; syncBuiltinESMExports() updates those live bindings.
 */
async function withPatchedFs(patch: Partial<typeof fsp>, body: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(patch).map((k) => [k, fsp[k as keyof typeof fsp]]));
  Object.assign(fsp, patch);
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    Object.assign(fsp, saved);
    syncBuiltinESMExports();
  }
}

/**
 * Every file handle `fs/promises` `open` makes during `body`, passed to `patch` first
 * with the path it opens.
 */
async function withPatchedHandles(
  patch: (handle: FileHandle, path: string) => void,
  body: () => Promise<unknown>,
): Promise<void> {
  const { open } = fsp;
  await withPatchedFs(
    {
      open: (async (...args: Parameters<typeof fsp.open>) => {
        const handle = await open(...args);
        patch(handle, String(args[0]));
        return handle;
      }) as typeof fsp.open,
    },
    async () => void (await body()),
  );
}

/** A handle's `write` as the writer calls it: bytes only, always with offset, length, position. */
type BytesWrite = (
  bytes: Uint8Array,
  offset: number,
  length: number,
  position: number,
) => Promise<{ bytesWritten: number }>;

/** Replace `handle.write` by `write`, which gets the original. */
function patchWrite(
  handle: FileHandle,
  write: (original: BytesWrite, ...args: Parameters<BytesWrite>) => ReturnType<BytesWrite>,
): void {
  const original = handle.write.bind(handle) as unknown as BytesWrite;
  handle.write = ((...args: Parameters<BytesWrite>) => write(original, ...args)) as unknown as typeof handle.write;
}

const errno = (message: string, code: string) => Object.assign(new Error(message), { code });

test('mkdir creates parents and succeeds when the directory exists', async () => {
  await inTempDir('nfw', async (root) => {
    const writer = new NodeFileWriter();
    const deep = join(root, 'a', 'b', 'c');
    assert.equal(await writer.mkdir(deep), undefined);
    assert.ok(statSync(deep).isDirectory());
    writeFileSync(join(deep, 'keep.md'), 'kept');
    await writer.mkdir(deep);
    await writer.mkdir(join(root, 'a'));
    assert.equal(readFileSync(join(deep, 'keep.md'), 'utf8'), 'kept');
    assert.deepEqual(readdirSync(join(root, 'a', 'b')), ['c']);
  });
});

test('mkdir rejects when a path component is a file', async () => {
  await inTempDir('nfw', async (root) => {
    writeFileSync(join(root, 'file'), 'x');
    await assert.rejects(
      new NodeFileWriter().mkdir(join(root, 'file', 'sub')),
      (e: NodeJS.ErrnoException) => typeof e.code === 'string',
    );
    assert.equal(readFileSync(join(root, 'file'), 'utf8'), 'x');
  });
});

test('writeFile writes exactly the UTF-8 bytes and leaves no temporary file', async () => {
  await inTempDir('nfw', async (root) => {
    const writer = new NodeFileWriter();
    const data = '\uFEFFhé 😀 \u0000 \r\n \u2028 末尾';
    const path = join(root, 'out.md');
    assert.equal(await writer.writeFile(path, data), undefined);
    assert.deepEqual(readFileSync(path), Buffer.from(data, 'utf8'));
    await writer.writeFile(join(root, 'empty.md'), '');
    assert.equal(statSync(join(root, 'empty.md')).size, 0);
    assert.deepEqual(readdirSync(root).sort(), ['empty.md', 'out.md']);
  });
});

test('writeFile replaces an existing file entirely', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'f.md');
    writeFileSync(path, 'a much longer previous content that must not survive');
    await new NodeFileWriter().writeFile(path, 'short');
    assert.equal(readFileSync(path, 'utf8'), 'short');
    assert.deepEqual(readdirSync(root), ['f.md']);
  });
});

test('the temporary file is in the target directory and renamed into place', async () => {
  await inTempDir('nfw', async (root) => {
    const target = join(root, 'f.md');
    const seen: string[] = [];
    const { rename } = fsp;
    await withPatchedFs(
      {
        rename: (async (from: string, to: string) => {
          seen.push(from, to, readFileSync(from, 'utf8'));
          assert.equal(existsSync(to), false, 'the final path does not exist before the rename');
          return rename(from, to);
        }) as typeof fsp.rename,
      },
      () => new NodeFileWriter().writeFile(target, 'content'),
    );
    assert.equal(seen.length, 3, 'exactly one rename');
    const [from, to, data] = seen;
    assert.equal(dirname(from!), root);
    assert.match(basename(from!), TEMP);
    assert.equal(to, target);
    assert.equal(data, 'content');
    assert.deepEqual(readdirSync(root), ['f.md']);
  });
});

test('writing into a missing directory rejects and leaves nothing behind', async () => {
  await inTempDir('nfw', async (root) => {
    const missing = join(root, 'missing');
    await assert.rejects(new NodeFileWriter().writeFile(join(missing, 'f.md'), 'x'), { code: 'ENOENT' });
    assert.equal(existsSync(missing), false);
    assert.deepEqual(readdirSync(root), []);
  });
});

test('writing where the target is a directory rejects, keeps the directory and leaves no temp file', async () => {
  for (const durable of [false, true]) {
    await inTempDir('nfw', async (root) => {
      const target = join(root, 'taken.md');
      mkdirSync(target);
      writeFileSync(join(target, 'inner.txt'), 'inner');
      await assert.rejects(
        new NodeFileWriter({ durable }).writeFile(target, 'new'),
        (e: NodeJS.ErrnoException) => typeof e.code === 'string',
      );
      assert.ok(statSync(target).isDirectory());
      assert.deepEqual(readdirSync(target), ['inner.txt']);
      assert.equal(readFileSync(join(target, 'inner.txt'), 'utf8'), 'inner');
      assert.deepEqual(readdirSync(root), ['taken.md'], `durable: ${durable}`);
    });
  }
});

test('a write that fails midway leaves the existing file intact and no temp file', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'f.md');
    writeFileSync(path, 'previous content');
    const failure = errno('ENOSPC: no space left on device, write', 'ENOSPC');
    let partialWrites = 0;
    await withPatchedHandles(
      // Write part of the data, then fail, as a full disk would.
      (handle) =>
        patchWrite(handle, async (write, bytes) => {
          partialWrites++;
          await write(bytes, 0, 3, 0);
          throw failure;
        }),
      () =>
        assert.rejects(new NodeFileWriter().writeFile(path, 'new content, longer than before'), (e) => e === failure),
    );
    assert.equal(partialWrites, 1, 'the failure was injected');
    assert.equal(readFileSync(path, 'utf8'), 'previous content');
    assert.deepEqual(readdirSync(root), ['f.md']);
  });
});

test('short writes (the kernel taking part of a write) are continued to the last byte', async () => {
  await inTempDir('nfw', async (root) => {
    const data = 'short 😀 é\n'.repeat(500);
    let calls = 0;
    await withPatchedHandles(
      // At most 7 bytes per write, as a pipe or a signal-interrupted write may give.
      (handle) =>
        patchWrite(handle, (write, bytes, offset, length, position) => {
          calls++;
          return write(bytes, offset, Math.min(length, 7), position);
        }),
      async () => {
        await new NodeFileWriter().writeFile(join(root, 'w.md'), data);
        assert.equal(await new NodeFileWriter().createFile(join(root, 'c.md'), data), true);
      },
    );
    const bytes = Buffer.byteLength(data);
    assert.equal(calls, 2 * Math.ceil(bytes / 7), 'every write was short');
    assert.equal(readFileSync(join(root, 'w.md'), 'utf8'), data);
    assert.equal(readFileSync(join(root, 'c.md'), 'utf8'), data);
    assert.deepEqual(readdirSync(root), ['c.md', 'w.md']);
  });
});

test('a large write goes out in concurrent 512 KiB writes, all settled before the file is closed', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'big.md');
    writeFileSync(path, 'previous content');
    const data = 'log line é\n'.repeat(150_000); // 1.8 MB: four writes
    const failure = errno('EIO: i/o error, write', 'EIO');
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    await withPatchedHandles(
      (handle) => {
        patchWrite(handle, async (write, bytes, offset, length, position) => {
          inFlight++;
          most = Math.max(most, inFlight);
          try {
            // The first chunk fails first; the others finish later.
            await sleep(offset === 0 ? 5 : 30);
            if (offset === 0) throw failure;
            const done = await write(bytes, offset, length, position);
            events.push(`wrote ${offset}`);
            return done;
          } finally {
            inFlight--;
          }
        });
        const close = handle.close.bind(handle);
        handle.close = async () => {
          events.push('close');
          return close();
        };
      },
      () => assert.rejects(new NodeFileWriter().writeFile(path, data), (e) => e === failure),
    );
    assert.equal(most, 4, 'the four writes were issued together');
    // The three writes finish in any order (they run at once); the close comes after all.
    assert.equal(events.at(-1), 'close', events.join(', '));
    assert.deepEqual(
      events.slice(0, -1).sort(),
      [1, 2, 3].map((k) => `wrote ${k * 524288}`).sort(),
      'closed after every write',
    );
    assert.equal(readFileSync(path, 'utf8'), 'previous content');
    assert.deepEqual(readdirSync(root), ['big.md']);
  });

  // Without the failure, the bytes are exactly the string's.
  await inTempDir('nfw', async (root) => {
    const data = 'log line é\n'.repeat(150_000);
    await new NodeFileWriter().writeFile(join(root, 'w.md'), data);
    assert.equal(await new NodeFileWriter().createFile(join(root, 'c.md'), data), true);
    assert.deepEqual(readFileSync(join(root, 'w.md')), Buffer.from(data, 'utf8'));
    assert.deepEqual(readFileSync(join(root, 'c.md')), Buffer.from(data, 'utf8'));
  });
});

test('durable: a write that fails midway leaves the existing file intact, closes the handle, no temp file', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'f.md');
    writeFileSync(path, 'previous content');
    const failure = errno('EIO: i/o error, write', 'EIO');
    let closed = 0;
    await withPatchedHandles(
      (handle) => {
        patchWrite(handle, async (write, bytes) => {
          await write(bytes, 0, 3, 0);
          throw failure;
        });
        const close = handle.close.bind(handle);
        handle.close = async () => {
          closed++;
          return close();
        };
      },
      () =>
        assert.rejects(
          new NodeFileWriter({ durable: true }).writeFile(path, 'new content, longer than before'),
          (e) => e === failure,
        ),
    );
    assert.equal(closed, 1, 'the file handle is closed');
    assert.equal(readFileSync(path, 'utf8'), 'previous content');
    assert.deepEqual(readdirSync(root), ['f.md']);
  });
});

test('durable writes the same bytes, fsyncing the file before the rename', async () => {
  await inTempDir('nfw', async (root) => {
    const data = 'durable 😀 é\n'.repeat(1000);
    const plain = join(root, 'plain.md');
    const durable = join(root, 'durable.md');
    await new NodeFileWriter().writeFile(plain, data);

    const events: string[] = [];
    await withPatchedHandles(
      (handle) => {
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          events.push(`sync ${existsSync(durable) ? 'after' : 'before'} rename`);
          return sync();
        };
      },
      () => new NodeFileWriter({ durable: true }).writeFile(durable, data),
    );
    assert.equal(events[0], 'sync before rename', events.join(', '));
    assert.deepEqual(readFileSync(durable), Buffer.from(data, 'utf8'));
    assert.deepEqual(readFileSync(durable), readFileSync(plain));

    // Replacing an existing file works the same way.
    await new NodeFileWriter({ durable: true }).writeFile(durable, 'replaced');
    assert.equal(readFileSync(durable, 'utf8'), 'replaced');
    assert.deepEqual(readdirSync(root).sort(), ['durable.md', 'plain.md']);
  });
});

test('the default writer does not fsync', async () => {
  await inTempDir('nfw', async (root) => {
    let opened = 0;
    let synced = 0;
    await withPatchedHandles(
      (handle) => {
        opened++;
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          synced++;
          return sync();
        };
      },
      async () => {
        await new NodeFileWriter().writeFile(join(root, 'a.md'), 'a');
        await new NodeFileWriter({ durable: false }).createFile(join(root, 'b.md'), 'b');
      },
    );
    assert.equal(opened, 2, 'the patch saw both writes');
    assert.equal(synced, 0);
    assert.equal(readFileSync(join(root, 'a.md'), 'utf8'), 'a');
  });
});

test('a 255-byte file name can be written: the temp name does not embed it', async () => {
  await inTempDir('nfw', async (root) => {
    for (const durable of [false, true]) {
      const ascii = join(root, 'a'.repeat(252) + '.md');
      const multibyte = join(root, 'é'.repeat(126) + '.md'); // 252 + 3 bytes
      assert.equal(Buffer.byteLength(basename(ascii)), 255);
      assert.equal(Buffer.byteLength(basename(multibyte)), 255);
      await new NodeFileWriter({ durable }).writeFile(ascii, 'long name');
      await new NodeFileWriter({ durable }).writeFile(multibyte, 'long multibyte name');
      assert.equal(readFileSync(ascii, 'utf8'), 'long name');
      assert.equal(readFileSync(multibyte, 'utf8'), 'long multibyte name');
      assert.deepEqual(readdirSync(root).sort(), [basename(ascii), basename(multibyte)].sort());
    }
    // The limit is real here: one byte more is refused, and leaves nothing behind.
    await assert.rejects(new NodeFileWriter().writeFile(join(root, 'a'.repeat(253) + '.md'), 'x'), {
      code: 'ENAMETOOLONG',
    });
    assert.equal(readdirSync(root).length, 2);
  });
});

test('concurrent writes to the same path leave one complete version and no temp files', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'same.md');
    const versions = Array.from({ length: 20 }, (_, i) => `version ${i} `.repeat(5000));
    await Promise.all(versions.map((v, i) => new NodeFileWriter({ durable: i % 2 === 0 }).writeFile(path, v)));
    assert.ok(versions.includes(readFileSync(path, 'utf8')));
    assert.deepEqual(readdirSync(root), ['same.md']);
  });
});

// TokioFileWriter::durable() fsyncs the directory after the rename (commit 1b07c33);
// NodeFileWriter({ durable: true }) does not, so after a power loss the renamed file may
// be missing although its content was synced.
test('durable also fsyncs the directory after the rename', async () => {
  await inTempDir('nfw', async (root) => {
    const path = join(root, 'f.md');
    const syncs: string[] = [];
    await withPatchedHandles(
      (handle, opened) => {
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          syncs.push(`${opened === root ? 'dir' : 'file'} ${existsSync(path) ? 'after' : 'before'} rename`);
          return sync();
        };
      },
      () => new NodeFileWriter({ durable: true }).writeFile(path, 'data'),
    );
    assert.deepEqual(syncs, ['file before rename', 'dir after rename']);
  });
});

test('readFile returns exact UTF-8 content, and undefined for a missing file', async () => {
  await inTempDir('nfw', async (dir) => {
    const writer = new NodeFileWriter();
    const path = join(dir, 'a.md');
    await writer.writeFile(path, 'é😀\nline');
    assert.equal(await writer.readFile(path), 'é😀\nline');
    assert.equal(await writer.readFile(join(dir, 'missing.md')), undefined);
    // Other failures are not hidden: reading a directory rejects.
    await assert.rejects(writer.readFile(dir), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
  });
});

test('listDir returns sorted names, and [] for a missing directory', async () => {
  await inTempDir('nfw', async (dir) => {
    const writer = new NodeFileWriter();
    await writer.writeFile(join(dir, 'b.md'), 'b');
    await writer.writeFile(join(dir, 'a.md'), 'a');
    await writer.mkdir(join(dir, 'sub'));
    assert.deepEqual(await writer.listDir(dir), ['a.md', 'b.md', 'sub']);
    assert.deepEqual(await writer.listDir(join(dir, 'nope')), []);
  });
});
