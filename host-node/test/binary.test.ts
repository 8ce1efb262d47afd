// Binary outputs through the npm package: a Buffer, Uint8Array or ArrayBuffer is stored
// as its bytes in `<id>.bin` (never as the JSON of a Buffer), the summary names its size
// and kind, read-back refuses it clearly, and a bundle carries it to another directory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { importConversation, Materializer, MemoryWriter, NodeFileWriter } from 'tool-offload';
import { freshDir, offloadError } from './helpers.ts';

/** A PNG signature, then every byte value. */
const png = (): Buffer =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

test('a Buffer output is stored as its bytes and summarised in one line', async () => {
  const userData = freshDir('binary');
  const m = new Materializer({ userData, conversationId: 'c1' });
  const bytes = png();
  const done = await m.materialize({ toolCallId: 'shot', toolName: 'screenshot', output: bytes });
  assert.equal(done.inline, false);
  if (done.inline) return;
  assert.equal(
    done.content,
    '[Output of screenshot (call shot) stored as ctx://c1/tool/shot.bin: binary data, 264 bytes, looks like a PNG image; not shown, and not text to read back.]',
  );
  assert.equal(done.path, join(userData, 'context/c1/artifacts/tool/shot.bin'));
  assert.deepEqual(readFileSync(done.path), bytes);
  assert.deepEqual(done.ref.hint, {
    toolName: 'screenshot',
    toolCallId: 'shot',
    bytes: 264,
    chars: 0,
    lines: 0,
    isJson: false,
  });
  // Read-back says what it is instead of paging bytes.
  const err = await offloadError(m.read(done.ref.id));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.match(
    err.message,
    /ctx:\/\/c1\/tool\/shot\.bin is binary data \(264 bytes, looks like a PNG image\): it has no text to read or search/,
  );
  // The same bytes again reuse the file; an ArrayBuffer and a Uint8Array are bytes too.
  const again = await m.materialize({ toolCallId: 'shot', toolName: 'screenshot', output: new Uint8Array(bytes) });
  assert.equal(again.inline ? '' : again.path, done.path);
  const buffer = await m.materialize({
    toolCallId: 'gz',
    toolName: 'fetch',
    output: new Uint8Array([0x1f, 0x8b, 0, 1]).buffer,
  });
  assert.match(buffer.inline ? '' : String(buffer.content), /binary data, 4 bytes, looks like gzip data/);
});

test('a bundle carries binary artifacts in base64, byte for byte', async () => {
  const writer = new MemoryWriter();
  const m = new Materializer({ userData: '/u', conversationId: 'c1', writer, reader: writer });
  const bytes = png();
  const done = await m.materialize({ toolCallId: 'shot', toolName: 'screenshot', output: bytes });
  assert.equal(done.inline, false);
  const bundle = await m.exportConversation([{ role: 'tool', tool_call_id: 'shot', content: done.content }]);
  const { artifacts } = bundle as unknown as { artifacts: { encoding?: string; content: string }[] };
  assert.equal(artifacts[0].encoding, 'base64');
  assert.equal(artifacts[0].content, bytes.toString('base64'));
  const target = freshDir('binary-import');
  const imported = await importConversation(bundle, { userData: target, writer: new NodeFileWriter() });
  assert.deepEqual(readFileSync(imported.paths[0]), bytes);
});

test('a tool kept inline gets its bytes back as given', async () => {
  const m = new Materializer({
    userData: freshDir('binary-never'),
    conversationId: 'c1',
    tools: { screenshot: { materialize: 'never' } },
  });
  const bytes = png();
  const done = await m.materialize({ toolCallId: 'shot', toolName: 'screenshot', output: bytes });
  assert.equal(done.inline, true);
  assert.equal(done.content, bytes);
});
