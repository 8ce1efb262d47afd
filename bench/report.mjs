// Issue 10's targets (and issue 13's query latency), one table, then issue 28's (the replay),
// a second: `node bench/report.mjs` (the last step of `make bench`).
//
// Reads the figures the benches wrote — target/bench/results.json (bench/run.mjs),
// readback.json (bench/readback.mjs), materializer.json (bench/materializer.mjs),
// replay.json (bench/replay.mjs) — and the shipped wasm
// (host-node/wasm/tool_offload_wasm_bg.wasm, gzip -9), and prints markdown tables: figure,
// value, target, verdict (met / MISSED). A figure whose bench did not run (or failed) is
// MISSED with the reason; each source's date is listed under its table, so stale figures
// show. Also written to target/bench/report.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { repoRoot } from './corpus.mjs';

const benchDir = join(repoRoot, 'target/bench');
const sources = [];
function load(file, bench) {
  const path = join(benchDir, file);
  if (!existsSync(path)) {
    sources.push(`${file}: absent (run \`${bench}\`)`);
    return null;
  }
  const data = JSON.parse(readFileSync(path, 'utf8'));
  const how = [
    data.workload &&
      `${data.workload.source}, ${data.rounds} round(s), ${data.iterations?.memory} compute / ${data.iterations?.disk} disk iterations`,
    data.runs && `up to ${data.runs} calls after the first, ${data.budgetMs / 1000} s budget per case`,
    data.materializeMessages && `${data.materializeMessages.turns} turns`,
    data.corpus &&
      `${data.corpus.source}, ${data.corpus.conversations} conversations, ${data.corpus.turns} turns${data.corpus.quick ? ' (--quick subset)' : ''}`,
  ].filter(Boolean);
  sources.push(`${file}: ${data.date ?? 'undated'} (\`${bench}\`${how.length ? `; ${how.join('; ')}` : ''})`);
  return data;
}
const batch = load('results.json', 'node bench/run.mjs');
const readback = load('readback.json', 'node bench/readback.mjs');
const hot = load('materializer.json', 'node bench/materializer.mjs');
const workspace = load('workspace.json', 'cargo bench -p tool-offload --bench workspace');
const issue10Sources = sources.length;
const replay = load('replay.json', 'node bench/replay.mjs');

const rows = [];
const row = (figure, value, target, met, note = '') =>
  rows.push({ figure, value, target, verdict: met ? `met${note}` : 'MISSED' });
const missing = (figure, target, why) => rows.push({ figure, value: why, target, verdict: 'MISSED' });
const f = (x, d = 2) => x.toFixed(d);
const MB = 1e6;
const PEAK_LIMIT_MB = 50;
/** A read-back error without the artifact's long absolute path. */
const shortError = (e) => e.replace(/\/\S+\/(log-\d+\.txt)/g, '…/$1').slice(0, 160);
const sizeLabel = (s) => {
  const n = s.size ?? s.bytes; // the nominal size; the file ends at the line that crosses it
  return n >= 1e9 ? `${+(n / 1e9).toFixed(1)} GB` : `${+(n / 1e6).toFixed(0)} MB`;
};

// --- read-back -----------------------------------------------------------------------
const READ_TARGET = `< 10 ms, peak < ${PEAK_LIMIT_MB} MB over baseline, no failure`;
// The issue asks grep for "bounded memory": a peak that does not grow with the artifact.
// Node frees the reader's read buffers only when V8 collects, which it does for external
// memory in steps of about 64 MB, so that is the bound read here (Rust stays far below).
const GREP_PEAK_LIMIT_MB = 64;
const GREP_TARGET = `≤ 2× \`grep -n\` (same run), bounded memory (peak < ${GREP_PEAK_LIMIT_MB} MB over baseline at every size)`;
const host = (h) => (h === 'npm' ? 'npm' : 'Rust');
if (!readback) {
  for (const size of ['100 MB', '1 GB']) {
    for (const h of ['npm', 'Rust']) {
      missing(`\`tail(ref, 200)\`, ${size}, ${h}`, READ_TARGET, 'not measured');
      missing(`\`read(ref, offset near the end)\`, ${size}, ${h}`, READ_TARGET, 'not measured');
    }
    for (const h of ['npm', 'Rust']) missing(`\`grep\` rare pattern, ${size}, ${h}`, GREP_TARGET, 'not measured');
  }
} else {
  const opName = { tail: '`tail(ref, 200)`', read: '`read(ref, offset near the end)`', grep: '`grep` rare pattern' };
  for (const s of readback.sizes) {
    for (const op of ['tail', 'read', 'grep']) {
      for (const c of s.cases.filter((x) => x.op === op)) {
        const figure = `${opName[op]}, ${sizeLabel(s)}, ${host(c.host)}`;
        const target = op === 'grep' ? GREP_TARGET : READ_TARGET;
        const peakMB = c.peakOverMiB == null ? null : (c.peakOverMiB * 1048576) / MB;
        const peak = peakMB == null ? '' : `, peak +${f(peakMB, 0)} MB`;
        if (c.error || c.median == null) {
          missing(figure, target, `FAILED: ${shortError(c.error ?? 'no later call')}${peak}`);
          continue;
        }
        const memOk = peakMB != null && peakMB < (op === 'grep' ? GREP_PEAK_LIMIT_MB : PEAK_LIMIT_MB);
        if (op === 'grep') {
          const peer = s.peers.grep.median;
          const ratio = c.median / peer;
          row(
            figure,
            `${f(c.median)} ms (first ${f(c.first)}) = ${f(ratio, 1)}× \`grep -n\` ${f(peer)} ms${peak}`,
            target,
            ratio <= 2 && memOk,
          );
        } else {
          const peer = op === 'tail' ? `; \`tail -n 200\` ${f(s.peers.tail.median)} ms` : '';
          row(figure, `${f(c.median)} ms (first ${f(c.first)})${peak}${peer}`, target, c.median < 10 && memOk);
        }
      }
    }
  }
}

// --- batch offload (bench/run.mjs) ---------------------------------------------------
const ratioOf = (key, labelStart) => batch?.ratioRows?.find((r) => r.key === key || r.label.startsWith(labelStart));
const batchRow = (figure, key, labelStart, target, meets, stretch, after = '') => {
  const r = ratioOf(key, labelStart);
  if (!r) return missing(figure, target, batch ? 'not in results.json (run with Rust)' : 'not measured');
  const note = stretch && meets(r.value) && !stretch(r.value) ? ' (stretch missed)' : '';
  row(figure, `${f(r.value)}× (rounds ${f(r.range[0])}–${f(r.range[1])})${after}`, target, meets(r.value), note);
};
batchRow(
  'npm batch offload vs plain JS, corpus, disk (plain ÷ package)',
  'npmDisk',
  'package vs plain JS, disk',
  '≥ 1.0×',
  (v) => v >= 1,
);
batchRow(
  'npm batch offload vs plain JS, corpus, compute (plain ÷ package)',
  'npmCompute',
  'package vs plain JS, compute',
  '≥ 0.5× (stretch 1×)',
  (v) => v >= 0.5,
  (v) => v >= 1,
);

// --- materializeMessages and materialize() (bench/materializer.mjs) --------------------
const mm = hot?.materializeMessages;
const msgFigure = (h) => `\`materializeMessages\`, 500 messages, nothing new, ${h}`;
if (!mm) {
  missing(msgFigure('npm'), '≤ 0.2 ms', 'not measured');
  missing(msgFigure('Rust'), '≤ 0.05 ms', 'not measured');
} else {
  const floor = `; plain JS length check ${f(mm.plainCheck.median, 4)} ms`;
  row(
    msgFigure('npm'),
    `${f(mm.npm.median, 3)} ms (p90 ${f(mm.npm.p90, 3)})${floor}`,
    '≤ 0.2 ms',
    mm.npm.median <= 0.2,
  );
  if (mm.rust.error) missing(msgFigure('Rust'), '≤ 0.05 ms', `FAILED: ${mm.rust.error.slice(0, 160)}`);
  else
    row(
      msgFigure('Rust'),
      `${f(mm.rust.median, 3)} ms (p90 ${f(mm.rust.p90, 3)})`,
      '≤ 0.05 ms',
      mm.rust.median <= 0.05,
    );
}
for (const label of ['1MB', '10MB']) {
  const figure = `npm \`materialize()\` of a ${label.replace('MB', ' MB')} string to disk vs \`fs.writeFile\``;
  const r = hot?.materialize?.[label];
  if (!r) missing(figure, '≤ 1.5×', 'not measured');
  else
    row(figure, `${f(r.ratio)}× (${f(r.materialize.median)} vs ${f(r.writeFile.median)} ms)`, '≤ 1.5×', r.ratio <= 1.5);
}

// --- Rust ------------------------------------------------------------------------------
// Counting the offloaded content's UTF-16 units alone bounds this ratio.
const ceiling = ratioOf('rustComputeCeiling', 'Rust vs plain JS, counting alone');
batchRow(
  'Rust core vs plain JS, corpus compute (plain ÷ core)',
  'rustCompute',
  'Rust vs plain JS, compute',
  '≥ 2× (stretch 5×)',
  (v) => v >= 2,
  (v) => v >= 5,
  ceiling ? `; counting alone ${f(ceiling.value)}×` : '',
);
batchRow(
  'tokio host vs raw `tokio::fs::write`, corpus (host ÷ raw)',
  'tokioVsRaw',
  'tokio host vs raw tokio::fs::write',
  '≤ 1.2×',
  (v) => v <= 1.2,
);

// --- Workspace (issue 13) ----------------------------------------------------------------
if (!workspace) {
  missing('Workspace query, 100,000 records, SQLite p99 (issue 13)', '< 5 ms', 'bench did not run');
} else {
  const worst = (host) => Math.max(...workspace.queries.map((q) => q[host].p99_ms));
  row(
    `Workspace filtered query, ${workspace.records.toLocaleString('en')} records, SQLite p99 (issue 13)`,
    `${worst('sqlite').toFixed(2)} ms worst of ${workspace.queries.length} kinds (scan: ${worst('scan').toFixed(0)} ms)`,
    '< 5 ms',
    worst('sqlite') < 5 && workspace.records >= 100_000,
  );
}

// --- wasm --------------------------------------------------------------------------------
const WASM_BUDGET = 120_000;
const wasmFile = join(repoRoot, 'host-node/wasm/tool_offload_wasm_bg.wasm');
if (!existsSync(wasmFile)) {
  missing('shipped wasm, gzipped (gzip -9)', '≤ 120 KB (120,000 B)', 'not built (`make build`)');
} else {
  const raw = readFileSync(wasmFile);
  const gz = gzipSync(raw, { level: 9 }).length;
  const n = (x) => x.toLocaleString('en');
  row(
    'shipped wasm, gzipped (gzip -9)',
    `${n(gz)} B (${n(raw.length)} B raw)`,
    '≤ 120 KB (120,000 B)',
    gz <= WASM_BUDGET,
  );
}

// --- Replay over whole sessions (issue 28), its own table ---------------------------------
const issue10Rows = rows.splice(0);
const pctOf = ([hit, n]) => (n > 0 ? f((100 * hit) / n, 1) : '—');
const dflt = replay?.totals?.materialize;
if (!dflt) {
  missing('preview sufficiency, new identifiers (default limits)', '≥ 45 %', 'not measured');
  missing('characters removed over all turns (default limits)', '≥ 72 %', 'not measured');
  missing('needles recovered by one context_grep', '100 %', 'not measured');
} else {
  const [hit, n] = dflt.sufficiency.new;
  const all = pctOf(dflt.sufficiency.all);
  const headtail = replay.totals['headtail-10k'];
  row(
    'preview sufficiency, new identifiers (default limits)',
    `${pctOf([hit, n])} % (${hit} of ${n}); all identifiers ${all} %` +
      (headtail ? `; 10 KiB head+tail: ${pctOf(headtail.sufficiency.new)} % new` : ''),
    '≥ 45 %',
    n > 0 && (100 * hit) / n >= 45,
  );
  row(
    'characters removed over all turns (default limits)',
    `${f(dflt.removedPct, 1)} % (${dflt.chars.toLocaleString('en')} of ${replay.totals.none.chars.toLocaleString('en')} sent)`,
    '≥ 72 %',
    dflt.removedPct >= 72,
  );
  const policies = Object.entries(replay.totals).filter(([, t]) => t.needles);
  const recovered = policies.reduce((x, [, t]) => x + t.needles.recovered, 0);
  const total = policies.reduce((x, [, t]) => x + t.needles.total, 0);
  row(
    'needles recovered by one context_grep',
    policies.map(([name, t]) => `${name} ${t.needles.recovered} / ${t.needles.total}`).join(', '),
    '100 %',
    total > 0 && recovered === total,
  );
}
const issue28Rows = rows.splice(0);

// -----------------------------------------------------------------------------------------
const tableOf = (rs, from) => [
  '| figure | value | target | verdict |',
  '|---|---|---|---|',
  ...rs.map((r) => `| ${r.figure} | ${r.value} | ${r.target} | ${r.verdict} |`),
  '',
  `${rs.filter((r) => r.verdict.startsWith('met')).length} of ${rs.length} targets met. Figures from:`,
  ...from.map((s) => `- ${s}`),
];
const lines = [...tableOf(issue10Rows, sources.slice(0, issue10Sources)), `- ${basename(wasmFile)}: as built now`];
const text = `${lines.join('\n')}\n`;
const text28 = `${tableOf(issue28Rows, sources.slice(issue10Sources)).join('\n')}\n`;
writeFileSync(
  join(benchDir, 'report.md'),
  `# Issue 10 and 13 targets\n\n${text}\n# Issue 28 targets (replay over whole sessions)\n\n${text28}`,
);
console.log(`\nIssue 10 and 13 targets (bench/README.md has the method)\n\n${text}`);
console.log(`\nIssue 28 targets: replay over whole sessions (bench/README.md has the method)\n\n${text28}`);
