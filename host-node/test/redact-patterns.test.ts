// `redact: { patterns, replace }` through the real wasm and real files: a user's
// patterns (strings, RegExps, named objects) and replacement reach every writer, what
// was replaced is counted where the artifact is described, and bad ones are typed errors.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Materializer, OffloadError, offloadToolResults, ToolRegistry, NodeFileWriter, Workspace } from 'tool-offload';
import type { Redact } from 'tool-offload';
import { freshDir } from './helpers.ts';

const ORDER = 'ACME-20261202';
const HOST = 'INTERNAL-HOST-42';
const output = (): string =>
  `order ${ORDER} shipped\nping ${HOST}: ok\nkey AKIAIOSFODNN7EXAMPLE\n` + 'request served\n'.repeat(400);

const redact: Redact = {
  patterns: ['ACME-[0-9]{8}', /internal-host-\d+/i],
};

function textsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

function assertClean(text: string, marker = (kind: string) => `[REDACTED:${kind}]`): void {
  assert.ok(
    !text.includes(ORDER) && !text.includes(HOST) && !text.includes('AKIAIOSFODNN7EXAMPLE'),
    text.slice(0, 200),
  );
  assert.ok(text.includes(`order ${marker('custom')} shipped`));
  assert.ok(text.includes(`ping ${marker('custom')}: ok`), 'a RegExp keeps its i flag');
  assert.ok(text.includes(`key ${marker('aws-access-key')}`), 'the built-in rules run too');
}

test('a Materializer stores, summarises and counts with the user patterns', async () => {
  const userData = freshDir('redact-patterns-m');
  const m = new Materializer({ userData, conversationId: 'c', redact });
  const done = await m.materialize({ toolCallId: 'svc', toolName: 'bash', output: output() });
  assert.ok(!done.inline && done.ref && done.path);
  assertClean(readFileSync(done.path, 'utf8'));
  assert.ok(!String(done.content).includes(ORDER));
  assert.deepEqual(done.ref.hint.redacted, { 'aws-access-key': 1, custom: 2 });
  assert.deepEqual(m.options.redact, {
    patterns: [
      { pattern: 'ACME-[0-9]{8}', kind: 'custom', ignoreCase: false },
      { pattern: 'internal-host-\\d+', kind: 'custom', ignoreCase: true },
    ],
  });
  const plain = new Materializer({ userData, conversationId: 'p', redact: true });
  const kept = await plain.materialize({ toolCallId: 'svc', toolName: 'bash', output: output() });
  assert.ok(!kept.inline);
  assert.ok(readFileSync(kept.path, 'utf8').includes(ORDER), 'true is the built-in rules only');
  assert.equal(plain.options.redact, true);
  assert.equal(new Materializer({ userData, conversationId: 'o' }).options.redact, undefined);
});

test('named kinds and a replacement reach batch and registry offload', async () => {
  const named: Redact = {
    patterns: [
      { pattern: 'ACME-[0-9]{8}', kind: 'order' },
      { pattern: /internal-host-\d+/, kind: 'host', ignoreCase: true },
    ],
    replace: '<hidden>',
  };
  const dir = freshDir('redact-patterns-batch');
  const messages = [{ role: 'tool', tool_call_id: 'call_1', content: output() }];
  const done = await offloadToolResults(messages, { outputDir: dir, redact: named });
  assert.equal(done.offloadedCount, 1);
  for (const text of textsUnder(dir)) assertClean(text, () => '<hidden>');

  const regDir = freshDir('redact-patterns-registry');
  const registry = new ToolRegistry({
    offload: { outputDir: regDir, sessionId: 's', thresholdChars: 100, writer: new NodeFileWriter(), redact: named },
  });
  registry.register({ name: 'svc', description: 'Service log.', input_schema: { type: 'object' } }, async () => ({
    content: output(),
  }));
  await registry.executeTool('toolu_1', 'svc', {});
  for (const text of textsUnder(regDir)) assertClean(text, () => '<hidden>');
});

test("a Workspace's record counts what was replaced, by kind", async () => {
  const root = freshDir('redact-patterns-ws');
  const ws = new Workspace({ root, redact: { patterns: [{ pattern: 'ACME-[0-9]{8}', kind: 'order' }] } });
  const done = await ws.offloadToolResult({
    toolCallId: 'a',
    toolName: 'bash',
    content: output(),
    metadata: { offload: true },
  });
  const back = await ws.getById(done.artifactId!);
  assert.ok(!back.content.includes(ORDER) && back.content.includes('[REDACTED:order]'));
  const [record] = await ws.queryArtifacts({});
  assert.deepEqual(record.metadata.redacted, { 'aws-access-key': 1, order: 1 });
});

test('bad redact options are typed errors naming what is wrong', () => {
  const userData = freshDir('redact-patterns-bad');
  const fails = (value: unknown, code: string, message: RegExp) =>
    assert.throws(
      () => new Materializer({ userData, conversationId: 'c', redact: value as Redact }),
      (e: unknown) => e instanceof OffloadError && e.code === code && message.test(e.message),
      JSON.stringify(String(value)),
    );
  fails(
    'yes',
    'INVALID_ARGUMENT',
    /options\.redact must be a boolean or \{ patterns\?: \[\], replace\?: string \}, got string/,
  );
  fails({ patterns: 'x' }, 'INVALID_ARGUMENT', /options\.redact must be/);
  fails({ replace: 7 }, 'INVALID_ARGUMENT', /options\.redact must be/);
  fails({ patterns: [7] }, 'INVALID_ARGUMENT', /options\.redact\.patterns\[0\] must be a string, a RegExp or/);
  fails({ patterns: ['ok', { kind: 'k' }] }, 'INVALID_ARGUMENT', /options\.redact\.patterns\[1\]/);
  fails({ patterns: [{ pattern: 'x', kind: 'a b' }] }, 'INVALID_ARGUMENT', /kind must be 1 to 64 ASCII letters/);
  fails({ patterns: [/(?=a)b/] }, 'INVALID_PATTERN', /look-around is not supported/);
  fails({ patterns: ['('] }, 'INVALID_PATTERN', /invalid pattern "\("/);
});
