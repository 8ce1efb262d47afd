// Materializer.budget through the npm package: old results cleared into pointers that
// name artifacts readable byte for byte, the last ones kept, the caller's token counter
// used, frozen decisions, typed errors; and estimateTokens, core's estimate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { estimateTokens, Materializer, OffloadError } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const log = (id: string, lines: number): string =>
  Array.from({ length: lines }, (_, i) => `${id} line ${i}: compiling crate_${i}\n`).join('');

/** A conversation of `n` bash calls (OpenAI Chat) answered by logs of `lines` lines. */
function conversation(n: number, lines: number): object[] {
  const messages: object[] = [{ role: 'user', content: 'build' }];
  for (let i = 0; i < n; i++) {
    const id = `call_${i}`;
    messages.push({
      role: 'assistant',
      tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: log(id, lines) });
  }
  return messages;
}

const total = (messages: object[]): number =>
  messages.reduce((n: number, m) => n + estimateTokens(JSON.stringify(m)), 0);

test('estimateTokens is core calibrated estimate', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('hello world'), 3);
  assert.equal(estimateTokens('src/main.rs:42:    let x = 1;'), 13);
  assert.equal(estimateTokens('😀'), 2);
});

test('old results become pointers to artifacts that read back byte for byte', async () => {
  const userData = freshDir('budget');
  const m = new Materializer({ userData, conversationId: 'c1' });
  const messages = conversation(8, 200);
  const before = total(messages);
  const done = await m.budget(messages, { triggerTokens: before - 1 });
  assert.equal(done.tokensBefore, before);
  // The oldest go, one after the other, until the history is at most half the trigger.
  const ids = done.cleared.map((c) => c.toolCallId);
  assert.deepEqual(
    ids,
    ids.map((_, i) => `call_${i}`),
  );
  assert.ok(ids.length >= 4 && ids.length <= 5, ids.join());
  assert.ok(done.tokensAfter <= Math.floor((before - 1) / 2), `${done.tokensAfter}`);
  assert.equal(done.tokensAfter, total(done.messages));
  assert.equal(done.rewrittenFromMessage, 2);
  const first = done.cleared[0];
  assert.equal(first.ref, 'ctx://c1/tool/call_0.txt');
  assert.equal(
    (done.messages[2] as { content: string }).content,
    `[Earlier output of bash (call call_0, ${log('call_0', 200).length.toLocaleString('en')} chars) cleared from the conversation; stored as ctx://c1/tool/call_0.txt: context_read, context_grep]`,
  );
  assert.equal(readFileSync(join(userData, 'context/c1/artifacts/tool/call_0.txt'), 'utf8'), log('call_0', 200));
  assert.equal(done.paths.length, ids.length);
  // Unchanged messages are the very objects given; the input is untouched.
  assert.equal(done.messages[0], messages[0]);
  assert.equal((messages[2] as { content: string }).content, log('call_0', 200));
  // Frozen: the output again, under the trigger now, changes nothing.
  const again = await m.budget(done.messages, { triggerTokens: before - 1 });
  assert.deepEqual(again.cleared, []);
  assert.equal(again.rewrittenFromMessage, null);
  assert.ok(again.messages.every((x, i) => x === done.messages[i]));
});

test('the caller counts the tokens when it gives a counter', async () => {
  const m = new Materializer({ userData: freshDir('budget'), conversationId: 'c1' });
  const messages = conversation(5, 100);
  let calls = 0;
  const countTokens = (text: string): number => {
    calls++;
    return Math.ceil(text.length / 2);
  };
  const done = await m.budget(messages, { triggerTokens: 10, keepLast: 1, clearAtLeastTokens: 0, countTokens });
  assert.ok(calls >= messages.length);
  const byCounter = messages.reduce((n: number, x) => n + countTokens(JSON.stringify(x)), 0);
  assert.equal(done.tokensBefore, byCounter);
  assert.equal(done.cleared.length, 4);
  assert.equal(
    done.tokensAfter,
    done.messages.reduce((n: number, x) => n + countTokens(JSON.stringify(x)), 0),
  );
  // Excluded tools are never cleared.
  const none = await m.budget(messages, { triggerTokens: 10, clearAtLeastTokens: 0, excludeTools: ['bash'] });
  assert.deepEqual(none.cleared, []);
});

test('bad options are typed errors', async () => {
  const m = new Materializer({ userData: freshDir('budget'), conversationId: 'c1' });
  const messages = conversation(2, 10);
  const missing = await rejected(m.budget(messages, {} as never));
  assert.ok(missing instanceof OffloadError);
  assert.equal(missing.code, 'INVALID_ARGUMENT');
  assert.match(missing.message, /triggerTokens is required/);
  const negative = await rejected(m.budget(messages, { triggerTokens: -1 }));
  assert.equal(negative.code, 'INVALID_ARGUMENT');
  const tools = await rejected(m.budget(messages, { triggerTokens: 1, excludeTools: 'bash' as never }));
  assert.equal(tools.code, 'INVALID_ARGUMENT');
  assert.match(tools.message, /excludeTools must be an array of strings/);
  const notArray = await rejected(m.budget('x' as never, { triggerTokens: 1 }));
  assert.equal(notArray.code, 'INVALID_ARGUMENT');
});
