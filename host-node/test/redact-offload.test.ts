// `redact` in direct, batch and registry offload through the real wasm and real files:
// the secrets never reach the disk, the messages are as without it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  NodeFileWriter,
  offloadToolResult,
  offloadToolResults,
  offloadToolResultToFile,
  ToolRegistry,
} from 'tool-offload';
import type { Message } from 'tool-offload';
import { freshDir, offloadError } from './helpers.ts';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const secretOutput = (): string =>
  `AWS_ACCESS_KEY_ID=${AWS}\nAuthorization: Bearer ${JWT}\n` + 'build ok\n'.repeat(200);

/** Every file under `dir`, recursively, with its text. */
function filesIn(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      found.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return found;
}

function assertNoSecret(dir: string): void {
  const files = filesIn(dir);
  assert.ok(files.size > 0);
  for (const [path, text] of files) {
    assert.ok(!text.includes(AWS) && !text.includes(JWT), `${path} holds a secret`);
    assert.match(text, /\[REDACTED:aws-access-key\]/);
    assert.match(text, /\[REDACTED:jwt\]/);
  }
}

test('offloadToolResult with redact writes no secret; the message is as without it', async () => {
  const dir = freshDir('redact-direct');
  const message = { role: 'tool', tool_call_id: 'call_1', content: secretOutput() } as unknown as Message;
  const writer = new NodeFileWriter();
  const redacted = await offloadToolResult(message, 's1', join(dir, 'on'), writer, { redact: true });
  const plain = await offloadToolResult(message, 's1', join(dir, 'no'), writer);
  assertNoSecret(join(dir, 'on'));
  assert.ok(readFileSync(plain.file, 'utf8').includes(AWS), 'off by default');
  assert.equal(redacted.freedChars, plain.freedChars);
  await offloadToolResultToFile(message, { sessionId: 's2', outputDir: join(dir, 'file'), redact: true });
  assertNoSecret(join(dir, 'file'));
  const bad = await offloadError(
    offloadToolResult(message, 's1', dir, writer, { redact: 'yes' as unknown as boolean }),
  );
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.match(bad.message, /options\.redact/);
});

test('offloadToolResults with redact writes no secret and reuses its files on a re-run', async () => {
  const dir = freshDir('redact-batch');
  const messages = [
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: secretOutput() }] },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: secretOutput() }] },
  ];
  const first = await offloadToolResults(messages, { outputDir: dir, redact: true });
  assert.equal(first.offloadedCount, 2);
  assertNoSecret(dir);
  const again = await offloadToolResults(messages, { outputDir: dir, redact: true });
  assert.deepEqual(again.files, first.files);
  assert.equal(filesIn(dir).size, 2);
});

test('a ToolRegistry offloading with redact writes no secret', async () => {
  const dir = freshDir('redact-registry');
  const registry = new ToolRegistry({
    offload: { outputDir: dir, sessionId: 's1', thresholdChars: 100, writer: new NodeFileWriter(), redact: true },
  });
  registry.register(
    { name: 'env', description: 'Print the environment.', input_schema: { type: 'object' } },
    async () => ({
      content: secretOutput(),
    }),
  );
  const result = await registry.executeTool('toolu_9', 'env', {});
  assert.equal(result.content, `[Tool result offloaded to file: ${join(dir, 's1', 'toolu_9.md')}]`);
  assertNoSecret(dir);
});
