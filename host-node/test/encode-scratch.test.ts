// NodeFileWriter encodes large strings into a buffer reused from one write to the next
// (EncodeScratch). The bytes written must be exactly Buffer.from's, also for text that
// does not fit the first guess (non-ASCII) and for concurrent writes, which must never
// share the buffer; and the buffer must not be kept once writes stop.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { NodeFileWriter } from 'tool-offload';
import { EncodeScratch } from '../src/encode-scratch.ts';
import { inTempDir } from './helpers.ts';

const large = (unit: string) => unit.repeat(Math.ceil(70_000 / unit.length));
// `accented` first: it grows the buffer to three bytes a unit, which the others fit.
const texts = {
  accented: large('é'),
  ascii: large('plain log line\n'),
  astral: large('😀 '),
  loneSurrogate: large('a\ud800b'),
};

test('large texts are encoded as Buffer.from encodes them, through the same reused buffer', () => {
  const scratch = new EncodeScratch();
  let previous: ArrayBufferLike | undefined;
  for (const [name, text] of Object.entries(texts)) {
    const encoded = scratch.encode(text);
    assert.deepEqual(Buffer.from(encoded.bytes), Buffer.from(text, 'utf8'), name);
    if (name !== 'accented') assert.ok(encoded.bytes.buffer === previous, `${name}: the buffer is reused`);
    previous = encoded.bytes.buffer;
    encoded.release();
  }
});

test('an encode while the buffer is in use gets a buffer of its own', () => {
  const scratch = new EncodeScratch();
  const first = scratch.encode(texts.ascii);
  const second = scratch.encode(texts.accented);
  assert.ok(second.bytes.buffer !== first.bytes.buffer);
  assert.deepEqual(Buffer.from(first.bytes), Buffer.from(texts.ascii), 'the first is intact');
  assert.deepEqual(Buffer.from(second.bytes), Buffer.from(texts.accented));
  first.release();
  second.release();
  assert.ok(scratch.encode(texts.ascii).bytes.buffer === first.bytes.buffer, 'free again');
});

test('small texts and texts over the cap do not use the buffer', () => {
  const scratch = new EncodeScratch();
  const kept = scratch.encode(texts.ascii);
  kept.release();
  const small = scratch.encode('short');
  assert.ok(small.bytes.buffer !== kept.bytes.buffer);
  assert.equal(Buffer.from(small.bytes).toString(), 'short');
  const huge = 'x'.repeat((1 << 25) + 1);
  const over = scratch.encode(huge);
  assert.ok(over.bytes.buffer !== kept.bytes.buffer);
  assert.equal(over.bytes.length, huge.length);
  over.release();
  assert.ok(scratch.encode(texts.ascii).bytes.buffer === kept.bytes.buffer, 'not replaced by the large one');
});

test('the buffer is dropped once unused for the idle time', async () => {
  const scratch = new EncodeScratch(20);
  const first = scratch.encode(texts.ascii);
  first.release();
  const reused = scratch.encode(texts.ascii);
  assert.ok(reused.bytes.buffer === first.bytes.buffer);
  reused.release();
  // Polled (each poll 50 ms after the last use, well over the 20 ms): timers may fire late.
  let dropped = false;
  for (let waited = 0; !dropped && waited < 5000; waited += 50) {
    await sleep(50);
    const encoded = scratch.encode(texts.ascii);
    dropped = encoded.bytes.buffer !== first.bytes.buffer;
    encoded.release();
  }
  assert.ok(dropped, 'a new buffer');
});

test('concurrent large writes each write their own bytes', async () => {
  await inTempDir('scratch', async (dir) => {
    const writer = new NodeFileWriter();
    const entries = Object.entries(texts);
    const done = await Promise.all([
      ...entries.map(([name, text]) => writer.writeFile(`${dir}/${name}.w`, text)),
      ...entries.map(([name, text]) => writer.createFile(`${dir}/${name}.c`, text)),
    ]);
    assert.deepEqual(
      done.slice(entries.length),
      entries.map(() => true),
    );
    for (const [name, text] of entries) {
      for (const suffix of ['w', 'c']) {
        assert.deepEqual(readFileSync(`${dir}/${name}.${suffix}`), Buffer.from(text, 'utf8'), `${name}.${suffix}`);
      }
    }
  });
});
