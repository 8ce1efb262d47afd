// The npm package's Materializer wired into loops: materializeMessages (idempotent,
// unchanged messages kept), terminal output, export/import bundles, the registry's
// `materialize` option with the read-back tools, and legacy tool records.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';

import { formatLegacyToolRecord, importConversation, Materializer, OffloadError, ToolRegistry } from 'tool-offload';
import type { MaterializeLogEntry } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const log = (lines: number, marker: string) =>
  Array.from({ length: lines }, (_, i) => `${marker} line ${i + 1}`).join('\n');

const conversation = () => [
  { role: 'user', content: 'build it' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log(800, 'make') }] },
  {
    role: 'assistant',
    tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'sql', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: log(600, 'row') }] },
  { role: 'tool', tool_call_id: 'call_3', content: 'short' },
];

test('materializeMessages writes oversize results, names their tools and is idempotent', async () => {
  const logged: MaterializeLogEntry[] = [];
  const m = new Materializer({ userData: freshDir('mm'), conversationId: 'conv', logger: (e) => logged.push(e) });
  const messages = conversation();
  const first = await m.materializeMessages(messages);
  assert.deepEqual(
    first.refs.map((r) => [r.id, r.hint.toolName]),
    [
      ['ctx://conv/tool/toolu_1.txt', 'bash'],
      ['ctx://conv/tool/call_2.txt', 'sql'],
    ],
  );
  assert.deepEqual(
    first.messages.map((msg, i) => msg === messages[i]),
    [true, true, false, true, false, true],
  );
  const block = (first.messages[2] as { content: { content: string }[] }).content[0];
  assert.ok(block.content.startsWith('[Output of bash (call toolu_1) stored as ctx://conv/tool/toolu_1.txt'));
  // Text blocks are stored as the text they hold, with real lines.
  assert.equal(readFileSync(first.paths[1], 'utf8'), log(600, 'row'));
  assert.equal((messages[2].content as unknown[]).length, 1, 'the input is untouched');
  assert.equal((messages[2].content as { content: string }[])[0].content, log(800, 'make'));
  assert.deepEqual(
    logged.map((e) => [e.toolCallId, e.path]),
    first.refs.map((r, i) => [r.hint.toolCallId, first.paths[i]]),
  );

  const second = await m.materializeMessages(first.messages);
  assert.deepEqual(second.refs, []);
  assert.ok(second.messages.every((msg, i) => msg === first.messages[i]));
  assert.equal(m.stats().hits, 2);
});

test('materializeMessages checks every message before writing anything', async () => {
  const userData = freshDir('mm-bad');
  const m = new Materializer({ userData, conversationId: 'conv' });
  const messages = [...conversation(), { role: 'tool', tool_call_id: '../x', content: log(900, 'x') }];
  const err = await rejected(m.materializeMessages(messages));
  assert.equal(err.code, 'INVALID_ID');
  assert.deepEqual(readdirSync(userData), []);
  assert.equal((await rejected(m.materializeMessages('nope' as never))).code, 'INVALID_ARGUMENT');
});

test('materializeTerminal writes artifacts/terminal/<id>.log with the same summary and refs', async () => {
  const m = new Materializer({ userData: freshDir('term'), conversationId: 'conv' });
  const small = await m.materializeTerminal('t0', 'ok');
  assert.deepEqual(small, { inline: true, content: 'ok' });
  const result = await m.materializeTerminal('snip-1', log(700, '$'));
  assert.equal(result.inline, false);
  if (result.inline) return;
  assert.equal(result.ref.id, 'ctx://conv/terminal/snip-1.log');
  assert.ok(result.path.endsWith('/context/conv/artifacts/terminal/snip-1.log'));
  assert.ok(result.content.startsWith('[Output of terminal (snippet snip-1) stored as ctx://conv/terminal/snip-1.log'));
  assert.ok((await m.tail(result.ref.id, 1)).endsWith('700| $ line 700'));
  assert.equal((await rejected(m.materializeTerminal('../x', log(700, '$')))).code, 'INVALID_ID');
});

test('exportConversation and importConversation round-trip every artifact; tampering is refused', async () => {
  const [a, b] = [freshDir('export'), freshDir('import')];
  const m = new Materializer({ userData: a, conversationId: 'conv' });
  const { messages } = await m.materializeMessages(conversation());
  const bundle = await m.exportConversation(messages);
  assert.equal(bundle.format, 'tool-offload/conversation');
  assert.deepEqual(
    bundle.artifacts.map((x) => x.path),
    ['tool/toolu_1.txt', 'tool/call_2.txt'],
  );

  const tampered = structuredClone(bundle);
  tampered.artifacts[1].content = '[]';
  const err = await rejected(importConversation(tampered, { userData: b }));
  assert.equal(err.code, 'INVALID_BUNDLE');
  assert.match(err.message, /artifacts\[1\] \(tool\/call_2\.txt\) fails its SHA-256 check/);
  const escaping = structuredClone(bundle);
  escaping.artifacts[0].ref = 'ctx://conv/tool/../../../x.txt';
  escaping.artifacts[0].path = 'tool/../../../x.txt';
  assert.equal((await rejected(importConversation(escaping, { userData: b }))).code, 'INVALID_BUNDLE');
  assert.deepEqual(readdirSync(b), [], 'nothing written by a refused import');

  const imported = await importConversation(JSON.parse(JSON.stringify(bundle)), { userData: b });
  assert.equal(imported.conversationId, 'conv');
  assert.deepEqual(imported.messages, JSON.parse(JSON.stringify(messages)));
  const restored = new Materializer({ userData: b, conversationId: imported.conversationId });
  assert.ok((await restored.read('ctx://conv/tool/toolu_1.txt', { limit: 1 })).endsWith('1| make line 1'));

  writeFileSync(imported.paths[0], 'other');
  const exists = await rejected(importConversation(bundle, { userData: b }));
  assert.equal(exists.code, 'ARTIFACT_EXISTS');
  assert.equal(readFileSync(imported.paths[0], 'utf8'), 'other');
});

test('ids with spaces, quotes, brackets, % or non-ASCII survive refs, export and import (issue 9)', async () => {
  const [a, b] = [freshDir('export-ids'), freshDir('import-ids')];
  const conversationId = 'chat "A" (1), [b] {c} <d> 50% é';
  const m = new Materializer({ userData: a, conversationId });
  const ids = ['call (1)', 'it\'s "q", [x]', '100%', 'naïve 日本 😀'];
  const { messages, refs, paths } = await m.materializeMessages(
    ids.map((id, i) => ({ role: 'tool', tool_call_id: id, content: log(700, `out${i}`) })),
  );
  assert.equal(
    refs[0].id,
    'ctx://chat%20%22A%22%20%281%29%2C%20%5Bb%5D%20%7Bc%7D%20%3Cd%3E%2050%25%20%C3%A9/tool/call%20%281%29.txt',
  );
  assert.ok(paths[0].endsWith(`/context/${conversationId}/artifacts/tool/call (1).txt`), paths[0]);
  // A model may read the ref back with the characters left unescaped.
  const typed = refs[0].id.replace('call%20%281%29', 'call (1)');
  assert.ok((await m.read(typed, { limit: 1 })).endsWith('1| out0 line 1'));
  const malformed = await rejected(m.read(refs[0].id.replace('%25', '%')));
  assert.equal(malformed.code, 'REF_OUT_OF_SCOPE');
  assert.match(malformed.message, /is malformed: "%%2" is not an escape: "%" must be followed by two hex digits/);

  const bundle = await m.exportConversation(messages);
  assert.deepEqual(
    bundle.artifacts.map((x) => x.path),
    ids.map((id) => `tool/${id}.txt`),
  );
  const imported = await importConversation(JSON.parse(JSON.stringify(bundle)), { userData: b });
  assert.equal(imported.paths.length, ids.length);
  const restored = new Materializer({ userData: b, conversationId: imported.conversationId });
  for (const [i, ref] of refs.entries()) {
    assert.ok((await restored.read(ref.id, { limit: 1 })).endsWith(`1| out${i} line 1`), ref.id);
  }
});

test('a registry with { materialize } gives summaries; read-back tools are never materialized or offloaded', async () => {
  const userData = freshDir('registry');
  const m = new Materializer({ userData, conversationId: 'conv' });
  const registry = new ToolRegistry({ materialize: m });
  m.registerTools(registry);
  assert.deepEqual(
    registry.getToolDefinitions().map((d) => d.name),
    ['context_read', 'context_tail', 'context_grep'],
  );
  registry.register({ name: 'build', input_schema: { type: 'object' } }, async () => ({
    content: log(900, 'error: failed'),
    is_error: true,
  }));
  const result = await registry.executeTool('toolu_9', 'build', {});
  assert.equal(result.is_error, true);
  assert.ok(result.content.startsWith('[Output of build (call toolu_9) stored as ctx://conv/tool/toolu_9.txt'));

  const page = await registry.executeTool('toolu_10', 'context_read', {
    ref: 'ctx://conv/tool/toolu_9.txt',
    limit: 5000,
  });
  assert.equal(page.is_error, undefined);
  assert.ok(page.content.startsWith('[ctx://conv/tool/toolu_9.txt: lines 1-'));
  assert.ok(page.content.length <= 4000);
  const out = await registry.executeTool('toolu_11', 'context_grep', { ref: 'ctx://other/tool/x.txt', pattern: 'x' });
  assert.deepEqual(out, {
    type: 'tool_result',
    tool_use_id: 'toolu_11',
    content: 'ref "ctx://other/tool/x.txt" is outside this conversation\'s artifacts',
    is_error: true,
  });
  const bad = await registry.executeTool('toolu_12', 'context_grep', {
    ref: 'ctx://conv/tool/toolu_9.txt',
    pattern: '(',
  });
  assert.equal(bad.is_error, true);
  assert.match(bad.content, /^invalid pattern "\("/);
  const badArg = await registry.executeTool('toolu_13', 'context_tail', {
    ref: 'ctx://conv/tool/toolu_9.txt',
    lines: -1,
  });
  assert.deepEqual([badArg.is_error, badArg.content], [true, 'lines must be a non-negative integer, got -1']);
  assert.throws(
    () => m.registerTools(registry),
    (e: unknown) => e instanceof OffloadError && e.code === 'DUPLICATE_TOOL',
  );

  const offloading = new ToolRegistry({ offload: { outputDir: freshDir('offload'), sessionId: 's' } });
  m.registerTools(offloading);
  const tail = await offloading.executeTool('toolu_14', 'context_tail', { ref: 'ctx://conv/tool/toolu_9.txt' });
  assert.ok(tail.content.length > 1000, 'over the offload threshold, yet returned as is');
  assert.ok(tail.content.endsWith('900| error: failed line 900'));

  assert.throws(
    () => new ToolRegistry({ materialize: {} as never }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ARGUMENT',
  );
});

test('formatLegacyToolRecord renders <function_call>{…,"response":…}</function_call>', () => {
  assert.equal(
    formatLegacyToolRecord({ toolName: 'bash', toolCallId: 'call_1', arguments: { cmd: 'make' }, response: 'done' }),
    '<function_call>{"name":"bash","id":"call_1","arguments":{"cmd":"make"},"response":"done"}</function_call>',
  );
  const record = formatLegacyToolRecord({ toolName: 't', arguments: {}, response: 'a </function_call> b' });
  assert.equal(record.split('</function_call>').length, 2, 'the response cannot close the record');
  const body = record.slice('<function_call>'.length, -'</function_call>'.length);
  assert.equal(JSON.parse(body).response, 'a </function_call> b');
  assert.throws(
    () => formatLegacyToolRecord({ toolName: 't', arguments: {} } as never),
    (e: unknown) =>
      e instanceof OffloadError && e.code === 'INVALID_ARGUMENT' && e.message.includes('response is missing'),
  );
});
