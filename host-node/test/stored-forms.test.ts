// One rule for what no writer stores again (core's `stored_form`), checked where it can
// diverge: batch offload decides from the two ends it slices out of a JS string, the
// Materializer and the Workspace from the whole text copied into the wasm. Random texts
// built round the cut points (8,192 units in, 64 from the end; surrogate pairs across
// them) must get the same answer from all three.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer, MemoryWriter, offloadToolResults, Workspace } from 'tool-offload';

const HEAD = 8192;
const TAIL = 64;

/** A small deterministic generator (xorshift32), so a failure names its seed. */
function rng(seed: number): (n: number) => number {
  let x = seed || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const STARTS = [
  '[ctx://c/tool/a.txt: lines 1-9 of 90. More: context_read("ctx://c/tool/a.txt", 9)]\n',
  '[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\n',
  '<knowledge_list>\n',
  '  <knowledge_list>',
  '[build log: lines 1-2 of 4.]\n',
  'plain output\n',
  '',
];
const ENDS = ['</knowledge_list>', '</knowledge_list>\n', '</knowledge_list', 'done', ''];

/** A text of `start`, a body whose length puts a chosen unit at a cut, and `end`. */
function text(next: (n: number) => number): string {
  const start = STARTS[next(STARTS.length)];
  const end = ENDS[next(ENDS.length)] + ' '.repeat(next(3) === 0 ? next(TAIL + 8) : 0);
  const short = next(4) === 0;
  const target = short ? next(400) : HEAD - 6 + next(12) + (next(2) === 0 ? 0 : next(3000));
  let body = '';
  while (start.length + body.length + end.length < target) {
    const pick = next(10);
    body += pick === 0 ? '😀' : pick === 1 ? '\n' : pick === 2 ? ']' : 'x';
  }
  return start + body + end;
}

test('batch offload, the Materializer and the Workspace agree on what is stored already', async () => {
  const next = rng(20261202);
  const texts = Array.from({ length: 400 }, () => text(next));
  const messages = texts.map((content, i) => ({ role: 'tool', tool_call_id: `t${i}`, content }));
  const batch = await offloadToolResults(messages, {
    outputDir: '/out',
    cwd: '/',
    threshold: 1,
    writer: new MemoryWriter(),
  });
  const materializer = new Materializer({
    userData: '/m',
    conversationId: 'c',
    cwd: '/',
    writer: new MemoryWriter(),
    tools: { '*': { materialize: 'always' } },
  });
  const workspace = new Workspace({ root: '/w', writer: new MemoryWriter() });
  let stored = 0;
  for (const [i, content] of texts.entries()) {
    const kept = (batch.messages[i] as { content: string }).content === content;
    const inline = (await materializer.materialize({ toolCallId: `t${i}`, toolName: 'bash', output: content })).inline;
    const ws = await workspace.offloadToolResult({
      toolCallId: `t${i}`,
      toolName: 'bash',
      content,
      metadata: { offload: true },
    });
    const label = `text ${i} (${content.length} units, starts ${JSON.stringify(content.slice(0, 20))})`;
    assert.equal(inline, kept, `Materializer vs batch: ${label}`);
    assert.equal(!ws.offloaded, kept, `Workspace vs batch: ${label}`);
    if (kept) stored++;
  }
  // Both answers occur, long and short, so the test compares something.
  assert.ok(stored > 40 && stored < 360, `${stored} of 400 already stored`);
});
