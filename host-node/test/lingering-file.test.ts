// NodeFileWriter.readRange keeps the last file read open for a moment (LingeringFile),
// so a scan's reads start at once. What it returns must never be stale after this
// writer changed the file, reads of several files must not mix, and the file must be
// closed again once reads stop.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { NodeFileWriter } from 'tool-offload';
import { inTempDir } from './helpers.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();
const openFiles = () => readdirSync('/proc/self/fd').length;
/** The open-file count once it is `expected`, or after 5 s (a slow machine may close late). */
async function settledCount(expected: number): Promise<number> {
  for (let waited = 0; openFiles() !== expected && waited < 5000; waited += 25) await sleep(25);
  return openFiles();
}

test('reads after this writer replaces, creates or removes a file see the change', async () => {
  await inTempDir('linger', async (dir) => {
    const files = new NodeFileWriter();
    const path = `${dir}/a.txt`;
    await files.writeFile(path, 'first version');
    assert.equal(text(await files.readRange(path, 0, 5)), 'first');
    await files.writeFile(path, 'second version');
    assert.equal(text(await files.readRange(path, 0, 6)), 'second');
    await files.remove(path);
    await assert.rejects(files.readRange(path, 0, 1), { code: 'ENOENT' });
    assert.equal(await files.createFile(path, 'third version'), true);
    assert.equal(text(await files.readRange(path, 0, 5)), 'third');
  });
});

test('interleaved and concurrent reads of two files each get their own bytes', async () => {
  await inTempDir('linger', async (dir) => {
    const files = new NodeFileWriter();
    await writeFile(`${dir}/a.txt`, 'a'.repeat(1000));
    await writeFile(`${dir}/b.txt`, 'b'.repeat(1000));
    const reads = [];
    for (let i = 0; i < 20; i++) {
      const name = i % 3 === 0 ? 'b' : 'a';
      reads.push(files.readRange(`${dir}/${name}.txt`, i * 10, i * 10 + 10).then((bytes) => [name, text(bytes)]));
    }
    for (const [name, got] of await Promise.all(reads)) assert.equal(got, name.repeat(10));
    for (const name of ['a', 'b', 'a', 'b']) {
      assert.equal(text(await files.readRange(`${dir}/${name}.txt`, 0, 3)), name.repeat(3), 'one after the other');
    }
    assert.equal(text(await files.readRange(`${dir}/a.txt`, 995, 2000)), 'aaaaa');
  });
});

test('the file is closed once reads stop', { skip: process.platform !== 'linux' }, async () => {
  await inTempDir('linger', async (dir) => {
    const files = new NodeFileWriter();
    await writeFile(`${dir}/a.txt`, 'x'.repeat(100));
    await sleep(200); // the earlier tests' files have closed
    const before = openFiles();
    for (let i = 0; i < 10; i++) await files.readRange(`${dir}/a.txt`, i, i + 1);
    assert.equal(openFiles(), before + 1, 'kept open between reads');
    assert.equal(await settledCount(before), before, 'closed after the linger');
    // Concurrent reads of two files: each open replaces the kept one, which closes once
    // its reads are done.
    await writeFile(`${dir}/b.txt`, 'y'.repeat(100));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => files.readRange(`${dir}/${i % 2 ? 'a' : 'b'}.txt`, i, i + 1)),
    );
    assert.equal(await settledCount(before), before, 'every file closed');
  });
});
