// Grep speed per pattern class (issue 33): the patterns models write, on one generated
// log artifact, through the npm package (core in wasm) and the CLI (core native), each
// beside GNU `grep -nE` (`-i` where the pattern asks for it) on the same file in this
// script (its whole output piped to `wc -l`: it finds every match, as our header counts).
// Prints ms per run (best of 3) and the ratio to GNU grep; numbers, not pass/fail. The
// npm package is timed after one warm-up grep of the file: V8 compiles wasm in tiers, and
// a process's first calls run its baseline code (~2× slower), as GNU grep's do not.
//
//   node bench/grep-classes.mjs [--mb N] [--quick]     (default 100 MB; --quick 10 MB)
//
// Past 100 MB (`--mb 1000`), 100 MB are materialized and the artifact file is then grown
// on disk by copies of itself to N MB (a JavaScript string cannot hold 1 GB); the failure
// lines repeat with it. The peak memory of one native and one npm grep is printed last.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { Materializer } from 'tool-offload';

const args = process.argv.slice(2);
const mb = args.includes('--quick') ? 10 : Number(args[args.indexOf('--mb') + 1] || 100);
const repo = new URL('..', import.meta.url).pathname;

// A service log: INFO lines with ids and timings, a WARN now and then, one rare failure
// near the end (what the patterns below look for).
function log(bytes) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 997 === 0
        ? `2026-11-23T12:${String(i % 60).padStart(2, '0')}:00Z WARN pool ${i % 13} slow: waited ${i % 900}ms for order=${1000000 + (i % 8999999)}`
        : `2026-11-23T12:${String(i % 60).padStart(2, '0')}:00Z INFO worker ${i % 7} processed order=${1000000 + (i % 8999999)} item ${i} in ${i % 97}ms`;
    parts.push(line);
    size += line.length + 1;
  }
  parts.splice(
    parts.length - 100,
    0,
    'ERROR thread main: index out of range [7] with length 3',
    'goroutine 1 [running]:',
    'Panic: runtime error: index out of range',
  );
  return parts.join('\n') + '\n';
}

const PATTERNS = [
  ['literal', 'out of range', false],
  ['alternation', 'panic|fatal|out of range', false],
  ['ignore_case option', 'panic: runtime', true],
  ['(?i) inline', '(?i)panic: runtime', false],
  ['\\d class with count', 'order=\\d{7}\\b', false],
  ['\\b word boundary', '\\bPanic\\b', false],
  ['.* between literals', 'ERROR.*out of range', false],
  ['anchors', '^ERROR thread', false],
  ['escaped class, literal', '\\[\\d+\\] with', false],
  ['no required literal', '\\d{7}\\b', false],
];

// Adversarial patterns: linear time is the guarantee; each is reported beside the literal
// search of the same file (issue 33: none may take longer than 20× it).
const ADVERSARIAL = [
  ['64-way alternation', Array.from({ length: 64 }, (_, i) => `w${100 + i}x`).join('|')],
  ['nested repetition', '(\\w+\\s?)+$'],
  ['counted alternation', '(a|aa){40}c'],
  ['160-way alternation', Array.from({ length: 160 }, (_, i) => `w${100 + i}x`).join('|')],
];

const dir = mkdtempSync(join(tmpdir(), 'tool-offload-grep-classes-'));
const m = new Materializer({ userData: dir, conversationId: 'bench', maxInlineChars: 4000 });
const { ref, path } = await m.materialize({
  toolCallId: 'log',
  toolName: 'bash',
  output: log(Math.min(mb, 100) * 1e6),
});
if (mb > 100) {
  const copy = readFileSync(path);
  for (let size = copy.length; size < mb * 1e6; size += copy.length) appendFileSync(path, copy);
}
execFileSync('cargo', ['build', '--release', '--quiet', '-p', 'tool-offload-cli'], { cwd: repo, stdio: 'inherit' });
const cli = join(repo, 'target', 'release', 'tool-offload');

const ms = (run) => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const msAsync = async (run) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};
const gnu = (pattern, ignoreCase) => {
  // GNU grep has no `(?i)`: the inline flag is its -i.
  const inline = pattern.startsWith('(?i)');
  const flags = ignoreCase || inline ? ['-nEi'] : ['-nE'];
  // ERE has no `\d`: GNU grep would read it as `d`.
  const ere = (inline ? pattern.slice(4) : pattern).replaceAll('\\d', '[0-9]');
  // Into a pipe: with its output on /dev/null GNU grep stops at the first match.
  spawnSync('bash', ['-c', `grep ${flags[0]} "$1" "$2" | wc -l`, '_', ere, path]);
};

await m.grep(ref.id, 'warm-up|\\bwarm\\d+');
console.log(`grep by pattern class over a ${mb} MB log (${ref.id}), ms per run (best of 3):\n`);
console.log('| class | pattern | GNU grep -nE | CLI (native) | × | npm (wasm) | × |');
console.log('|---|---|---:|---:|---:|---:|---:|');
const bestOf3 = async (run) => Math.min(await run(), await run(), await run());
for (const [label, pattern, ignoreCase] of PATTERNS) {
  const g = await bestOf3(async () => ms(() => gnu(pattern, ignoreCase)));
  const native = await bestOf3(async () =>
    ms(() =>
      spawnSync(cli, ['grep', ref.id, pattern, '--user-data', dir, ...(ignoreCase ? ['-i'] : [])], {
        maxBuffer: 1 << 28,
      }),
    ),
  );
  const wasm = await bestOf3(() => msAsync(() => m.grep(ref.id, pattern, { ignoreCase })));
  console.log(
    `| ${label} | \`${pattern.replaceAll('|', '\\|')}\` | ${g.toFixed(0)} | ${native.toFixed(0)} | ${(native / g).toFixed(1)} | ${wasm.toFixed(0)} | ${(wasm / g).toFixed(1)} |`,
  );
}
const literalMs = await bestOf3(() => msAsync(() => m.grep(ref.id, 'out of range')));
const literalNative = ms(() =>
  spawnSync(cli, ['grep', ref.id, 'out of range', '--user-data', dir], { maxBuffer: 1 << 28 }),
);
console.log('\n| adversarial | pattern | CLI (native) ms | × literal | npm (wasm) ms | × literal |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [label, pattern] of ADVERSARIAL) {
  const native = ms(() => spawnSync(cli, ['grep', ref.id, pattern, '--user-data', dir], { maxBuffer: 1 << 28 }));
  const wasm = await msAsync(() => m.grep(ref.id, pattern));
  const shown = pattern.length > 40 ? `${pattern.slice(0, 37)}… (${pattern.length} chars)` : pattern;
  console.log(
    `| ${label} | \`${shown.replaceAll('|', '\\|')}\` | ${native.toFixed(0)} | ${(native / literalNative).toFixed(1)} | ${wasm.toFixed(0)} | ${(wasm / literalMs).toFixed(1)} |`,
  );
}

// Peak memory: the CLI's maximum resident set (GNU time), the npm process's resident set
// grown by one grep (the page it returns, not the file).
const peak = spawnSync('/usr/bin/time', ['-f', '%M', cli, 'grep', ref.id, 'order=\\d{7}\\b', '--user-data', dir], {
  maxBuffer: 1 << 28,
  encoding: 'utf8',
});
const rssBefore = process.memoryUsage().rss;
await m.grep(ref.id, 'order=\\d{7}\\b');
const rssAfter = process.memoryUsage().rss;
console.log(
  `\npeak memory, grep \`order=\\d{7}\\b\` of ${mb} MB: CLI ${(Number(peak.stderr.trim().split('\n').at(-1)) / 1024).toFixed(0)} MB resident; npm process ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MB resident`,
);
rmSync(dir, { recursive: true, force: true });
