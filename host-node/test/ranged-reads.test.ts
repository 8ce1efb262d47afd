// Read-back through ranged reads: NodeFileWriter's size and readRange, what a page
// asks a reader for, the same pages from a reader that can only read whole files, and
// clear errors from a reader whose ranged methods misbehave.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { Materializer, NodeFileWriter } from 'tool-offload';
import type { FileReader, MaterializeResult } from 'tool-offload';
import { inTempDir, offloadError as rejected } from './helpers.ts';

const MIB = 1 << 20;

/** A log of about `mib` MiB with a rare needle near its end. */
function log(mib: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < mib * MIB; i++) {
    const line = `2026-11-23 INFO item ${i} processed status=ok é\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return `${lines.join('')}FATAL needle here\nlast line\n`;
}

/** A reader over NodeFileWriter that counts the bytes it hands out. */
class CountingReader implements FileReader {
  readonly files = new NodeFileWriter();
  rangeBytes = 0;
  wholeReads = 0;
  readFile(path: string) {
    this.wholeReads++;
    return this.files.readFile(path);
  }
  listDir(dir: string) {
    return this.files.listDir(dir);
  }
  size(path: string) {
    return this.files.size(path);
  }
  async readRange(path: string, start: number, end: number) {
    const bytes = await this.files.readRange(path, start, end);
    this.rangeBytes += bytes.length;
    return bytes;
  }
}

function refOf(result: MaterializeResult): string {
  assert.equal(result.inline, false);
  return (result as { ref: { id: string } }).ref.id;
}

test('NodeFileWriter.size and readRange read what is there, clamped at the end', async () => {
  await inTempDir('ranged', async (dir) => {
    const files = new NodeFileWriter();
    await files.writeFile(`${dir}/a.txt`, 'héllo\nworld');
    assert.equal(await files.size(`${dir}/a.txt`), 12);
    assert.equal(await files.size(`${dir}/missing.txt`), undefined);
    const bytes = await files.readRange(`${dir}/a.txt`, 1, 3);
    assert.ok(bytes instanceof Uint8Array);
    assert.deepEqual([...bytes], [0xc3, 0xa9]);
    assert.equal(Buffer.from(await files.readRange(`${dir}/a.txt`, 7, 1000)).toString(), 'world');
    assert.equal((await files.readRange(`${dir}/a.txt`, 50, 60)).length, 0);
    await assert.rejects(files.readRange(`${dir}/missing.txt`, 0, 1), { code: 'ENOENT' });
  });
});

test('a page of a large artifact reads about a chunk, and equals the page of a whole-file reader', async () => {
  await inTempDir('ranged', async (dir) => {
    const text = log(6);
    const reader = new CountingReader();
    const m = new Materializer({ userData: dir, conversationId: 'c', reader });
    const result = await m.materialize({ toolCallId: 'big', toolName: 'bash', output: text });
    const ref = refOf(result);
    // Measured exactly, past the 2^21 units where a count packed in one double lost bits.
    const { hint } = (result as { ref: { hint: { bytes: number; chars: number } } }).ref;
    assert.deepEqual([hint.bytes, hint.chars], [Buffer.byteLength(text), text.length]);
    // Written beside the artifact when it was materialized.
    const index = await readFile(`${dir}/context/c/index/tool/big.txt.lines`, 'utf8');
    assert.match(
      index,
      new RegExp(
        `^tool-offload line index 1\nbytes ${Buffer.byteLength(text)}\nlines ${text.split('\n').length - 1}\n`,
      ),
    );

    // The same artifact through a reader that can only read whole files.
    const whole = {
      readFile: (p: string) => reader.files.readFile(p),
      listDir: (d: string) => reader.files.listDir(d),
    };
    const plain = new Materializer({ userData: dir, conversationId: 'c', reader: whole });

    const tail = await m.tail(ref, 200);
    assert.ok(tail.endsWith('| last line'), tail.slice(-50));
    assert.equal(tail, await plain.tail(ref, 200));
    assert.ok(reader.rangeBytes <= 2 * MIB, `tail read ${reader.rangeBytes} bytes`);

    reader.rangeBytes = 0;
    const lines = text.split('\n').length - 1;
    const read = await m.read(ref, { offset: lines - 30, limit: 10 });
    assert.ok(read.startsWith(`[${ref}: lines ${lines - 29}-`), read.slice(0, 100));
    assert.equal(read, await plain.read(ref, { offset: lines - 30, limit: 10 }));
    assert.ok(reader.rangeBytes <= 2 * MIB, `read read ${reader.rangeBytes} bytes`);

    const grep = await m.grep(ref, 'needle', { context: 1 });
    assert.match(
      grep,
      /^\[ctx:\/\/c\/tool\/big\.txt: 1 matching row in [\d,]+ lines, with 1 row of context; all shown\.\]\n/,
    );
    assert.equal(grep, await plain.grep(ref, 'needle', { context: 1 }));
  });
});

test('a reader whose size or readRange resolves to the wrong thing gets READ_FAILED saying what it got', async () => {
  await inTempDir('ranged', async (dir) => {
    const files = new NodeFileWriter();
    const m = new Materializer({ userData: dir, conversationId: 'c', writer: files });
    const ref = refOf(await m.materialize({ toolCallId: 'a', toolName: 't', output: 'x\n'.repeat(5000) }));
    const base = { readFile: (p: string) => files.readFile(p), listDir: (d: string) => files.listDir(d) };

    const badRange = new Materializer({
      userData: dir,
      conversationId: 'c',
      reader: { ...base, size: (p: string) => files.size(p), readRange: async () => 'text' as never },
    });
    const range = await rejected(badRange.tail(ref, 5));
    assert.equal(range.code, 'READ_FAILED');
    assert.equal(range.cause, 'text');
    assert.match(range.message, /readRange must resolve to a Uint8Array of the bytes; got string$/);

    const badSize = new Materializer({
      userData: dir,
      conversationId: 'c',
      reader: {
        ...base,
        size: async () => -1,
        readRange: (p: string, s: number, e: number) => files.readRange(p, s, e),
      },
    });
    const size = await rejected(badSize.read(ref));
    assert.equal(size.code, 'READ_FAILED');
    assert.match(size.message, /size must resolve to a byte count, or undefined when the file is missing; got -1$/);

    const missing = new Materializer({
      userData: dir,
      conversationId: 'c',
      reader: { ...base, size: async () => undefined, readRange: async () => new Uint8Array() },
    });
    assert.equal((await rejected(missing.grep(ref, 'x'))).code, 'REF_NOT_FOUND');
  });
});
