// What the model read back, through the npm package: readStats and unreadRefs over a
// history, and the remindUnread option of materializeMessages, also on a history whose
// messages the materializer has seen before (its cache of seen messages is skipped then).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer, OffloadError } from 'tool-offload';
import { freshDir } from './helpers.ts';

const failing = Array.from({ length: 400 }, (_, i) =>
  i === 200 ? 'error[E0308]: mismatched types' : `   Compiling crate_${i} v0.1.${i}`,
).join('\n');

function history(): object[] {
  return [
    { role: 'user', content: 'build it' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'cargo build' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: failing }] },
  ];
}

test('an unread failure is named at the end of the last user turn, once', async () => {
  const m = new Materializer({ userData: freshDir('reads'), conversationId: 'c1' });
  const first = await m.materializeMessages(history());
  const ref = first.refs[0].id;
  assert.deepEqual(m.unreadRefs(first.messages), [ref]);
  assert.deepEqual(m.readStats(first.messages), [{ ref, toolCallId: 't1', reads: 0, errors: true }]);
  // The same messages again, now known to the materializer: the reminder still comes.
  const reminded = await m.materializeMessages(first.messages, { remindUnread: true });
  const last = reminded.messages[2] as { content: { type: string; text?: string }[] };
  assert.equal(last.content.length, 2);
  assert.equal(
    last.content[1].text,
    `[Not read yet: ${ref} — output with errors, shown only in part. Read it (context_read, context_grep) before relying on it.]`,
  );
  // The messages given are not changed: the reminder is in a copy.
  assert.equal((first.messages[2] as { content: unknown[] }).content.length, 1);
  // Once read, nothing to remind and nothing unread.
  const read = [
    ...reminded.messages,
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'r1', name: 'context_grep', input: { ref, pattern: 'error' } }],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'r1', content: '201| error[E0308]: mismatched types' }],
    },
  ];
  assert.deepEqual(m.unreadRefs(read), []);
  assert.equal(m.readStats(read)[0].reads, 1);
  const after = await m.materializeMessages(read, { remindUnread: true });
  assert.equal(after.messages.length, read.length);
  assert.equal(after.messages.at(-1), read.at(-1));
});

test('bad arguments are typed errors', async () => {
  const m = new Materializer({ userData: freshDir('reads'), conversationId: 'c1' });
  assert.throws(
    () => m.readStats('nope' as unknown as object[]),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ARGUMENT',
  );
  await assert.rejects(
    m.materializeMessages(history(), { remindUnread: 'yes' as unknown as boolean }),
    (e: unknown) =>
      e instanceof OffloadError && e.code === 'INVALID_ARGUMENT' && /remindUnread must be a boolean/.test(e.message),
  );
});

test('messageBudgetChars materializes the largest fresh results of a message', async () => {
  const text = (n: number): string => 'x'.repeat(n - 1) + '\n';
  const m = new Materializer({ userData: freshDir('reads'), conversationId: 'c1', messageBudgetChars: 5000 });
  assert.equal(m.options.messageBudgetChars, 5000);
  const done = await m.materializeMessages([
    {
      role: 'assistant',
      tool_calls: ['a', 'b'].map((id) => ({ id, type: 'function', function: { name: 'sh', arguments: '{}' } })),
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: text(3000) },
        { type: 'tool_result', tool_use_id: 'b', content: text(3500) },
      ],
    },
  ]);
  assert.deepEqual(
    done.refs.map((r) => r.hint.toolCallId),
    ['b'],
  );
});

test('contextWindow: a result may take a share of what the history before it leaves', async () => {
  const log = (n: number): string =>
    Array.from({ length: n / 10 }, (_, i) => `line ${String(i).padStart(4, '0')}\n`).join('');
  const turn = (id: string, n: number): object[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: log(n) }] },
  ];
  const m = new Materializer({
    userData: freshDir('reads'),
    conversationId: 'c1',
    maxInlineChars: 1_000_000,
    maxInlineBytes: 4_000_000,
    contextWindow: { tokens: 20_000 },
  });
  assert.deepEqual(m.options.contextWindow, { tokens: 20_000, resultShare: 0.25 });
  const history = [...turn('big', 20_000), ...turn('small', 1_000)];
  const first = await m.materializeMessages(history);
  assert.deepEqual(
    first.refs.map((r) => r.hint.toolCallId),
    ['big'],
  );
  // The same messages again, and a late result: the seen-message cache is not used, the
  // decisions before it do not change.
  const second = await m.materializeMessages([...first.messages, ...turn('late', 12_000)]);
  assert.deepEqual(
    second.refs.map((r) => r.hint.toolCallId),
    ['late'],
  );
  for (const bad of [{ tokens: 10, resultShare: 2 }, { tokens: 10, resultShare: 0 }, { resultShare: 0.5 }, 'big']) {
    assert.throws(
      () => new Materializer({ userData: freshDir('reads'), conversationId: 'c1', contextWindow: bad as never }),
      (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ARGUMENT' && /contextWindow/.test(e.message),
    );
  }
});
