// Type compatibility with the official SDKs: runs tsc (strict, module nodenext) on the
// fixtures in test/types against the package's published types and the installed
// @anthropic-ai/sdk and openai. The positive fixture must type-check; the negative one
// must fail with exactly the expected diagnostic, so a checker that sees `any` (or
// nothing) cannot pass; and every `@ts-expect-error` pin must fail for its stated reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const types = join(here, 'types');
const tscBin = join(repo, 'node_modules', '.bin', 'tsc');

/** Run tsc in test/types; returns its exit status and output. */
function tsc(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(tscBin, ['--noEmit', '--pretty', 'false', ...args], { cwd: types, encoding: 'utf8' });
  assert.equal(run.error, undefined, `cannot run ${tscBin}: ${String(run.error)}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Diagnostics of `output` as { file, line, text } (text includes the elaboration lines). */
function diagnostics(output: string): { file: string; line: number; text: string }[] {
  const found: { file: string; line: number; text: string }[] = [];
  for (const line of output.split('\n')) {
    const head = /^(.+?)\((\d+),\d+\): error /.exec(line);
    if (head) found.push({ file: head[1], line: Number(head[2]), text: line });
    else if (found.length > 0 && line.trim() !== '') found[found.length - 1].text += `\n${line}`;
  }
  return found;
}

const version = (name: string): string =>
  (JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

test('the SDK compatibility fixture type-checks against the package and both SDKs', (t) => {
  t.diagnostic(
    `@anthropic-ai/sdk ${version('@anthropic-ai/sdk')}, openai ${version('openai')}, tsc ${tsc('--version').output.trim()}`,
  );

  // The check is not vacuous: the fixture, our declarations and both SDKs are in the program.
  const files = tsc('-p', 'tsconfig.json', '--listFilesOnly').output.split('\n');
  const has = (fragment: string) => files.some((f) => f.includes(fragment));
  for (const fragment of [
    'test/types/sdk-compat.ts',
    'host-node/esm/index.d.ts',
    'host-node/wasm/tool_offload_wasm.d.ts',
    // .d.ts or .d.mts, whichever the SDK's exports map gives an ES module.
    'node_modules/@anthropic-ai/sdk/resources/messages/messages.d.',
    'node_modules/openai/resources/chat/completions/completions.d.',
  ]) {
    assert.ok(has(fragment), `${fragment} is not part of the program:\n${files.join('\n')}`);
  }

  const { status, output } = tsc('-p', 'tsconfig.json');
  assert.equal(
    status,
    0,
    `tsc failed on test/types (an "Unused '@ts-expect-error' directive" means a pinned gap now holds: remove the pin):\n${output}`,
  );
  assert.equal(output.trim(), '');
});

test('each @ts-expect-error pin in the fixture fails for its stated reason', () => {
  const source = readFileSync(join(types, 'sdk-compat.ts'), 'utf8');
  const lines = source.split('\n');
  const pins = new Map<number, string>();
  lines.forEach((line, i) => {
    const pin = /^\s*\/\/ @ts-expect-error (.+)$/.exec(line);
    if (pin) pins.set(i + 2, pin[1].trim()); // the line after the directive, 1-based
  });
  assert.ok(pins.size >= 5, `expected the documented pins, found ${pins.size}`);

  // The fixture without its directives, as a .mts file (host-node/tsconfig.test.json
  // only includes .ts, so a concurrent type-check of the tests never sees it).
  const stem = `.unpinned-${process.pid}`;
  const file = join(types, `${stem}.mts`);
  const config = join(types, `${stem}.tsconfig.json`);
  try {
    writeFileSync(file, lines.map((l) => (/^\s*\/\/ @ts-expect-error /.test(l) ? '//' : l)).join('\n'));
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: [], files: [`${stem}.mts`] }));
    const { status, output } = tsc('-p', config);
    assert.notEqual(status, 0, output);
    const found = diagnostics(output);
    assert.deepEqual(
      found.map((d) => d.line),
      [...pins.keys()],
      `errors appear exactly on the pinned lines:\n${output}`,
    );
    for (const d of found) {
      assert.ok(d.file.endsWith(`${stem}.mts`), d.text);
      const reason = pins.get(d.line) ?? '';
      assert.ok(d.text.includes(reason), `line ${d.line}: expected "${reason}" in:\n${d.text}`);
    }
  } finally {
    rmSync(file, { force: true });
    rmSync(config, { force: true });
  }
});

test('the negative fixture fails to type-check with exactly the deliberate mismatch', () => {
  const { status, output } = tsc('-p', 'tsconfig.negative.json');
  assert.notEqual(status, 0, 'a deliberate mismatch must not type-check');
  assert.deepEqual(
    output.trim().split('\n'),
    [
      "negative.mts(8,14): error TS2739: Type 'ToolResult' is missing the following properties from type 'ChatCompletionToolMessageParam': role, tool_call_id",
    ],
    output,
  );
});

test('user code on the framework adapters type-checks under exactOptionalPropertyTypes and noUncheckedIndexedAccess', (t) => {
  t.diagnostic(`ai ${version('ai')}, @openai/agents ${version('@openai/agents')}, langchain ${version('langchain')}`);
  const files = tsc('-p', 'tsconfig.adapters.json', '--listFilesOnly').output.split('\n');
  for (const fragment of [
    'test/types/ai-sdk-compat.ts',
    'test/types/agents-compat.ts',
    'test/types/langchain-compat.ts',
    'test/types/mcp-compat.ts',
    'host-node/esm/adapters/ai-sdk.d.ts',
    'host-node/esm/adapters/openai-agents.d.ts',
    'host-node/esm/adapters/langchain.d.ts',
    'host-node/esm/adapters/mcp.d.ts',
    'node_modules/ai/dist/index.d.',
  ]) {
    assert.ok(
      files.some((f) => f.includes(fragment)),
      `${fragment} is not part of the program:\n${files.join('\n')}`,
    );
  }
  const { status, output } = tsc('-p', 'tsconfig.adapters.json');
  assert.equal(status, 0, `tsc failed on the adapter fixtures:\n${output}`);
});
