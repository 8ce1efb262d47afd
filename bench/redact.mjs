// Redaction beside Yelp's detect-secrets (issue 49), on the same cases: the generated
// secrets of core's tests (random values in each documented shape, in the contexts tools
// print them, fixed seed) and its look-alike corpus (code naming secrets, hashes, ids,
// placeholders). For each tool: how many secrets it finds, how many look-alikes it flags.
// Numbers, not pass/fail; a few seconds once built.
//
//   node bench/redact.mjs [--venv DIR]     (default target/bench/detect-secrets)
//
// detect-secrets runs from the venv's python (`make bench` makes it with `python3 -m
// venv` and pins detect-secrets 1.5.0 from PyPI); without it, its row says it was skipped.
// Writes target/bench/redact.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const repo = new URL('..', import.meta.url).pathname;
const venv = args.includes('--venv') ? args[args.indexOf('--venv') + 1] : join(repo, 'target/bench/detect-secrets');
const out = join(repo, 'target/bench');
mkdirSync(out, { recursive: true });
const casesPath = join(out, 'redact-cases.json');

execFileSync(
  'cargo',
  ['run', '--release', '--quiet', '-p', 'tool-offload-core', '--example', 'redact_bench', '--', '--json', casesPath],
  { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] },
);
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const ours = {
  tool: 'tool-offload redact',
  caught: cases.secrets.filter((c) => c.caught).length,
  secrets: cases.secrets.length,
  missed: count(cases.secrets.filter((c) => !c.caught).map((c) => c.kind)),
  flagged: cases.lookalikes.filter((c) => c.changed).map((c) => c.text),
  lookalikes: cases.lookalikes.length,
};

let theirs;
const python = join(venv, 'bin/python');
if (!existsSync(python)) {
  theirs = { skipped: `no ${python} (make bench makes it; python3 -m venv or PyPI unavailable?)` };
} else {
  const run = spawnSync(python, [join(repo, 'bench/redact_detect_secrets.py'), casesPath], { encoding: 'utf8' });
  theirs =
    run.status === 0
      ? { tool: 'detect-secrets', ...JSON.parse(run.stdout) }
      : { skipped: `detect-secrets failed: ${(run.stderr || run.error || '').toString().trim().split('\n').pop()}` };
}

function count(kinds) {
  const counts = {};
  for (const k of kinds) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

const pct = (n, of) => `${n} of ${of} (${Math.round((100 * n) / of)} %)`;
console.log(
  `\nRedaction on issue 49's cases: ${cases.secrets.length} generated secrets, ${cases.lookalikes.length} look-alikes`,
);
console.log('| tool | secrets found | look-alikes flagged |');
console.log('|---|---|---|');
for (const t of [ours, theirs]) {
  if (t.skipped) {
    console.log(`| detect-secrets | skipped: ${t.skipped} | |`);
    continue;
  }
  const name = t.version ? `${t.tool} ${t.version}` : t.tool;
  console.log(`| ${name} | ${pct(t.caught, t.secrets)} | ${pct(t.flagged.length, t.lookalikes)} |`);
}
for (const t of [ours, theirs].filter((t) => !t.skipped)) {
  const missed = Object.entries(t.missed).map(([k, n]) => `${k} ${n}`);
  if (missed.length) console.log(`${t.tool} missed: ${missed.join(', ')}`);
}
writeFileSync(join(out, 'redact.json'), JSON.stringify({ ours, theirs }, null, 2));
