// The `ErrorCode` type is generated from core's `ErrorCode::ALL`, and `ERROR_CODES` is that
// same list at run time: the declaration users compile against names exactly the codes
// the package can throw, in order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, OffloadError, ToolRegistry, type ErrorCode } from 'tool-offload';

const declarations = join(dirname(fileURLToPath(import.meta.url)), '..', 'wasm', 'tool_offload_wasm.d.ts');

test('the generated ErrorCode union lists exactly ERROR_CODES, in order', () => {
  const dts = readFileSync(declarations, 'utf8');
  const union = /export type ErrorCode =([^;]*);/.exec(dts);
  assert.ok(union, 'no ErrorCode type in the generated declarations');
  const listed = [...union[1]!.matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]);
  assert.deepEqual(listed, [...ERROR_CODES]);
  assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
  assert.ok(Object.isFrozen(ERROR_CODES));
});

test('registry codes are ErrorCodes too', () => {
  const registry = new ToolRegistry();
  const handler = async () => ({ content: 'ok' });
  registry.register({ name: 'echo', description: 'Echo.', input_schema: { type: 'object' } }, handler);
  let thrown: unknown;
  try {
    registry.register({ name: 'echo', description: 'Echo.', input_schema: { type: 'object' } }, handler);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof OffloadError);
  const code: ErrorCode = thrown.code;
  assert.equal(code, 'DUPLICATE_TOOL');
  assert.ok(ERROR_CODES.includes(code));
});
