// Replay over whole sessions, the project's headline figure: `tool-offload replay` (the
// command a user runs on their own sessions) over every conversation of the corpus, under
// each context policy, in one table.
//
//   node bench/replay.mjs [--corpus DIR] [--quick] [--json PATH]
//
// Builds the CLI in release mode first. The workload is ../shared/corpus (anthropic/ and
// openai/), or its generated stand-in (bench/corpus.mjs); --quick replays the first 5
// Anthropic conversations and the first OpenAI one. Policies: the command's own (`none`,
// `offload`, `materialize`, `headtail`) and the Materializer at other limits
// (`--max-inline-chars 2000`, `1000`, `--tool Read=never`). Writes every figure to
// target/bench/replay.json (--json PATH), which bench/report.mjs reads. bench/README.md
// ("Replay over whole sessions") has the definitions; bench/replay-reference.mjs is the
// same replay reimplemented in JavaScript, which tests/replay/reference.test.mjs holds the
// command to.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { corpusDir, repoRoot, replayArgs } from './corpus.mjs';

const args = replayArgs(process.argv.slice(2), 'bench/replay.mjs', 'replay');
const log = (...m) => console.error(...m);
const CACHE_READ = 0.1;
const CACHE_WRITE = 1.25;

const RUNS = [
  {
    flags: ['--policy', 'offload', '--policy', 'materialize', '--policy', 'headtail'],
    names: {},
  },
  // The peers' policies at their defaults: Anthropic's server-side clearing, Claude Code's
  // persistence, the OpenAI Agents SDK's tool-output trimmer.
  { flags: ['--policy', 'clear-tool-uses', '--policy', 'claude-code', '--policy', 'agents-trimmer'], names: {} },
  { flags: ['--policy', 'materialize', '--max-inline-chars', '2000'], names: { materialize: 'materialize-2000' } },
  { flags: ['--policy', 'materialize', '--max-inline-chars', '1000'], names: { materialize: 'materialize-1000' } },
  { flags: ['--policy', 'materialize', '--tool', 'Read=never'], names: { materialize: 'materialize-read-inline' } },
  // The budget at two triggers (tokens), after the Materializer at its defaults.
  { flags: ['--policy', 'budget', '--trigger-tokens', '40000'], names: { budget: 'budget-40k' } },
  { flags: ['--policy', 'budget', '--trigger-tokens', '10000'], names: { budget: 'budget-10k' } },
];

log('replay: building the CLI (release)');
execFileSync('cargo', ['build', '--release', '--quiet', '-p', 'tool-offload-cli'], { cwd: repoRoot, stdio: 'inherit' });
const cli = join(repoRoot, 'target/release/tool-offload');

const { dir: corpus, source } = corpusDir(args.corpus);
const files = (format) =>
  readdirSync(join(corpus, format))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(corpus, format, f));
const inputs = args.quick
  ? [...files('anthropic').slice(0, 5), ...files('openai').slice(0, 1)]
  : [join(corpus, 'anthropic'), join(corpus, 'openai')];

const totals = {};
let conversations = null;
const seconds = {};
for (const run of RUNS) {
  const t0 = performance.now();
  const out = execFileSync(cli, ['replay', ...inputs, ...run.flags, '--json'], { maxBuffer: 256 << 20 });
  const label = run.flags.filter((f) => !f.startsWith('--policy')).join(' ') || 'default limits';
  seconds[label] = (performance.now() - t0) / 1000;
  const report = JSON.parse(out.toString('utf8'));
  conversations ??= report.conversations.map((c) => ({ input: c.input, turns: c.turns, policies: {} }));
  for (const [policy, t] of Object.entries(report.totals.policies)) {
    const name = run.names[policy] ?? (policy === 'headtail' ? 'headtail-10k' : policy);
    if (totals[name]) continue; // `none` comes with every run, the same each time
    totals[name] = legacy(t);
    report.conversations.forEach((c, i) => (conversations[i].policies[name] = legacy(c.policies[policy])));
  }
}
const base = totals.none;
for (const t of Object.values(totals)) {
  t.removedPct = pct(base.chars - t.chars, base.chars);
  t.cacheSavingPct = pct(base.cacheCost - t.cacheCost, base.cacheCost);
  t.tokenCacheSavingPct = pct(base.tokenCacheCost - t.tokenCacheCost, base.tokenCacheCost);
}

/** A policy's figures as the report reads them (cache cost in characters too). */
function legacy(p) {
  const s = p.previewSufficiency;
  return {
    chars: p.chars,
    tokens: p.tokens,
    cacheCost: CACHE_READ * p.cacheReadChars + CACHE_WRITE * (p.chars - p.cacheReadChars),
    cacheRead: p.cacheReadChars,
    tokenCacheCost: p.cacheCost,
    stableTurns: p.prefixStableTurns,
    laterTurns: p.laterTurns,
    results: p.results,
    shrunk: p.shrunk,
    sufficiency: { all: [s.visible, s.used], new: [s.newVisible, s.newUsed] },
    artifacts: p.artifacts,
    needles: p.needles ? { recovered: p.needles.found, total: p.needles.total } : null,
    plannedRewrites: p.plannedRewrites ?? null,
    tools: (p.tools ?? []).map((t) => ({
      tool: t.tool,
      results: t.results,
      shrunk: t.shrunk,
      charsBefore: t.charsBefore,
      charsAfter: t.charsAfter,
      sufficiency: {
        all: [t.previewSufficiency.visible, t.previewSufficiency.used],
        new: [t.previewSufficiency.newVisible, t.previewSufficiency.newUsed],
      },
    })),
  };
}
function pct(part, whole) {
  return whole > 0 ? (100 * part) / whole : null;
}

// -----------------------------------------------------------------------------------------
const n = (x) => Math.round(x).toLocaleString('en');
const p1 = (x) => (x == null ? '—' : `${x.toFixed(1)} %`);
const ratio = ([a, b]) => (b > 0 ? `${p1((100 * a) / b)} (${a}/${b})` : '—');
const table = [
  ['policy', 'chars sent', 'removed', 'tokens', 'cache cost (chars)', 'saving', 'cache cost (tokens)', 'saving',
   'prefix-stable', 'shrunk', 'sufficiency all', 'sufficiency new', 'needles'],
]; // prettier-ignore
for (const [name, t] of Object.entries(totals)) {
  table.push([
    name,
    n(t.chars),
    p1(t.removedPct),
    n(t.tokens),
    n(t.cacheCost),
    p1(t.cacheSavingPct),
    n(t.tokenCacheCost),
    p1(t.tokenCacheSavingPct),
    `${t.stableTurns}/${t.laterTurns}${t.plannedRewrites != null ? ` (${t.plannedRewrites} planned)` : ''}`,
    `${t.shrunk}/${t.results}`,
    ratio(t.sufficiency.all),
    ratio(t.sufficiency.new),
    t.needles ? `${t.needles.recovered}/${t.needles.total}` : '—',
  ]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
const turns = conversations.reduce((x, c) => x + c.turns, 0);
const wall = Object.values(seconds).reduce((a, b) => a + b, 0);
console.log(
  `\nReplay over whole sessions (tool-offload replay): ${conversations.length} conversations, ${turns} turns, ` +
    `${source}; ${wall.toFixed(1)} s in ${RUNS.length} runs\n`,
);
for (const [i, r] of table.entries()) {
  console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}

// Per tool, for the policies that treat tools differently: the tools whose results hold
// the most characters (the rest summed as one row).
const PER_TOOL = ['materialize', 'materialize-read-inline', 'budget-10k'];
const TOP_TOOLS = 6;
const toolRows = [
  ['policy', 'tool', 'results', 'shrunk', 'chars before', 'chars after', 'ids visible', 'new ids visible'],
];
for (const name of PER_TOOL.filter((p) => totals[p])) {
  const tools = totals[name].tools;
  const rest = tools.slice(TOP_TOOLS).reduce(
    (r, t) => ({
      tool: `${tools.length - TOP_TOOLS} others`,
      results: r.results + t.results,
      shrunk: r.shrunk + t.shrunk,
      charsBefore: r.charsBefore + t.charsBefore,
      charsAfter: r.charsAfter + t.charsAfter,
      sufficiency: {
        all: [r.sufficiency.all[0] + t.sufficiency.all[0], r.sufficiency.all[1] + t.sufficiency.all[1]],
        new: [r.sufficiency.new[0] + t.sufficiency.new[0], r.sufficiency.new[1] + t.sufficiency.new[1]],
      },
    }),
    { results: 0, shrunk: 0, charsBefore: 0, charsAfter: 0, sufficiency: { all: [0, 0], new: [0, 0] } },
  );
  for (const t of [...tools.slice(0, TOP_TOOLS), ...(tools.length > TOP_TOOLS ? [rest] : [])]) {
    toolRows.push([name, t.tool, n(t.results), n(t.shrunk), n(t.charsBefore), n(t.charsAfter),
      ratio(t.sufficiency.all), ratio(t.sufficiency.new)]); // prettier-ignore
  }
}
if (toolRows.length > 1) {
  const w = toolRows[0].map((_, i) => Math.max(...toolRows.map((r) => r[i].length)));
  console.log('\nPer tool (characters of the results as they were and as first sent):\n');
  for (const [i, r] of toolRows.entries()) {
    console.log(r.map((c, j) => (j < 2 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  '));
    if (i === 0) console.log(w.map((x) => '-'.repeat(x)).join('  '));
  }
}

const json = {
  date: new Date().toISOString(),
  seconds,
  corpus: { source, dir: corpus, quick: args.quick, conversations: conversations.length, turns },
  prices: { cacheRead: CACHE_READ, cacheWrite: CACHE_WRITE },
  replayRuns: RUNS.map((r) => r.flags.join(' ')),
  totals,
  conversations,
};
const out = resolve(args.json);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
log(`\nwrote ${out}`);
