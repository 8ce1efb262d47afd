// A Workspace under concurrency: 20 calls with 5 shared tool-call ids in one process, and
// 4 processes storing into one namespace. Every call reads back its own output, and every
// record's sha256 is its artifact's; a record file that holds no record is reported, and
// the rest of the namespace still answers; records hash what is on disk.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { Workspace } from 'tool-offload';
import { freshDir } from './helpers.ts';

const run = promisify(execFile);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sha256hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Each stored id reads back as its own output, and every record matches its artifact. */
async function checkNamespace(root: string, stored: { id: string; content: string }[]) {
  const ws = new Workspace({ root });
  assert.equal(new Set(stored.map((s) => s.id)).size, stored.length, 'two outputs share an artifact');
  for (const { id, content } of stored) {
    const back = await ws.getById(id);
    assert.equal(back.content, content, `${id} reads back another call's output`);
  }
  const records = await ws.queryArtifacts({}, { limit: 1000 });
  assert.equal(records.length, stored.length);
  for (const record of records) {
    const back = await ws.getById(record.id);
    assert.equal(record.metadata.sha256, sha256(back.content), `${record.id}: record and artifact differ`);
  }
}

test('20 concurrent offloadToolResult calls with 5 shared ids each keep their own output', async () => {
  const root = freshDir('ws-races');
  const ws = new Workspace({ root });
  const calls = Array.from({ length: 20 }, (_, i) => ({
    toolCallId: `call_${i % 5}`,
    toolName: 'bash',
    content: `output ${i}\n`.repeat(5000),
  }));
  const done = await Promise.all(calls.map((call) => ws.offloadToolResult(call)));
  const stored = done.map((d, i) => ({ id: d.artifactId!, content: calls[i].content }));
  assert.deepEqual(
    stored
      .map((s) => s.id)
      .filter((id) => id.startsWith('tool_result_call_0'))
      .sort(),
    ['tool_result_call_0', 'tool_result_call_0-1', 'tool_result_call_0-2', 'tool_result_call_0-3'],
  );
  await checkNamespace(root, stored);
});

test('4 processes storing 5 shared ids into one namespace each keep their own output', async () => {
  const root = freshDir('ws-races');
  const child = (tag: string) => `
    import { Workspace } from 'tool-offload';
    const ws = new Workspace({ root: ${JSON.stringify(root)} });
    const calls = Array.from({ length: 10 }, (_, i) => ({
      toolCallId: 'call_' + (i % 5), toolName: 'bash', content: '${tag} output ' + i + '\\n' + 'x'.repeat(50000),
    }));
    const done = await Promise.all(calls.map((call) => ws.offloadToolResult(call)));
    console.log(JSON.stringify(done.map((d, i) => ({ id: d.artifactId, content: calls[i].content }))));`;
  const spawn = (tag: string) =>
    run(process.execPath, ['--input-type=module', '-e', child(tag)], { cwd: process.cwd() });
  const outs = await Promise.all(['p1', 'p2', 'p3', 'p4'].map(spawn));
  const stored = outs.flatMap((out) => JSON.parse(out.stdout) as { id: string; content: string }[]);
  assert.equal(stored.length, 40);
  await checkNamespace(root, stored);
});

test('a record file that holds no record is reported and the rest still answer', async () => {
  const root = freshDir('ws-races');
  const ws = new Workspace({ root });
  await ws.offloadToolResult({ toolCallId: 'a', toolName: 'bash', content: 'fine', metadata: { offload: true } });
  const records = join(root, 'context', 'default', 'records');
  mkdirSync(records, { recursive: true });
  writeFileSync(join(records, 'broken.json'), '{"id":"bro');
  const found = await ws.queryArtifacts({});
  assert.deepEqual(
    found.map((r) => r.id),
    ['tool_result_a'],
  );
  assert.deepEqual(
    ws.skippedRecords().map((s) => s.id),
    ['broken'],
  );
  assert.match(ws.skippedRecords()[0].reason, /not a knowledge record/);
  assert.equal((await ws.getToolResultOffloadInfo()).length, 1);
  await assert.rejects(ws.getById('broken'), { code: 'READ_FAILED' });
});

test('records hash what is on disk, with node:crypto or a hasher of ours, and a bad hasher is refused', async () => {
  // Non-ASCII, a pair and a lone surrogate (written as U+FFFD, as everywhere).
  const content = `naïve ✓ 😀 cut \ud83d end\n`.repeat(3000);
  for (const sha256 of [undefined, (utf8: Uint8Array) => createHash('sha256').update(utf8).digest('hex')]) {
    const root = freshDir('ws-hash');
    const ws = new Workspace({ root, ...(sha256 ? { sha256 } : {}) });
    const done = await ws.offloadToolResult({ toolCallId: 'c', toolName: 'bash', content });
    const record = (await ws.queryArtifacts({}))[0];
    const onDisk = readFileSync(join(root, 'context', 'default', 'artifacts', 'knowledge', `${done.artifactId}.txt`));
    assert.equal(record.metadata.sha256, sha256hex(onDisk));
    assert.equal(record.metadata.chars, content.length);
  }
  const bad = new Workspace({ root: freshDir('ws-hash'), sha256: () => 'nope' });
  await assert.rejects(
    bad.offloadToolResult({ toolCallId: 'c', toolName: 'bash', content: 'x', metadata: { offload: true } }),
    {
      code: 'INVALID_ARGUMENT',
      message: /options\.sha256 must return 64 hex digits/,
    },
  );
});
