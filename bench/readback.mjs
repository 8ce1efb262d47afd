// Read-back of big artifacts (issue 10): `tail(ref, 200)`, `read(ref, offset near the
// end)` and `grep(ref, <rare pattern>)` on 100 MB and 1 GB artifacts, through the npm
// package and through the tokio host, each in a fresh child process, beside GNU
// `tail -n 200` and `grep -n` on the same file in the same run:
//
//   node bench/readback.mjs [--quick] [--sizes 100M,1G] [--runs N] [--budget MS] [--regenerate]
//
// The artifacts are made by the tokio host's `Materializer::materialize`
// (host-tokio/examples/readback_artifact.rs, built with the bench profile), so whatever
// the library writes beside an artifact is there, and cached under
// target/bench/readback/<bytes>/, keyed by size and by the helper binary (rebuilt by
// cargo whenever the library changes). Generating 1 GB takes ~10 s and needs ~2 GB of
// RAM. Every case reports the first call of its process and the median of the later
// ones, and the peak resident memory over the process's baseline; a failure (an error,
// a crash, a timeout) is recorded with its message, never fatal. Writes
// target/bench/readback.json; bench/report.mjs turns it into verdicts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './corpus.mjs';

const args = parseArgs(process.argv.slice(2));
const log = (...m) => console.error(...m);
const started = Date.now();
const targetDir = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
const benchDir = join(repoRoot, 'target/bench');
const CHILD_TIMEOUT_MS = 300_000;

log('building the tokio helper (cargo build --profile bench --example readback_artifact) …');
execFileSync(
  'cargo',
  ['build', '--quiet', '--profile', 'bench', '-p', 'tool-offload', '--example', 'readback_artifact'],
  { cwd: repoRoot, stdio: 'inherit' },
);
const helper = join(targetDir, 'release/examples/readback_artifact');
const helperStat = statSync(helper);
const helperKey = `${helperStat.size}-${Math.round(helperStat.mtimeMs)}`;

const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The artifact of `bytes`, from the cache when the helper that made it is the current one. */
function artifact(bytes) {
  const dir = join(benchDir, 'readback', String(bytes));
  const stamp = join(dir, 'made.json');
  if (!args.regenerate && existsSync(stamp)) {
    const made = JSON.parse(readFileSync(stamp, 'utf8'));
    if (made.key === helperKey && existsSync(made.path) && statSync(made.path).size === made.bytes) {
      log(`${mb(bytes)}: cached artifact ${made.path}`);
      return { ...made, dir, cached: true };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`${mb(bytes)}: materializing a generated log with the tokio host …`);
  const t0 = Date.now();
  const out = execFileSync(helper, ['make', join(dir, 'user-data'), String(bytes)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const made = { key: helperKey, ...JSON.parse(out.trim().split('\n').at(-1)), makeWallMs: Date.now() - t0 };
  writeFileSync(stamp, JSON.stringify(made, null, 2));
  return { ...made, dir, cached: false };
}

/** One measurement in a fresh process; failures become `{ error }`. */
function child(host, a, op) {
  const arg = { tail: '200', read: String(a.offset), grep: a.needle }[op];
  // What the right page holds: line n of the log has req=<n, 10 digits>.
  const req = (n) => `req=${String(n).padStart(10, '0')}`;
  const expect = { tail: req(a.lines - 1), read: req(a.offset), grep: a.needle }[op];
  const rest = [join(a.dir, 'user-data'), a.ref, op, arg, String(args.runs), String(args.budget), expect];
  const [cmd, argv] =
    host === 'npm'
      ? [process.execPath, [join(repoRoot, 'bench/readback-child.mjs'), ...rest]]
      : [helper, ['measure', ...rest]];
  const r = spawnSync(cmd, argv, {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 1 << 24,
  });
  let out;
  try {
    out = JSON.parse(r.stdout.trim().split('\n').at(-1));
  } catch {
    const why =
      r.error?.code === 'ETIMEDOUT'
        ? `timed out after ${CHILD_TIMEOUT_MS / 1000} s`
        : r.signal
          ? `killed by ${r.signal}`
          : `exit ${r.status}`;
    const stderr = (r.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
    return { host, op, error: `process failed (${why})${stderr ? `: ${stderr}` : ''}` };
  }
  const peakOverMiB = out.peakKiB != null && out.baselineKiB != null ? (out.peakKiB - out.baselineKiB) / 1024 : null;
  return {
    host,
    op,
    first: out.first,
    median: median(out.later),
    later: out.later,
    pageBytes: out.pageBytes,
    baselineMiB: out.baselineKiB / 1024,
    peakOverMiB,
    error: out.error,
  };
}

/** GNU `tail -n 200` / `grep -n` on the file: whole process, output piped (GNU grep stops at the first match when writing to /dev/null). */
function peer(cmd, argv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed: ${r.stderr}`);
  return ms;
}

const sizes = [];
for (const bytes of args.sizes) {
  let a;
  try {
    a = artifact(bytes);
  } catch (e) {
    // No artifact (e.g. out of memory making 1 GB): every case of this size fails with the reason.
    const error = `making the artifact failed: ${String(e.stderr || e.message)
      .trim()
      .split('\n')
      .slice(-2)
      .join(' / ')}`;
    log(`${mb(bytes)}: ${error}`);
    const cases = ['tail', 'read', 'grep'].flatMap((op) => ['npm', 'rust'].map((host) => ({ host, op, error })));
    sizes.push({ size: bytes, bytes, peers: { tail: { median: null }, grep: { median: null } }, cases });
    continue;
  }
  const peers = { tail: [], grep: [] };
  const peerRound = () => {
    for (let i = 0; i < 5; i++) {
      peers.tail.push(peer('tail', ['-n', '200', a.path]));
      peers.grep.push(peer('grep', ['-n', a.needle, a.path]));
    }
  };
  peerRound();
  const cases = [];
  for (const op of ['tail', 'read', 'grep']) {
    for (const host of ['npm', 'rust']) {
      log(`${mb(bytes)}: ${host} ${op} …`);
      const c = child(host, a, op);
      cases.push(c);
      log(
        `  ${c.error ? `FAILED: ${c.error}` : `first ${c.first.toFixed(2)} ms, median ${c.median?.toFixed(2)} ms of ${c.later.length}, peak +${c.peakOverMiB?.toFixed(1)} MiB`}`,
      );
    }
  }
  peerRound();
  sizes.push({
    size: bytes,
    bytes: a.bytes,
    lines: a.lines,
    path: a.path,
    ref: a.ref,
    needle: a.needle,
    offset: a.offset,
    cached: a.cached,
    materializeMs: a.materializeMs,
    peers: {
      tail: { median: median(peers.tail), samples: peers.tail },
      grep: { median: median(peers.grep), samples: peers.grep },
    },
    cases,
  });
}

const results = { date: new Date().toISOString(), runs: args.runs, budgetMs: args.budget, sizes };
mkdirSync(benchDir, { recursive: true });
writeFileSync(join(benchDir, 'readback.json'), JSON.stringify(results, null, 2));
print(results);
log(`\nfull figures: target/bench/readback.json; took ${((Date.now() - started) / 1000).toFixed(0)} s`);

function print({ sizes }) {
  const f = (x, d = 2) => (x == null ? '—' : x.toFixed(d));
  console.log(
    '\nread-back of big artifacts (first call of a fresh process; median of the later calls; peak RSS over baseline)\n',
  );
  console.log(`| artifact | host | call | first ms | median ms | peak MiB over baseline | peer median ms | error |`);
  console.log('|---|---|---|---|---|---|---|---|');
  for (const s of sizes) {
    for (const c of s.cases) {
      const p = c.op === 'grep' ? s.peers.grep.median : c.op === 'tail' ? s.peers.tail.median : null;
      console.log(
        `| ${mb(s.size)} | ${c.host} | ${c.op} | ${f(c.first)} | ${f(c.median)} | ${f(c.peakOverMiB, 1)} | ${f(p)} | ${c.error ?? ''} |`,
      );
    }
  }
}

function mb(bytes) {
  return bytes >= 1e9 ? `${+(bytes / 1e9).toFixed(2)} GB` : `${+(bytes / 1e6).toFixed(1)} MB`;
}

function parseArgs(argv) {
  const a = { quick: false, sizes: undefined, runs: undefined, budget: undefined, regenerate: false };
  const size = (s) => {
    const m = /^(\d+(?:\.\d+)?)([KMG]?)$/i.exec(s.trim());
    if (!m) throw new Error(`bad size ${s}`);
    return Math.round(Number(m[1]) * { '': 1, K: 1e3, M: 1e6, G: 1e9 }[m[2].toUpperCase()]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') a.quick = true;
    else if (arg === '--sizes') a.sizes = argv[++i].split(',').map(size);
    else if (arg === '--runs') a.runs = Number(argv[++i]);
    else if (arg === '--budget') a.budget = Number(argv[++i]);
    else if (arg === '--regenerate') a.regenerate = true;
    else {
      console.error(
        'usage: node bench/readback.mjs [--quick] [--sizes 100M,1G] [--runs N] [--budget MS] [--regenerate]',
      );
      process.exit(2);
    }
  }
  a.sizes ??= [100e6, 1e9];
  a.runs ??= a.quick ? 10 : 50;
  a.budget ??= a.quick ? 3_000 : 10_000;
  return a;
}
