// Batch-offload benchmarks, Node and Rust on one workload, one table:
//
//   node bench/run.mjs [--rounds N] [--quick] [--threshold N] [--corpus DIR] [--dir DIR] [--no-rust] [--markdown]
//
// Needs the npm package built (`node host-node/scripts/build.mjs`). The workload is
// ../shared/corpus, or its generated stand-in (bench/corpus.mjs). Each round measures the
// Node cases in this process, then runs `cargo bench -p tool-offload --bench batch -- --json`
// on the same corpus; figures are medians over the iterations of a round, and the table
// reports the median over rounds (with the range of the ratios across rounds). Numbers,
// not pass/fail; every ratio is printed next to its target. The full figures go to
// target/bench/results.json; bench/README.md records the latest.
//
// Disk cases write fresh directories under --dir (default: the system temporary
// directory) and delete nothing until the end: on ext4, creating files shortly after
// deleting tens of thousands nearby is several times slower for minutes, so per-iteration
// clean-up would make the cases measure each other's clean-up. A full run writes ~2.5 GB.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { NodeFileWriter, offloadToolResult, offloadToolResults } from 'tool-offload';

import { corpusDir, loadCorpus, repoRoot } from './corpus.mjs';
import { offloadToolResultsPlain } from './plain-batch.mjs';

const args = parseArgs(process.argv.slice(2));
const log = (...m) => console.error(...m);
const started = Date.now();

const { dir: corpus, source } = corpusDir(args.corpus);
const conversations = loadCorpus(corpus);
const threshold = args.threshold;
const NEVER = Number.MAX_SAFE_INTEGER; // a threshold above every result
const counts = {
  conversations: conversations.length,
  messages: conversations.reduce((n, c) => n + c.messages.length, 0),
};
const iterations = args.quick ? { memory: 10, disk: 4, latency: 50 } : { memory: 60, disk: 10, latency: 300 };
const tmp = mkdtempSync(join(args.dir ?? tmpdir(), 'tool-offload-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const sync = () => execFileSync('sync'); // earlier dirty pages are not the next case's to write back

// ---------------------------------------------------------------------------------------
// Writers and the four ways of running the whole corpus once.

function memoryWriter() {
  const files = new Map();
  return {
    files,
    async mkdir() {},
    async writeFile(path, data) {
      files.set(path, data);
    },
  };
}

/** Plain JS with atomic writes like NodeFileWriter's (temp file + rename): isolates that cost. */
const atomicPlainWriter = {
  mkdir: (dir) => mkdir(dir, { recursive: true }),
  async writeFile(path, data) {
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, data, 'utf8');
    await rename(temp, path);
  },
};

const runs = {
  async packageMemory(threshold, writer = memoryWriter()) {
    const results = [];
    for (const c of conversations) {
      results.push(await offloadToolResults(c.messages, { outputDir: `/bench/out/${c.name}`, threshold, writer }));
    }
    return { results, writer };
  },
  async plainMemory(threshold, writer = memoryWriter()) {
    const results = [];
    for (const c of conversations) {
      results.push(await offloadToolResultsPlain(c.messages, { outputDir: `/bench/out/${c.name}`, threshold, writer }));
    }
    return { results, writer };
  },
  async packageDisk(root) {
    const writer = new NodeFileWriter();
    for (const c of conversations)
      await offloadToolResults(c.messages, { outputDir: join(root, c.name), threshold, writer });
  },
  async plainDisk(root) {
    for (const c of conversations)
      await offloadToolResultsPlain(c.messages, { outputDir: join(root, c.name), threshold });
  },
  async plainAtomicDisk(root) {
    for (const c of conversations) {
      await offloadToolResultsPlain(c.messages, {
        outputDir: join(root, c.name),
        threshold,
        writer: atomicPlainWriter,
      });
    }
  },
};

// ---------------------------------------------------------------------------------------
// Same outputs first: messages (exact JSON, and which are the input objects), files,
// counts and file contents, in memory and on disk.

async function verify() {
  const before = JSON.stringify(conversations.map((c) => c.messages));
  const pkg = await runs.packageMemory(threshold);
  const plain = await runs.plainMemory(threshold);
  let offloaded = 0;
  let freedChars = 0;
  conversations.forEach((c, i) => {
    const [a, b] = [pkg.results[i], plain.results[i]];
    const where = `${c.name}:`;
    check(JSON.stringify(a.messages) === JSON.stringify(b.messages), `${where} messages differ`);
    a.messages.forEach((m, k) =>
      check((m === c.messages[k]) === (b.messages[k] === c.messages[k]), `${where} message ${k} identity differs`),
    );
    check(isDeepStrictEqual(a.files, b.files), `${where} files differ`);
    check(a.offloadedCount === b.offloadedCount && a.freedChars === b.freedChars, `${where} counts differ`);
    offloaded += a.offloadedCount;
    freedChars += a.freedChars;
  });
  check(isDeepStrictEqual(pkg.writer.files, plain.writer.files), 'in-memory file contents differ');
  check(JSON.stringify(conversations.map((c) => c.messages)) === before, 'the input was modified');
  await runs.packageDisk(join(tmp, 'verify-package'));
  await runs.plainDisk(join(tmp, 'verify-plain'));
  const a = readTree(join(tmp, 'verify-package'));
  const b = readTree(join(tmp, 'verify-plain'));
  check(isDeepStrictEqual(a, b), 'files on disk differ');
  check(a.size === offloaded, `expected ${offloaded} files on disk, found ${a.size}`);

  let bytes = 0;
  for (const data of pkg.writer.files.values()) bytes += Buffer.byteLength(data);
  log(
    `verified: package and plain JS give the same messages, files, counts and bytes (${offloaded} files) in memory and on disk`,
  );
  return { offloaded, freedChars, offloadedBytes: bytes };
}

function readTree(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(root, p), readFileSync(p));
    }
  };
  walk(root);
  return files;
}

function check(ok, message) {
  if (!ok) throw new Error(`plain JS and the package disagree: ${message}`);
}

// ---------------------------------------------------------------------------------------
// Measurements.

const now = () => process.hrtime.bigint();
const ms = (t0) => Number(now() - t0) / 1e6;

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const pct = (p) => s[Math.round((s.length - 1) * p)];
  return { n: s.length, median: pct(0.5), p10: pct(0.1), p90: pct(0.9), p99: pct(0.99), min: s[0] };
}

/** Time every variant `n` times, interleaved (rotating order) so drift hits all alike. */
async function interleaved(n, warmup, variants) {
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < warmup + n; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const { run } = variants[name];
      const t0 = now();
      await run(i);
      const elapsed = ms(t0);
      if (i >= warmup) samples[name].push(elapsed);
    }
  }
  return Object.fromEntries(names.map((k) => [k, summary(samples[k])]));
}

async function latency(n, fn) {
  for (let i = 0; i < 20; i++) await fn();
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await fn();
    samples.push(ms(t0) * 1e3); // µs
  }
  return summary(samples);
}

function oneMbMessage() {
  const line = '   Compiling serde v1.0.219 (build step 17 of 240) — 😀 ok\n';
  // 1,000,000 code points, as the Rust bench (line.chars().cycle().take(1_000_000)).
  const points = [...line];
  const content = points.join('').repeat(Math.ceil(1_000_000 / points.length) + 1);
  return {
    role: 'user',
    content: [
      { type: 'text', text: 'here is the log' },
      { type: 'tool_result', tool_use_id: 'toolu_bench', content: [...content].slice(0, 1_000_000).join('') },
    ],
  };
}

async function nodeRound(round) {
  const dirFor = (name) => (i) => join(tmp, `node-${round}`, `${name}-${i}`);
  // 30 unmeasured rounds first: with 5, --quick's 10 samples still caught V8 tiering
  // up (plain JS 2.1 ms in one such run against 1.1 ms warm).
  const memory = await interleaved(iterations.memory, 30, {
    packageMemory: { run: () => runs.packageMemory(threshold) },
    plainMemory: { run: () => runs.plainMemory(threshold) },
    packageNoOffload: { run: () => runs.packageMemory(NEVER) },
    plainNoOffload: { run: () => runs.plainMemory(NEVER) },
  });
  sync();
  const disk = await interleaved(iterations.disk, 2, {
    packageDisk: { run: (i) => runs.packageDisk(dirFor('package')(i)) },
    plainDisk: { run: (i) => runs.plainDisk(dirFor('plain')(i)) },
    plainAtomicDisk: { run: (i) => runs.plainAtomicDisk(dirFor('atomic')(i)) },
  });
  const big = oneMbMessage();
  const one = [big];
  const oneMbBatch = await latency(iterations.latency, () =>
    offloadToolResults(one, { outputDir: '/bench/out', writer: memoryWriter() }),
  );
  const oneMbDirect = await latency(iterations.latency, () =>
    offloadToolResult(big, 's', '/bench/out', memoryWriter()),
  );
  return { ...memory, ...disk, oneMbBatch, oneMbDirect };
}

function rustRound(round) {
  const out = execFileSync(
    'cargo',
    [
      'bench',
      '--quiet',
      '-p',
      'tool-offload',
      '--bench',
      'batch',
      '--',
      '--json',
      '--corpus',
      corpus,
      '--threshold',
      String(threshold),
      '--dir',
      join(tmp, `rust-${round}`),
      ...(args.quick ? ['--quick'] : []),
    ],
    { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

// ---------------------------------------------------------------------------------------

const verified = await verify();
const rounds = [];
for (let r = 0; r < args.rounds; r++) {
  log(`round ${r + 1}/${args.rounds}: Node …`);
  const node = await nodeRound(r);
  let rust;
  if (args.rust) {
    log(`round ${r + 1}/${args.rounds}: Rust (cargo bench -p tool-offload --bench batch -- --json) …`);
    rust = rustRound(r);
    check(
      rust.corpus.offloaded === verified.offloaded && rust.corpus.freed_chars === verified.freedChars,
      `Rust offloaded ${rust.corpus.offloaded} results / ${rust.corpus.freed_chars} chars, Node ${verified.offloaded} / ${verified.freedChars}`,
    );
  }
  rounds.push({ node, rust });
}
log('removing the files written …');
rmSync(tmp, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// A figure per round, then the median over rounds.
const node = (k, f = 'median') => rounds.map((r) => r.node[k][f]);
const rust = (k, f = 'median') => rounds.map((r) => r.rust.cases[k][f]);
const rows = [];
const row = (label, values, unit, note = '') =>
  rows.push({ label, value: median(values), range: [Math.min(...values), Math.max(...values)], unit, note });

const perMessage = (xs) => xs.map((x) => (x * 1e3) / counts.messages);
row('Node  package, in-memory writer (compute)', node('packageMemory'), 'ms');
row('Node  plain JS, in-memory writer (compute)', node('plainMemory'), 'ms');
row('Node  package, NodeFileWriter (disk)', node('packageDisk'), 'ms');
row('Node  plain JS, fs/promises writeFile (disk)', node('plainDisk'), 'ms');
row('Node  plain JS, writeFile + rename (atomic, disk)', node('plainAtomicDisk'), 'ms', 'informational');
if (args.rust) {
  row('Rust  core, MemoryWriter (compute)', rust('core_memory'), 'ms');
  row('Rust  core, writer keeping nothing (no copy)', rust('core_null'), 'ms', 'informational');
  row('Rust  only counting the offloaded UTF-16 (floor)', rust('count_floor'), 'ms', 'informational');
  row('Rust  tokio host, TokioFileWriter (disk)', rust('tokio_disk'), 'ms');
  row('Rust  raw tokio::fs::write (disk floor)', rust('raw_tokio_write'), 'ms');
  row('Rust  raw tokio temp file + rename (atomic floor)', rust('raw_tokio_atomic'), 'ms', 'informational');
  row('Rust  raw temp + rename in one spawn_blocking per file', rust('raw_blocking_atomic'), 'ms', 'informational');
  row('Rust  raw std::fs::write, no runtime', rust('raw_std_write'), 'ms', 'informational');
}
const perMsg = [];
const pm = (label, values) =>
  perMsg.push({ label, value: median(values), range: [Math.min(...values), Math.max(...values)] });
if (args.rust)
  pm(
    'native (core)',
    rust('no_offload').map((x) => (x * 1e3) / counts.messages),
  );
pm('wasm (npm package)', perMessage(node('packageNoOffload')));
pm('plain JS', perMessage(node('plainNoOffload')));
const lat = [];
const lt = (label, p50, p99) =>
  lat.push({ label, p50: median(p50), p99: median(p99), p99range: [Math.min(...p99), Math.max(...p99)] });
if (args.rust) {
  lt('native, batch (offload_tool_results)', rust('one_mb_batch'), rust('one_mb_batch', 'p99'));
  lt('native, direct (offload_tool_result)', rust('one_mb_direct'), rust('one_mb_direct', 'p99'));
}
lt('wasm, batch (offloadToolResults)', node('oneMbBatch'), node('oneMbBatch', 'p99'));
lt('wasm, direct (offloadToolResult)', node('oneMbDirect'), node('oneMbDirect', 'p99'));

// Ratios per round, then median and range over rounds.
const ratioRows = [];
// `key` names the ratio for bench/report.mjs; targets are issue 10's.
const ratio = (key, label, a, b, target, meets) => {
  const values = a.map((x, i) => x / b[i]);
  const value = median(values);
  ratioRows.push({ key, label, value, range: [Math.min(...values), Math.max(...values)], target, met: meets(value) });
};
ratio(
  'npmCompute',
  'package vs plain JS, compute (plain ÷ package)',
  node('plainMemory'),
  node('packageMemory'),
  '≥ 0.5× (stretch 1×)',
  (v) => v >= 0.5,
);
ratio(
  'npmDisk',
  'package vs plain JS, disk (plain ÷ package)',
  node('plainDisk'),
  node('packageDisk'),
  '≥ 1×',
  (v) => v >= 1,
);
if (args.rust) {
  ratio(
    'rustCompute',
    'Rust vs plain JS, compute (plain ÷ core)',
    node('plainMemory'),
    rust('core_memory'),
    '≥ 2× (stretch 5×)',
    (v) => v >= 2,
  );
  // What the ratio above could be at most: core must count every byte it offloads
  // (`freed_chars` is exact), where plain JS reads `.length`.
  ratio(
    'rustComputeCeiling',
    'Rust vs plain JS, counting alone (plain ÷ count floor)',
    node('plainMemory'),
    rust('count_floor'),
    '—',
    () => undefined,
  );
  ratio(
    'rustDisk',
    'Rust vs plain JS, disk (plain ÷ tokio host)',
    node('plainDisk'),
    rust('tokio_disk'),
    '—',
    () => undefined,
  );
  ratio(
    'tokioVsRaw',
    'tokio host vs raw tokio::fs::write (host ÷ raw)',
    rust('tokio_disk'),
    rust('raw_tokio_write'),
    '≤ 1.2×',
    (v) => v <= 1.2,
  );
  ratio(
    'tokioVsRawAtomic',
    'tokio host vs raw temp+rename (host ÷ raw atomic)',
    rust('tokio_disk'),
    rust('raw_tokio_atomic'),
    '—',
    () => undefined,
  );
}

// Disk overheads as absolute time per file written: the file system's own cost per file
// drifts by several times between rounds on a busy machine (see the header), an overhead
// added per file much less.
const perFile = [];
const overhead = (label, a, b) => {
  const values = a.map((x, i) => ((x - b[i]) * 1e3) / verified.offloaded);
  perFile.push({ label, value: median(values), range: [Math.min(...values), Math.max(...values)] });
};
overhead('package (NodeFileWriter) over plain JS writeFile', node('packageDisk'), node('plainDisk'));
overhead('package (NodeFileWriter) over plain JS writeFile + rename', node('packageDisk'), node('plainAtomicDisk'));
if (args.rust) {
  overhead('tokio host over raw tokio::fs::write', rust('tokio_disk'), rust('raw_tokio_write'));
  overhead('tokio host over raw tokio temp + rename', rust('tokio_disk'), rust('raw_tokio_atomic'));
  overhead(
    'temp + rename in one spawn_blocking over raw tokio::fs::write',
    rust('raw_blocking_atomic'),
    rust('raw_tokio_write'),
  );
  overhead(
    'raw tokio::fs::write over std::fs::write (the spawn_blocking hop)',
    rust('raw_tokio_write'),
    rust('raw_std_write'),
  );
}

const workload = {
  source,
  dir: corpus,
  ...counts,
  toolResults: rounds[0].rust?.corpus.tool_results,
  toolResultChars: rounds[0].rust?.corpus.tool_result_chars,
  threshold,
  offloaded: verified.offloaded,
  offloadedBytes: verified.offloadedBytes,
};
const results = {
  date: new Date().toISOString(),
  rounds: args.rounds,
  iterations,
  workload,
  rows,
  perMsg,
  lat,
  ratioRows,
  perFile,
  raw: rounds,
};
mkdirSync(join(repoRoot, 'target/bench'), { recursive: true });
writeFileSync(join(repoRoot, 'target/bench/results.json'), JSON.stringify(results, null, 2));
print(results);
log(`\nfull figures: target/bench/results.json; took ${((Date.now() - started) / 1000).toFixed(0)} s`);

// ---------------------------------------------------------------------------------------

function print({ workload: w, rows, perMsg, lat, ratioRows, perFile }) {
  const f = (x, d = 2) => x.toFixed(d);
  const rng = ([a, b], d = 2) => `${f(a, d)}–${f(b, d)}`;
  const met = (m) => (m === undefined ? '' : m ? 'met' : 'MISSED');
  const md = args.markdown;
  const table = (header, body) => {
    if (md) {
      console.log(`| ${header.join(' | ')} |`);
      console.log(`|${header.map(() => '---').join('|')}|`);
      for (const r of body) console.log(`| ${r.join(' | ')} |`);
    } else {
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
      const line = (r) =>
        r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
      console.log(line(header));
      for (const r of body) console.log(line(r));
    }
    console.log();
  };
  console.log();
  console.log(
    `Workload: ${w.source}: ${w.conversations} conversations, ${w.messages} messages` +
      (w.toolResults
        ? `, ${w.toolResults} tool results (${w.toolResultChars.toLocaleString('en')} UTF-16 units)`
        : '') +
      `; threshold ${w.threshold} → ${w.offloaded} files, ${w.offloadedBytes.toLocaleString('en')} bytes per iteration.`,
  );
  console.log(
    `Medians over ${args.rounds} round(s) of per-round medians (${iterations.memory} compute / ${iterations.disk} disk / ${iterations.latency} latency iterations per round); range = min–max over rounds.`,
  );
  console.log();
  table(
    ['whole corpus, one iteration', 'median ms', 'range ms', ''],
    rows.map((r) => [r.label, f(r.value), rng(r.range), r.note]),
  );
  table(
    ['ratio', 'median', 'range', 'target', ''],
    ratioRows.map((r) => [r.label, `${f(r.value)}×`, rng(r.range), r.target, met(r.met)]),
  );
  table(
    ['disk overhead per file written', 'µs', 'range'],
    perFile.map((r) => [r.label, f(r.value, 0), rng(r.range, 0)]),
  );
  table(
    ['per message, nothing offloaded', 'µs', 'range', 'target', ''],
    perMsg.map((r) => {
      const target = r.label.startsWith('native') ? 1 : r.label.startsWith('wasm') ? 5 : undefined;
      return [
        r.label,
        f(r.value, 3),
        rng(r.range, 3),
        target ? `< ${target} µs` : '—',
        target ? met(r.value < target) : '',
      ];
    }),
  );
  table(
    ['one 1 MB result, in-memory writer', 'p50 µs', 'p99 µs', 'p99 range', 'target', ''],
    lat.map((r) => [r.label, f(r.p50, 0), f(r.p99, 0), rng(r.p99range, 0), 'p99 < 1000 µs', met(r.p99 < 1000)]),
  );
}

function parseArgs(argv) {
  const a = {
    rounds: 3,
    quick: false,
    threshold: 4000,
    corpus: undefined,
    dir: undefined,
    rust: true,
    markdown: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--rounds') a.rounds = Number(argv[++i]);
    else if (arg === '--quick') a.quick = true;
    else if (arg === '--threshold') a.threshold = Number(argv[++i]);
    else if (arg === '--corpus') a.corpus = argv[++i];
    else if (arg === '--dir') a.dir = argv[++i];
    else if (arg === '--no-rust') a.rust = false;
    else if (arg === '--markdown') a.markdown = true;
    else {
      console.error(
        'usage: node bench/run.mjs [--rounds N] [--quick] [--threshold N] [--corpus DIR] [--dir DIR] [--no-rust] [--markdown]',
      );
      process.exit(2);
    }
  }
  return a;
}
