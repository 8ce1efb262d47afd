// JS values read into core as JSON (exportConversation, importConversation,
// formatLegacyToolRecord): the engine's JSON.stringify, then the value serde_json would
// parse from that text. Pins what the reading keeps: every number prints as
// JSON.stringify prints it, and the depth limit (128 nested containers, counting the
// wrapping array) fails with the same message and column.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatLegacyToolRecord, OffloadError } from 'tool-offload';

const record = (args: unknown): string => formatLegacyToolRecord({ toolName: 'calc', arguments: args, response: 'ok' });
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test('numbers come out as JSON.stringify writes them, integers past 2^53 and u64/i64 edges too', () => {
  const numbers = [
    0,
    -0,
    1,
    -1,
    0.1 + 0.2,
    5e-324,
    1.7976931348623157e308,
    1e21,
    -1e21,
    1e-7,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    -(2 ** 63) - 4096,
    2 ** 64 - 2048,
    2 ** 64,
    123456789012345680000,
  ];
  assert.equal(
    record(numbers),
    `<function_call>{"name":"calc","arguments":${JSON.stringify(numbers)},"response":"ok"}</function_call>`,
  );
});

test('128 nested containers are over the depth limit, reported at the column of the 128th', () => {
  assert.match(record(nested(126)), /^<function_call>\{"name":"calc","arguments":\[\[/);
  assert.throws(
    () => record(nested(127)),
    (err: unknown) =>
      err instanceof OffloadError &&
      err.code === 'INVALID_ARGUMENT' &&
      err.message.endsWith('cannot be read as JSON: recursion limit exceeded at line 1 column 128'),
  );
  // Columns count UTF-8 bytes of the JSON text; brackets inside strings do not nest.
  assert.throws(
    () => record({ 'é[{': [nested(125)] }),
    (err: unknown) => err instanceof OffloadError && /recursion limit exceeded at line 1 column 135$/.test(err.message),
  );
});
