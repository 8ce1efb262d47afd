// The Materializer's countTokens: a caller's tokenizer decides maxInlineTokens and the
// context window, is asked only about text longer in bytes than the limit, fails the call
// it ran in with a typed error before anything is written, and is budget's default.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer } from 'tool-offload';
import { offloadError, RecordingWriter } from './helpers.ts';

/** A stand-in tokenizer: space-separated words; records the lengths it was asked about. */
function wordCounter(): { count: (text: string) => number; asked: number[] } {
  const asked: number[] = [];
  return { asked, count: (text) => (asked.push(text.length), text.split(' ').length) };
}

const long = Array(90).fill('alphabetically').join(' '); // 90 words, ~180 estimated tokens
const many = Array(150).fill('a').join(' '); // 150 words, 299 bytes

function materializer(countTokens?: (text: string) => number, writer = new RecordingWriter()): Materializer {
  return new Materializer({
    userData: '/data',
    conversationId: 'c1',
    writer,
    tools: { tok: { maxInlineTokens: 100 } },
    ...(countTokens ? { countTokens } : {}),
  });
}

test('maxInlineTokens counts by countTokens, only past the byte bound', async () => {
  const { count, asked } = wordCounter();
  const m = materializer(count);
  const output = (toolCallId: string, text: string) => ({ toolCallId, toolName: 'tok', output: text });
  assert.equal((await m.materialize(output('w1', long))).inline, true);
  assert.equal((await m.materialize(output('w2', many))).inline, false);
  assert.equal((await m.materialize(output('w3', 'a a a'))).inline, true);
  assert.deepEqual(asked, [long.length, many.length], 'a 5-byte output is within 100 tokens, uncounted');
  // Without a counter, the estimate puts the long words over the limit.
  assert.equal((await materializer().materialize(output('w1', long))).inline, false);
});

test('materializeMessages decides by the same counter', async () => {
  const { count } = wordCounter();
  const messages = [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'm1', name: 'tok', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'm1', content: long }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'm2', name: 'tok', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'm2', content: many }] },
  ];
  const done = await materializer(count).materializeMessages(messages);
  assert.deepEqual(
    done.refs.map((r) => r.id),
    ['ctx://c1/tool/m2.txt'],
  );
  assert.equal(done.messages[1], messages[1], 'the long words stay as they were');
});

test('a counter that throws or returns a non-count rejects the call, nothing written', async () => {
  for (const [bad, says] of [
    [
      () => {
        throw new Error('tokenizer down');
      },
      'options.countTokens threw: tokenizer down',
    ],
    [() => -1, 'options.countTokens must return a non-negative integer, got -1'],
    [() => 'many' as unknown as number, 'options.countTokens must return a non-negative integer, got many'],
  ] as const) {
    const writer = new RecordingWriter();
    const m = materializer(bad, writer);
    const err = await offloadError(m.materialize({ toolCallId: 'w2', toolName: 'tok', output: many }));
    assert.equal(err.code, 'INVALID_ARGUMENT');
    assert.equal(err.message, `invalid argument: ${says}`);
    const messages = [
      { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'tok', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'x', content: many },
    ];
    assert.equal((await offloadError(m.materializeMessages(messages))).code, 'INVALID_ARGUMENT');
    assert.deepEqual(writer.calls, [], 'nothing written');
  }
  assert.equal((await offloadError(Promise.resolve().then(() => materializer(42 as never)))).code, 'INVALID_ARGUMENT');
});

test('budget counts by the materializer counter unless given its own', async () => {
  const asked: string[] = [];
  const m = materializer((text) => (asked.push(text), 1));
  const messages = [{ role: 'user', content: 'hello' }];
  const done = await m.budget(messages, { triggerTokens: 1000 });
  assert.equal(done.tokensBefore, 1);
  assert.deepEqual(asked, [JSON.stringify(messages[0])]);
  const own = await m.budget(messages, { triggerTokens: 1000, countTokens: () => 7 });
  assert.equal(own.tokensBefore, 7);
});
