// A message whose fields run code when read (a getter or Proxy that throws) is reported
// as INVALID_MESSAGE naming the path, with what was thrown as `cause` — by batch offload,
// direct offload and materializeMessages alike — never skipped as if it had no tool result.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer, offloadToolResult, offloadToolResults } from 'tool-offload';
import { offloadError, RecordingWriter } from './helpers.ts';

const boom = new Error('getter exploded');
const throwing = (fields: object, key: string) =>
  Object.defineProperty({ ...fields }, key, {
    enumerable: true,
    get() {
      throw boom;
    },
  });

test('batch offload: a throwing content getter is INVALID_MESSAGE naming its path', async () => {
  const writer = new RecordingWriter();
  const messages = [{ role: 'user', content: 'hi' }, throwing({ role: 'tool', tool_call_id: 'c1' }, 'content')];
  const err = await offloadError(offloadToolResults(messages, { outputDir: '/v', writer }));
  assert.equal(err.code, 'INVALID_MESSAGE');
  assert.equal(err.message, 'invalid message: messages[1].content cannot be read: getter exploded');
  assert.equal(err.cause, boom);
  assert.deepEqual(writer.calls, [], 'nothing written');
});

test('batch offload: a Proxy whose trap throws, and a throwing block inside content', async () => {
  const writer = new RecordingWriter();
  const proxy = new Proxy(
    {},
    {
      get() {
        throw boom;
      },
    },
  );
  const first = await offloadError(offloadToolResults([proxy], { outputDir: '/v', writer }));
  assert.equal(first.message, 'invalid message: messages[0].role cannot be read: getter exploded');
  const blocks = new Proxy([{ type: 'text', text: 'a' }], {
    get(target, key) {
      if (key === '0') throw boom;
      return Reflect.get(target, key);
    },
  });
  const second = await offloadError(
    offloadToolResults([{ role: 'user', content: blocks }], { outputDir: '/v', writer }),
  );
  assert.equal(second.message, 'invalid message: messages[0].content[0] cannot be read: getter exploded');
  const block = throwing({ type: 'tool_result', content: 'x'.repeat(500) }, 'tool_use_id');
  const third = await offloadError(
    offloadToolResults([{ role: 'user', content: [block] }], { outputDir: '/v', writer }),
  );
  assert.equal(third.message, 'invalid message: messages[0].content[0].tool_use_id cannot be read: getter exploded');
});

test('direct offload and materializeMessages report it the same way', async () => {
  const writer = new RecordingWriter();
  const message = throwing({ role: 'tool', tool_call_id: 'c1' }, 'content');
  const direct = await offloadError(offloadToolResult(message as never, 's', '/v', writer));
  assert.equal(direct.message, 'invalid message: content cannot be read: getter exploded');
  assert.equal(direct.cause, boom);
  const m = new Materializer({ userData: '/v', conversationId: 'c', writer });
  const materialized = await offloadError(m.materializeMessages([message]));
  assert.equal(materialized.code, 'INVALID_MESSAGE');
  assert.equal(materialized.cause, boom);
});
