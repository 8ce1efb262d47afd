// The npm package's Workspace on disk: the <knowledge_list> parses with a real XML parser,
// the decision rules, records on disk, queries, paging and grep, the knowledge tools on a
// registry, the logger and callbacks, offloadMessages, export/import, and typed errors.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { OffloadError, ToolRegistry, Workspace } from 'tool-offload';
import type { WorkspaceLogEntry } from 'tool-offload';
import { freshDir, offloadError } from './helpers.ts';
import { parseXml } from './xml.mjs';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const log = (lines: number, error = 0): string =>
  Array.from({ length: lines }, (_, i) =>
    i + 1 === error ? `FATAL <db> & "pool" gone \u001b[0m` : `ok ${i + 1}`,
  ).join('\n');

function fresh(options: Partial<ConstructorParameters<typeof Workspace>[0]> = {}) {
  const root = freshDir('workspace');
  const ws = new Workspace({ root, agentId: 'agent-1', taskId: 'task-1', now: () => NOW, ...options });
  return { ws, root, dir: join(root, 'context', options.namespace ?? 'default') };
}

/** Rejects with an `OffloadError` of `code`; the error. */
async function rejected(promise: Promise<unknown>, code: string): Promise<OffloadError> {
  const error = await offloadError(promise);
  assert.equal(error.code, code, error.message);
  return error;
}

test('a large tool result is stored and replaced by a <knowledge_list> that parses as XML', async () => {
  const { ws, dir } = fresh({ sessionId: 's"<&>' });
  const content = log(9000, 4242);
  const done = await ws.offloadToolResult({ toolCallId: 'call_1', toolName: 'bash', actionName: 'run', content });
  assert.equal(done.offloaded, true);
  assert.equal(done.artifactId, 'tool_result_call_1');
  assert.equal(done.reason, 'over_threshold');
  const list = done.content as string;
  assert.ok(list.length < 40_000);
  const elements = parseXml(list);
  assert.deepEqual(
    elements.map((e) => e.name),
    ['knowledge_list', 'knowledge'],
  );
  const attributes = elements[1].attributes;
  assert.equal(attributes.id, 'tool_result_call_1');
  assert.equal(attributes.session_id, 's"<&>');
  assert.equal(attributes.lines, '9000');
  assert.equal(attributes.created_at, '2026-11-25T12:00:00.000Z');
  assert.match(list, /4242\| FATAL &lt;db&gt; &amp; &quot;pool&quot; gone \n/);
  assert.equal(readFileSync(join(dir, 'artifacts', 'knowledge', 'tool_result_call_1.txt'), 'utf8'), content);
  const record = JSON.parse(readFileSync(join(dir, 'records', 'tool_result_call_1.json'), 'utf8'));
  assert.deepEqual(Object.keys(record.metadata), [
    'context_type',
    'biz_id',
    'agent_id',
    'task_id',
    'session_id',
    'tool_name',
    'action_name',
    'chars',
    'bytes',
    'lines',
    'sha256',
    'created_at',
  ]);
  // Offloading the reference again is a no-op.
  const again = await ws.offloadToolResult({ toolCallId: 'call_1', toolName: 'bash', content: list });
  assert.deepEqual(again, { offloaded: false, content: list });
});

test('the 40,000 boundary and the decision rules', async () => {
  const { ws } = fresh({ offloadTools: ['web_fetch'], countTokens: (text) => text.split(' ').length });
  const at = await ws.offloadToolResult({ toolCallId: 'at', toolName: 'bash', content: 'x '.repeat(20_000) });
  assert.ok((at.content as string).startsWith('<knowledge_list>'));
  const under = 'y '.repeat(19_999) + 'y';
  const kept = await ws.offloadToolResult({ toolCallId: 'under', toolName: 'bash', content: under });
  assert.equal(kept.content, under, 'stored, still inline');
  assert.equal(kept.offloaded, true);
  const small = await ws.offloadToolResult({ toolCallId: 'small', toolName: 'ls', content: 'a b c' });
  assert.deepEqual(small, { offloaded: false, content: 'a b c', reason: 'under_threshold' });
  const listed = await ws.offloadToolResult({ toolCallId: 'l', toolName: 'web_fetch', content: 'tiny' });
  assert.equal(listed.reason, 'listed_tool');
  const never = await ws.offloadToolResult({
    toolCallId: 'n',
    toolName: 'web_fetch',
    content: 'tiny',
    metadata: { offload: false },
  });
  assert.equal(never.reason, 'flag_false');
  const value = { rows: [1, 2, 3] };
  const json = await ws.offloadToolResult({
    toolCallId: 'j',
    toolName: 'sql',
    content: value,
    metadata: { offload: true },
  });
  assert.equal(json.content, value, 'the very value given');
  const stored = await ws.getById('tool_result_j');
  assert.equal(stored.type, 'json');
  assert.equal(stored.content, '{"rows":[1,2,3]}');
});

test('queries, the overview, paging and grep, in this namespace only', async () => {
  const { ws, root } = fresh();
  for (const [i, tool] of ['bash', 'grep', 'bash'].entries()) {
    await ws.offloadToolResult({ toolCallId: `c${i}`, toolName: tool, content: log(3000, 7), metadata: { retry: i } });
  }
  const ids = (records: { id: string }[]) => records.map((r) => r.id);
  assert.deepEqual(ids(await ws.queryArtifacts({ tool_name: 'bash' })), ['tool_result_c0', 'tool_result_c2']);
  assert.deepEqual(ids(await ws.queryArtifacts({ retry: 1 })), ['tool_result_c1']);
  assert.deepEqual(ids(await ws.queryArtifacts({}, { limit: 1, offset: 2 })), ['tool_result_c2']);
  const info = await ws.getToolResultOffloadInfo({ taskId: 'task-1' });
  assert.equal(info.length, 3);
  assert.equal(info[0].tool_name, 'bash');
  const page = await ws.getByLines('tool_result_c0', 6, 7);
  assert.equal(
    page,
    '[tool_result_c0: lines 6-7 of 3,000. More: get_knowledge_by_lines("tool_result_c0", 8, 9)]\n6| ok 6\n7| FATAL <db> & "pool" gone \u001b[0m',
  );
  const found = await ws.grep('tool_result_c1', 'fatal', { ignoreCase: true, context: 0 });
  assert.match(found, /\n7\| FATAL/);
  const other = new Workspace({ root, namespace: 'team-b' });
  const error = await rejected(other.getById('tool_result_c0'), 'REF_NOT_FOUND');
  assert.equal(error.message, 'no knowledge artifact "tool_result_c0" in namespace "team-b"');
  await rejected(ws.getToolResultOffloadInfo({ namespace: 'team-b' }), 'REF_OUT_OF_SCOPE');
  await rejected(ws.getById('../team-b/x'), 'INVALID_ID');
});

test('the knowledge tools on a registry answer the model', async () => {
  const { ws } = fresh();
  await ws.offloadToolResult({ toolCallId: 'c1', toolName: 'bash', content: log(50_000, 33_333) });
  const registry = new ToolRegistry();
  ws.registerTools(registry);
  assert.deepEqual(
    registry.getToolDefinitions().map((d) => d.name),
    [
      'get_knowledge_by_id',
      'get_knowledge_by_lines',
      'grep_knowledge',
      'query_artifacts',
      'get_tool_result_offload_info',
    ],
  );
  const grep = await registry.executeTool('u1', 'grep_knowledge', {
    id: 'tool_result_c1',
    pattern: 'FATAL',
    context: 0,
  });
  assert.match(grep.content as string, /\n33333\| FATAL/);
  const missing = await registry.executeTool('u2', 'get_knowledge_by_id', { id: 'nope' });
  assert.equal(missing.is_error, true);
  assert.throws(
    () => ws.registerTools(registry),
    (e: unknown) => e instanceof OffloadError && e.code === 'DUPLICATE_TOOL',
  );
});

test('offloadMessages keeps unchanged messages and is idempotent; the logger sees each decision', async () => {
  const entries: WorkspaceLogEntry[] = [];
  const { ws } = fresh({ logger: (entry) => void entries.push(entry) });
  const messages = [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'read_file', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: log(20_000) }] },
    { role: 'tool', tool_call_id: 'small', content: 'ok' },
  ];
  const done = await ws.offloadMessages(messages);
  assert.equal(done.messages[0], messages[0]);
  assert.equal(done.messages[2], messages[2]);
  assert.notEqual(done.messages[1], messages[1]);
  assert.deepEqual(done.artifactIds, ['tool_result_tu_1']);
  const record = await ws.getById('tool_result_tu_1');
  assert.equal(record.metadata.tool_name, 'read_file');
  const again = await ws.offloadMessages(done.messages);
  assert.deepEqual(again.artifactIds, []);
  assert.equal(again.messages[1], done.messages[1]);
  assert.deepEqual(
    entries.map((e) => [e.event, e.biz_id, e.reason]),
    [
      ['decision', 'tu_1', 'over_threshold'],
      ['stored', 'tu_1', undefined],
    ],
  );
  assert.ok(entries.every((e) => e.context_type === 'tool_result'));
});

test('add, export and import a namespace', async () => {
  const { ws, root } = fresh();
  const stored = await ws.add({ id: 'plan-1', content: { steps: ['a', 'b'] }, metadata: { context_type: 'plan' } });
  assert.equal(stored.type, 'json');
  assert.equal(stored.reused, false);
  await rejected(ws.add({ id: 'p2', content: 'x', metadata: {} as never }), 'INVALID_ARGUMENT');
  await rejected(
    ws.add({ id: 'p3', content: 'not json', type: 'json', metadata: { context_type: 'n' } }),
    'INVALID_ARGUMENT',
  );
  await rejected(ws.add({ id: 'plan-1', content: 'other', metadata: { context_type: 'plan' } }), 'ARTIFACT_EXISTS');
  const bundle = await ws.exportNamespace();
  assert.equal(bundle.format, 'tool-offload/workspace');
  const target = new Workspace({ root: freshDir('workspace-import'), namespace: 'copy' });
  assert.deepEqual(await target.importNamespace(bundle), ['plan-1']);
  assert.equal((await target.getById('plan-1')).content, '{"steps":["a","b"]}');
  bundle.items[0].content = 'tampered';
  await rejected(target.importNamespace(bundle), 'INVALID_BUNDLE');
  assert.ok(existsSync(join(root, 'context', 'default', 'records', 'plan-1.json')));
});

test('bad options and callbacks are typed errors', async () => {
  const root = freshDir('workspace-bad');
  assert.throws(
    () => new Workspace({ root, namespace: 'a/b' }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ID',
  );
  assert.throws(
    () => new Workspace({ root, inlineLimit: 10 }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(() => new Workspace({ root, offloadTools: [1 as never] }), /offloadTools must hold tool names/);
  const throwing = new Workspace({
    root,
    countTokens: () => {
      throw new Error('tokenizer down');
    },
  });
  // A result of at most tokenThreshold bytes cannot be over it: the counter is not asked.
  const short = await throwing.offloadToolResult({ toolCallId: 'c', toolName: 't', content: 'x' });
  assert.equal(short.offloaded, false);
  const error = await rejected(
    throwing.offloadToolResult({ toolCallId: 'c', toolName: 't', content: 'x'.repeat(2001) }),
    'INVALID_ARGUMENT',
  );
  assert.match(error.message, /countTokens threw: tokenizer down/);
  const badClock = new Workspace({ root, now: () => NaN, offloadTools: ['t'] });
  await rejected(badClock.offloadToolResult({ toolCallId: 'c', toolName: 't', content: 'x' }), 'INVALID_ARGUMENT');
});
