// Lone UTF-16 surrogates (a tool output cut mid-emoji): no error in content, which is
// written with U+FFFD as Node's fs writes it (EF BF BD), sizes in JS terms; INVALID_ID in
// any id, checked before the id could silently become U+FFFD. Every entry point.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  formatLegacyToolRecord,
  importConversation,
  Materializer,
  NodeFileWriter,
  OffloadError,
  offloadToolResult,
  offloadToolResults,
  offloadToolResultToFile,
  ToolRegistry,
} from 'tool-offload';
import type { MaterializeResult, Message, ToolDefinition } from 'tool-offload';
import { freshDir, offloadError as rejected, RecordingWriter } from './helpers.ts';

const FFFD = Buffer.from([0xef, 0xbf, 0xbd]);
/** A tool output cut mid-emoji: `n` units of text, then half of 😀. */
const cut = (n: number): string => `${'a'.repeat(n)}\uD83D`;
/** The bytes Node's fs writes for a JS string: lone surrogates as EF BF BD. */
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const placeholder = (path: string): string => `[Tool result offloaded to file: ${path}]`;
const toolResult = (content: unknown, id: unknown = 'toolu_1'): Message =>
  ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] }) as unknown as Message;
const LONE = 'contains a lone UTF-16 surrogate';
const def = (name: string): ToolDefinition => ({ name, description: name, input_schema: { type: 'object' } });

function artifactOf(result: MaterializeResult): Extract<MaterializeResult, { inline: false }> {
  assert.equal(result.inline, false, 'expected the output to be materialized');
  return result as Extract<MaterializeResult, { inline: false }>;
}

test('direct offload writes content ending in a lone surrogate with U+FFFD; the writer gets the string as is', async () => {
  const out = freshDir('lone-direct');
  const content = cut(2000);
  const done = await offloadToolResultToFile(toolResult(content), { sessionId: 's', outputDir: out });
  const bytes = readFileSync(done.file);
  assert.deepEqual(bytes, utf8(content));
  assert.deepEqual(bytes.subarray(-3), FFFD);
  assert.equal(bytes.length, Buffer.byteLength(content));
  assert.equal(done.freedChars, content.length - placeholder(done.file).length);

  // Every message shape; a custom writer is handed the JS string itself.
  for (const message of [
    { role: 'tool', tool_call_id: 'c', content: '\uDC00 low first' },
    { type: 'function_call_output', call_id: 'c', output: 'x\uDBFFy' },
  ]) {
    const writer = new RecordingWriter();
    const result = await offloadToolResult(message as unknown as Message, 's', '/out', writer);
    const text = (message as { content?: string; output?: string }).content ?? (message as { output: string }).output;
    assert.equal(writer.files.get('/out/s/c.md'), text);
    assert.equal(result.freedChars, text.length - placeholder('/out/s/c.md').length);
  }

  // Array content is written as JSON.stringify writes it: the surrogate escaped.
  const writer = new RecordingWriter();
  await offloadToolResult(toolResult([{ type: 'text', text: '\uDC00' }]), 's', '/out', writer);
  assert.equal(writer.files.get('/out/s/toolu_1.md'), '[{"type":"text","text":"\\udc00"}]');
});

test('batch offload writes content with a lone surrogate as U+FFFD and counts it as one unit', async () => {
  const out = freshDir('lone-batch');
  const at = `${'x'.repeat(9)}\uD83D`; // 10 units: at the threshold
  const under = `${'y'.repeat(8)}\uD83D`; // 9 units: stays
  const messages = [toolResult(at, 'a'), toolResult(under, 'b')];
  const done = await offloadToolResults(messages, { outputDir: out, threshold: 10 });
  assert.equal(done.offloadedCount, 1);
  assert.deepEqual(done.files, [join(out, 'tool-result-a.md')]);
  assert.deepEqual(readFileSync(done.files[0]), Buffer.concat([Buffer.from('x'.repeat(9)), FFFD]));
  assert.equal(done.freedChars, at.length);
  assert.equal(done.messages[1], messages[1], 'the short one is returned untouched, surrogate and all');
});

test('Materializer.materialize writes a lone surrogate as U+FFFD; limits count it as 1 unit and 3 bytes', async () => {
  const userData = freshDir('lone-mat');
  const m = new Materializer({ userData, conversationId: 'c', maxInlineBytes: 5 });
  // 'ab' + lone = 5 bytes (Buffer.byteLength): inline, returned as the very string.
  const inline = await m.materialize({ toolCallId: 'i', toolName: 't', output: 'ab\uD83D' });
  assert.deepEqual(inline, { inline: true, content: 'ab\uD83D' });
  // 'abc' + lone = 6 bytes: over.
  const output = 'abc\uD83D';
  const result = artifactOf(await m.materialize({ toolCallId: 'o', toolName: 't', output }));
  assert.deepEqual(readFileSync(result.path), Buffer.concat([Buffer.from('abc'), FFFD]));
  assert.equal(result.ref.hint.bytes, Buffer.byteLength(output));
  assert.equal(result.ref.hint.chars, output.length);

  const big = `${'line\n'.repeat(1000)}end \uD83D`;
  const defaults = new Materializer({ userData, conversationId: 'd' });
  const written = artifactOf(await defaults.materialize({ toolCallId: 'big', toolName: 't', output: big }));
  assert.deepEqual(readFileSync(written.path), utf8(big));
  // The summary shows the last line as the file holds it.
  assert.ok(written.content.includes('1001| end \uFFFD\n'));
});

test('materializeTerminal and materializeMessages write lone surrogates as U+FFFD', async () => {
  const m = new Materializer({ userData: freshDir('lone-mm'), conversationId: 'c' });
  const text = cut(5000);
  const terminal = artifactOf(await m.materializeTerminal('snip', text));
  assert.deepEqual(readFileSync(terminal.path), utf8(text));
  assert.deepEqual(readFileSync(terminal.path).subarray(-3), FFFD);

  const messages = [{ role: 'tool', tool_call_id: 'call_1', content: text }];
  const done = await m.materializeMessages(messages);
  assert.equal(done.paths.length, 1);
  assert.deepEqual(readFileSync(done.paths[0]), utf8(text));
  assert.equal(done.refs[0].hint.chars, text.length);
  // A small one stays as it is, surrogate and all.
  const small = [{ role: 'tool', tool_call_id: 'call_2', content: 'x\uDC00' }];
  assert.equal((await m.materializeMessages(small)).messages[0], small[0]);
});

test('the registry offloads or materializes a result ending in a lone surrogate, written as U+FFFD', async () => {
  const out = freshDir('lone-reg');
  const registry = new ToolRegistry({ offload: { outputDir: out, sessionId: 's1', thresholdChars: 10 } });
  registry.register(def('big'), async (params: { content: string }) => ({ content: params.content }));
  const content = cut(20);
  const result = await registry.executeTool('toolu_1', 'big', { content });
  const file = join(out, 's1', 'toolu_1.md');
  assert.deepEqual(result, { type: 'tool_result', tool_use_id: 'toolu_1', content: placeholder(file) });
  assert.deepEqual(readFileSync(file), utf8(content));
  // Below the threshold: the handler's own string, unchanged.
  assert.equal((await registry.executeTool('toolu_2', 'big', { content: 'x\uD800' })).content, 'x\uD800');

  const m = new Materializer({ userData: freshDir('lone-reg-m'), conversationId: 'c' });
  const materializing = new ToolRegistry({ materialize: m });
  materializing.register(def('big'), async (params: { content: string }) => ({ content: params.content }));
  const big = cut(5000);
  const summary = await materializing.executeTool('toolu_3', 'big', { content: big });
  assert.ok(summary.content.startsWith('[Output of big (call toolu_3) stored as ctx://c/tool/toolu_3.txt'));
  const [name] = readdirSync(join(m.options.userData, 'context', 'c', 'artifacts', 'tool'));
  assert.deepEqual(readFileSync(join(m.options.userData, 'context', 'c', 'artifacts', 'tool', name)), utf8(big));
});

test('ids differing only in a lone surrogate are INVALID_ID, never two outputs in one U+FFFD file', async () => {
  const writer = new RecordingWriter();
  const messages = [toolResult('a'.repeat(200), 'x\uD83D'), toolResult('b'.repeat(200), 'x\uDC00')];
  const err = await rejected(offloadToolResults(messages, { outputDir: '/out', writer }));
  assert.equal(err.code, 'INVALID_ID');
  assert.equal(err.message, `invalid messages[0].content[0].tool_use_id: ${LONE}`);
  assert.deepEqual(writer.calls, []);
  // Below the threshold the id names no file, so it is no error (as for any unsafe id).
  const small = await offloadToolResults([toolResult('short', 'x\uD83D')], { outputDir: '/out', writer });
  assert.equal(small.offloadedCount, 0);

  for (const [message, field] of [
    [toolResult('big', 'id\uD83D'), 'content[0].tool_use_id'],
    [{ role: 'tool', tool_call_id: '\uDC00', content: 'big' }, 'tool_call_id'],
    [{ type: 'function_call_output', call_id: 'c\uD800', output: 'big' }, 'call_id'],
  ] as const) {
    const e = await rejected(offloadToolResult(message as unknown as Message, 's', '/out', writer));
    assert.equal(e.code, 'INVALID_ID');
    assert.equal(e.message, `invalid ${field}: ${LONE}`);
  }
  const session = await rejected(offloadToolResult(toolResult('big'), 's\uD83D', '/out', writer));
  assert.equal(session.message, `invalid sessionId: ${LONE}`);
  assert.deepEqual(writer.calls, []);
});

test('Materializer ids with a lone surrogate are INVALID_ID', async () => {
  const userData = freshDir('lone-ids');
  assert.throws(
    () => new Materializer({ userData, conversationId: 'c\uD83D' }),
    (e: unknown) =>
      e instanceof OffloadError && e.code === 'INVALID_ID' && e.message === `invalid conversationId: ${LONE}`,
  );
  const m = new Materializer({ userData, conversationId: 'c' });
  // Even when the output would stay inline: the id would be returned changed otherwise.
  for (const output of ['small', cut(5000)]) {
    const e = await rejected(m.materialize({ toolCallId: 'x\uD83D', toolName: 't', output }));
    assert.equal(e.message, `invalid toolCallId: ${LONE}`);
  }
  assert.equal((await rejected(m.materializeTerminal('t\uDC00', cut(5000)))).message, `invalid snippetId: ${LONE}`);
  const messages = [{ role: 'tool', tool_call_id: 'x\uD83D', content: cut(5000) }];
  const e = await rejected(m.materializeMessages(messages));
  assert.equal(e.message, `invalid messages[0].tool_call_id: ${LONE}`);
  assert.deepEqual(readdirSync(userData), []);
  assert.throws(
    () => formatLegacyToolRecord({ toolName: 't', toolCallId: 'x\uD83D', arguments: {}, response: 'r' }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ID' && e.message === `invalid toolCallId: ${LONE}`,
  );
});

test("executeTool('id\\uD83D') rejects with INVALID_ID before the handler runs, never answering for id\\uFFFD", async () => {
  const registry = new ToolRegistry();
  let called = 0;
  registry.register(def('echo'), () => ({ content: String(++called) }));
  const err = await rejected(registry.executeTool('id\uD83D', 'echo', {}));
  assert.equal(err.code, 'INVALID_ID');
  assert.equal(err.message, `invalid toolUseId: ${LONE}`);
  assert.equal(called, 0);
  assert.throws(
    () => new ToolRegistry({ offload: { outputDir: '/out', sessionId: 's\uDC00', writer: new NodeFileWriter() } }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ID' && e.message === `invalid sessionId: ${LONE}`,
  );
});

test('exportConversation, importConversation and formatLegacyToolRecord keep lone surrogates of messages as JSON.stringify does', async () => {
  const m = new Materializer({ userData: freshDir('lone-export'), conversationId: 'c' });
  const messages = [
    { role: 'user', content: 'kept \uD83D', ['k\uDC00']: 1 },
    { role: 'tool', tool_call_id: 'call_1', content: `${'line\n'.repeat(1000)}cut \uD83D` },
  ];
  const { messages: slim } = await m.materializeMessages(messages);
  const bundle = await m.exportConversation(slim);
  assert.equal(JSON.stringify(bundle.messages), JSON.stringify(slim));
  assert.ok(bundle.artifacts[0].content.endsWith('cut \uFFFD'), 'an artifact holds what its file holds');
  const imported = await importConversation(bundle, { userData: freshDir('lone-import') });
  assert.deepEqual(imported.messages, slim);

  const record = { toolName: 'bash\uDBFF', toolCallId: 'call_1', arguments: { q: 'a\uDC00' }, response: 'cut \uD83D' };
  const { toolName: name, toolCallId: id, arguments: args, response } = record;
  assert.equal(
    formatLegacyToolRecord(record),
    `<function_call>${JSON.stringify({ name, id, arguments: args, response })}</function_call>`,
  );
});

test('a ref holding a lone surrogate is REF_NOT_FOUND, never the artifact of the U+FFFD id', async () => {
  const m = new Materializer({ userData: freshDir('lone-ref'), conversationId: 'c' });
  const other = artifactOf(
    await m.materialize({ toolCallId: 'x\uFFFD', toolName: 't', output: 'line\n'.repeat(1000) }),
  );
  // Refs percent-encode non-ASCII; the raw spelling reads the same artifact.
  assert.equal(other.ref.id, 'ctx://c/tool/x%EF%BF%BD.txt');
  assert.match(await m.tail('ctx://c/tool/x\uFFFD.txt', 1), /line$/);
  for (const read of [(r: string) => m.read(r), (r: string) => m.tail(r), (r: string) => m.grep(r, 'line')]) {
    assert.equal((await rejected(read('ctx://c/tool/x\uD83D.txt'))).code, 'REF_NOT_FOUND');
  }
});

test('context_read with a ref holding a lone surrogate is a REF_NOT_FOUND result, never another artifact', async () => {
  const m = new Materializer({ userData: freshDir('lone-tool'), conversationId: 'c' });
  await m.materialize({ toolCallId: 'x\uFFFD', toolName: 't', output: 'line\n'.repeat(1000) });
  const registry = new ToolRegistry();
  m.registerTools(registry);
  for (const name of ['context_read', 'context_tail', 'context_grep']) {
    const result = await registry.executeTool('toolu_1', name, { ref: 'ctx://c/tool/x\uD83D.txt', pattern: 'line' });
    assert.equal(result.is_error, true, name);
    assert.match(result.content, /^no artifact for ref /, name);
  }
});
