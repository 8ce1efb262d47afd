// materializeMessages on every turn: messages an earlier call left unchanged are not
// walked again, and any change core would see in them (or a new message or block) is.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const big = (marker: string) => Array.from({ length: 800 }, (_, i) => `${marker} line ${i + 1}`).join('\n');

/**
 * An assistant message calling `id`, counting how often its `role` is read: core reads
 * it once when it walks the message (the tool name only when something is materialized),
 * and the check that a message is one already seen reads it once.
 */
function call(id: string, name: string) {
  const reads = { count: 0 };
  const block = { type: 'tool_use', id, name, input: {} };
  const message = { content: [block] } as Record<string, unknown>;
  Object.defineProperty(message, 'role', { enumerable: true, get: () => (reads.count++, 'assistant') });
  return { message, reads };
}
const result = (id: string, content: unknown) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content }],
});
const materializer = (name: string) => new Materializer({ userData: freshDir(name), conversationId: 'conv' });

test('the same array again does not walk its messages again', async () => {
  const m = materializer('seen-same');
  const { message, reads } = call('toolu_1', 'bash');
  const messages = [{ role: 'user', content: 'hi' }, message, result('toolu_1', 'short')];
  const first = await m.materializeMessages(messages);
  assert.ok(first.messages.every((msg, i) => msg === messages[i]));
  const afterFirst = reads.count;
  assert.ok(afterFirst > 0, 'core walked the message once');
  for (let turn = 0; turn < 3; turn++) {
    const again = await m.materializeMessages(messages);
    assert.deepEqual(again.refs, []);
    assert.deepEqual(again.paths, []);
    assert.notEqual(again.messages, messages, 'a new array');
    assert.ok(
      again.messages.every((msg, i) => msg === messages[i]),
      'the same objects',
    );
  }
  // Each later turn reads the role once, to check the message is the one remembered;
  // a walk by core would read it once more.
  assert.equal(reads.count - afterFirst, 3, 'nothing was walked again');
});

test('a new message in a reused array is processed, named by a remembered call', async () => {
  const m = materializer('seen-new');
  const { message } = call('toolu_1', 'bash');
  const messages: object[] = [{ role: 'user', content: 'hi' }, message];
  await m.materializeMessages(messages);
  messages.push(result('toolu_1', big('make')), { role: 'user', content: 'thanks' });
  const done = await m.materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => [r.id, r.hint.toolName]),
    [['ctx://conv/tool/toolu_1.txt', 'bash']],
  );
  assert.deepEqual(
    done.messages.map((msg, i) => msg === messages[i]),
    [true, true, false, true],
    'remembered messages come back as themselves, not as stand-ins',
  );
  const again = await m.materializeMessages(done.messages);
  assert.deepEqual(again.refs, []);
  assert.ok(again.messages.every((msg, i) => msg === done.messages[i]));
});

test('remembered calls still name new results as before: the first call with an id wins', async () => {
  const m = materializer('seen-order');
  const openai = {
    role: 'assistant',
    tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'openai-first', arguments: '{}' } }],
  };
  const messages: object[] = [
    { role: 'user', content: 'go' },
    call('toolu_1', 'first').message,
    call('toolu_1', 'second').message,
    openai,
    call('call_2', 'anthropic-later').message,
    { role: 'assistant', content: [{ type: 'text', text: 'no call' }] },
  ];
  await m.materializeMessages(messages);
  messages.push(result('toolu_1', big('a')), { role: 'tool', tool_call_id: 'call_2', content: big('b') });
  const done = await m.materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => r.hint.toolName),
    ['first', 'openai-first'],
  );
  assert.ok(done.messages.slice(0, 6).every((msg, i) => msg === messages[i]));
});

test('a remembered message changed where core looks is processed again', async () => {
  const m = materializer('seen-mutated');
  const anthropic = result('toolu_1', 'short');
  const openai = { role: 'tool', tool_call_id: 'call_2', content: 'short' };
  const responses = { type: 'function_call_output', call_id: 'call_3', output: 'short' };
  const blocks = { role: 'user', content: [{ type: 'text', text: 'see' }] as Record<string, unknown>[] };
  const retyped = { role: 'user', content: [{ type: 'text', tool_use_id: 'toolu_5', content: big('retyped') }] };
  const messages = [anthropic, openai, responses, blocks, retyped];
  assert.deepEqual((await m.materializeMessages(messages)).refs, []);
  assert.deepEqual((await m.materializeMessages(messages)).refs, []);

  anthropic.content[0].content = big('anthropic');
  openai.content = big('openai');
  responses.output = big('responses');
  blocks.content.push({ type: 'tool_result', tool_use_id: 'toolu_4', content: big('pushed') });
  retyped.content[0].type = 'tool_result';
  const done = await m.materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => r.id),
    ['toolu_1.txt', 'call_2.txt', 'call_3.txt', 'toolu_4.txt', 'toolu_5.txt'].map((f) => `ctx://conv/tool/${f}`),
  );
  assert.ok(done.messages.every((msg, i) => msg !== messages[i]));
});

test('a message whose tool result content is an array is never remembered', async () => {
  const m = materializer('seen-array');
  const parts = [{ type: 'text', text: 'short' }];
  const messages = [{ role: 'tool', tool_call_id: 'call_1', content: parts }];
  assert.deepEqual((await m.materializeMessages(messages)).refs, []);
  parts[0].text = big('inside');
  const done = await m.materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => r.id),
    ['ctx://conv/tool/call_1.txt'],
  );
});

test('remembered messages still get the checks of the call: a fired signal, a bad message', async () => {
  const m = materializer('seen-checks');
  const messages: unknown[] = [result('toolu_1', 'short')];
  await m.materializeMessages(messages as object[]);
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  assert.equal(
    (await rejected(m.materializeMessages(messages as object[], { signal: controller.signal }))).code,
    'ABORTED',
  );
  messages.push(42);
  assert.equal((await rejected(m.materializeMessages(messages as object[]))).code, 'INVALID_MESSAGE');
});

test('a remembered message of any shape is processed again once its content changes', async () => {
  const m = materializer('seen-shapes');
  const agents = { type: 'function_call_result', name: 'bash', callId: 'call_a', status: 'completed', output: 'short' };
  const langchain = { type: 'tool', tool_call_id: 'lc_1', content: 'short' };
  const stored = { type: 'tool', data: { tool_call_id: 'lc_2', content: 'short' } };
  const serialised = {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', 'ToolMessage'],
    kwargs: { tool_call_id: 'lc_3', content: 'short' },
  };
  const aiSdk = {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_b', toolName: 'fetch', output: { type: 'text', value: 'short' } },
    ],
  };
  const messages = [agents, langchain, stored, serialised, aiSdk];
  assert.deepEqual((await m.materializeMessages(messages)).refs, []);
  agents.output = big('agents');
  langchain.content = big('plain');
  stored.data.content = big('stored');
  serialised.kwargs.content = big('serialised');
  aiSdk.content[0]!.output.value = big('ai');
  const done = await m.materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => [r.id, r.hint.toolName]),
    [
      ['ctx://conv/tool/call_a.txt', 'bash'],
      ['ctx://conv/tool/lc_1.txt', 'tool'],
      ['ctx://conv/tool/lc_2.txt', 'tool'],
      ['ctx://conv/tool/lc_3.txt', 'tool'],
      ['ctx://conv/tool/call_b.txt', 'fetch'],
    ],
  );
});
