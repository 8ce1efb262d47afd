// MemoryWriter, the package's in-memory IO for every runtime: the IO contract's rules
// (tests/harness/writer-contract.ts, which OpfsWriter meets in Chromium too), and the
// package's operations on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { gcDirectory, Materializer, MemoryWriter, OffloadError, offloadToolResults } from 'tool-offload';

import { EXPECTED, observeWriter } from '../../tests/harness/writer-contract.ts';

test('MemoryWriter meets the IO contract', async () => {
  assert.deepEqual(await observeWriter(new MemoryWriter(), OffloadError), EXPECTED);
});

test('a write failure names the path and comes as WRITE_FAILED from the operation', async () => {
  const writer = new MemoryWriter();
  await writer.mkdir('/out');
  await writer.writeFile('/out/tool-result-a.md', 'not a directory');
  const err = await writer.mkdir('/out/tool-result-a.md/x').catch((e: unknown) => e);
  assert.ok(err instanceof OffloadError);
  assert.equal(err.code, 'WRITE_FAILED');
  assert.equal(err.path, '/out/tool-result-a.md/x');
  assert.equal(err.message, 'not a directory: /out/tool-result-a.md');
});

test('the Materializer and gcDirectory run on a MemoryWriter', async () => {
  const writer = new MemoryWriter();
  const materializer = new Materializer({ userData: '/agent', conversationId: 'c1', writer });
  const output = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
  const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output });
  assert.equal(result.inline, false);
  assert.equal(await writer.readFile(result.path!), output);
  assert.match(await materializer.tail(result.ref!.id, 1), /line 1999/);
  assert.match(await materializer.grep(result.ref!.id, 'line 1999'), /line 1999/);

  const { messages } = await offloadToolResults([{ role: 'tool', tool_call_id: 'x', content: 'y'.repeat(150) }], {
    outputDir: '/batch',
    writer,
  });
  assert.equal((messages[0] as { content: string }).content, '[Content offloaded to: ./tool-result-x.md]');
  const report = await gcDirectory('/batch', { maxBytes: 0, writer });
  // A `.removed` marker says what went (docs/retention.md).
  assert.deepEqual(await writer.listDir('/batch'), ['tool-result-x.md.removed']);
  assert.equal(report.removed.length, 1);
});
