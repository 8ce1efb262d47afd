// grep and context_grep under hostile patterns: core compiles every pattern with one
// linear-time engine, so none can hang the process or throw through the wasm boundary,
// and a bad one is INVALID_PATTERN with the reason (an OffloadError from `grep`, an
// is_error result from the registry).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Materializer, ToolRegistry } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Long enough for any machine; only a hang gets near it. Not a speed assertion. */
const HANG = 120_000;

/**
 * Run an ES module `script` (it may import 'tool-offload') in a child Node and return
 * what it printed. A backtracking engine blocks the event loop, where no timer (not even
 * node:test's own `timeout`) can fire: the child is killed instead, failing the test.
 */
async function inChild(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: HERE,
    timeout: HANG,
    killSignal: 'SIGKILL',
  });
  return stdout;
}

/** A materializer over a fresh directory, its read-back tools on a registry, and an artifact. */
async function setup(text: string) {
  const m = new Materializer({ userData: freshDir('grep'), conversationId: 'conv' });
  const registry = new ToolRegistry();
  m.registerTools(registry);
  const result = await m.materialize({ toolCallId: 'call_1', toolName: 'bash', output: text });
  assert.equal(result.inline, false);
  return { m, registry, ref: 'ctx://conv/tool/call_1.txt' };
}

test('(a+)+$ over 99,999 a then b finds its rows instead of hanging', { timeout: HANG }, async () => {
  // In a child process: with a backtracking engine the grep never returns.
  const out = await inChild(`
    import { mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    import { Materializer, ToolRegistry } from 'tool-offload';
    const m = new Materializer({ userData: mkdtempSync(join(tmpdir(), 'tool-offload-grep-')), conversationId: 'conv' });
    const registry = new ToolRegistry();
    m.registerTools(registry);
    const { ref } = await m.materialize({ toolCallId: 'call_1', toolName: 'bash', output: 'a'.repeat(99999) + 'b\\nok' });
    const page = await m.grep(ref.id, '(a+)+$', { context: 0, maxMatches: 1000 });
    const same = await m.grep(ref.id, 'a$', { context: 0, maxMatches: 1000 });
    const tool = await registry.executeTool('toolu_1', 'context_grep', { ref: ref.id, pattern: '(a+)+$', context: 0 });
    console.log(JSON.stringify({ page, same, tool }));
  `);
  const { page, same, tool } = JSON.parse(out);
  // Lines are read in parts of at most 2000 characters and `$` ends each part: the 50
  // parts of the long line all end in "a" but the last, 1999 "a" then "b", on which a
  // backtracking engine tries every way to split the run of "a".
  // The same rows match; what each shows differs (a part of a long line is shown as the
  // windows round its matches: all of it for `(a+)+$`, its end for `a$`).
  const rowsOf = (text: string) => text.split(',')[0];
  assert.equal(rowsOf(page), rowsOf(same));
  assert.match(page, /^\[ctx:\/\/conv\/tool\/call_1\.txt: 49 matching rows in 2 lines, with 0 rows of context; /);
  assert.equal(tool.is_error, undefined);
  assert.match(tool.content, /^\[ctx:\/\/conv\/tool\/call_1\.txt: 49 matching rows in 2 lines/);
});

test('a 60,000-character pattern is INVALID_PATTERN, not an exception that kills the process', async () => {
  const { m, registry, ref } = await setup('line\n'.repeat(2000));
  const pattern = 'a'.repeat(60_000);
  const reason = 'the pattern is 60,000 characters long; at most 1,000 are allowed';
  const shown = `invalid pattern "${'a'.repeat(100)}" …[cut: 59,900 more characters]: ${reason}`;
  const err = await rejected(m.grep(ref, pattern));
  assert.equal(err.code, 'INVALID_PATTERN');
  assert.equal(err.message, shown);
  // The model gets the same message as an error result, not 60 KB of its own input.
  const result = await registry.executeTool('toolu_1', 'context_grep', { ref, pattern });
  assert.deepEqual(result, { type: 'tool_result', tool_use_id: 'toolu_1', content: shown, is_error: true });
  // 1000 characters are allowed.
  assert.match(await m.grep(ref, 'a'.repeat(1000)), /: 0 matching rows in 2,000 lines/);
});

test('look-around and backreferences (valid in JavaScript) are INVALID_PATTERN with the reason', async () => {
  const { m, registry, ref } = await setup('line\n'.repeat(2000));
  for (const [pattern, reason] of [
    ['line(?=\\n)', 'look-around is not supported'],
    ['(?<!x)line', 'look-around is not supported'],
    ['(l)\\1', 'backreferences are not supported'],
  ]) {
    const message = `invalid pattern ${JSON.stringify(pattern)}: ${reason}`;
    const err = await rejected(m.grep(ref, pattern));
    assert.deepEqual([err.code, err.message], ['INVALID_PATTERN', message]);
    const result = await registry.executeTool('toolu_2', 'context_grep', { ref, pattern });
    assert.deepEqual([result.is_error, result.content], [true, message]);
  }
});

test('ignoreCase folds ASCII letters; other letters match as written, the same on every host', async () => {
  const { m, ref } = await setup(
    ['ERROR: disk', 'error: net', 'ÉCHEC: disque', 'échec: réseau', ...Array(2000).fill('ok')].join('\n'),
  );
  assert.match(
    await m.grep(ref, 'error', { ignoreCase: true, context: 0 }),
    /: 2 matching rows .*\n1\| ERROR: disk\n2\| error: net$/,
  );
  assert.match(await m.grep(ref, 'échec', { ignoreCase: true, context: 0 }), /: 1 matching row .*\n4\| échec: réseau$/);
});
