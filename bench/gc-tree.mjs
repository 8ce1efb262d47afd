// Retention over a big tree (issue 29, "Measured"): 100,000 artifacts in 100
// conversations, batch files, foreign files, and symbolic links that lead out of the
// tree (to a file, to a directory laid out like ours) or round a loop. Half the artifacts
// are a year old. Runs gc through the npm package (`gcDirectory`, NodeFileWriter) and the
// CLI (`tool-offload gc`, TokioFileWriter), dry and for real, against the baseline of a
// plain recursive `lstat` walk of the same tree in this script; then checks that nothing
// outside the tree, nothing foreign and no link was touched.
//
//   node bench/gc-tree.mjs [--quick]      (--quick: 10,000 artifacts)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { gcDirectory } from 'tool-offload';

const quick = process.argv.includes('--quick');
const CONVERSATIONS = 100;
const PER = quick ? 100 : 1000;
const YEAR_AGO = Date.now() / 1000 - 365 * 86400;
const repo = new URL('..', import.meta.url).pathname;

/** Every file and link under `dir`: path → what it is and holds (links not followed). */
function snapshot(dir) {
  const seen = new Map();
  const walk = (at) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) seen.set(path, 'link');
      else if (stat.isDirectory()) walk(path);
      else seen.set(path, `${stat.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(dir);
  return seen;
}

/** A plain walk of `dir` with an `lstat` per entry: what any gc must at least do. */
function walk(dir) {
  let files = 0;
  const go = (at) => {
    for (const name of readdirSync(at)) {
      const stat = lstatSync(join(at, name));
      if (stat.isDirectory()) go(join(at, name));
      else files++;
    }
  };
  go(dir);
  return files;
}

function build(base) {
  rmSync(base, { recursive: true, force: true });
  const root = join(base, 'data');
  const outside = join(base, 'outside');
  // Outside: laid out like ours, so that following a link would find "artifacts" to remove.
  const lure = join(outside, 'context', 'lure', 'artifacts', 'tool');
  mkdirSync(lure, { recursive: true });
  for (let i = 0; i < 1000; i++) {
    const path = join(lure, `call_${i}.txt`);
    writeFileSync(path, `outside ${i}\n`);
    utimesSync(path, YEAR_AGO, YEAR_AGO);
  }
  writeFileSync(join(outside, 'secret.txt'), 'never touch\n');
  for (let c = 0; c < CONVERSATIONS; c++) {
    const dir = join(root, 'context', `conv-${c}`, 'artifacts', 'tool');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < PER; i++) {
      const path = join(dir, `call_${i}.txt`);
      writeFileSync(path, `conversation ${c} output ${i}\n`.repeat(4));
      if (i % 2 === 0) utimesSync(path, YEAR_AGO, YEAR_AGO);
    }
    writeFileSync(join(root, 'context', `conv-${c}`, 'notes.md'), 'foreign\n');
  }
  mkdirSync(join(root, 'batch'), { recursive: true });
  for (let i = 0; i < 1000; i++) writeFileSync(join(root, 'batch', `tool-result-b${i}.md`), 'batch\n');
  mkdirSync(join(root, 'foreign'), { recursive: true });
  for (let i = 0; i < 1000; i++) writeFileSync(join(root, 'foreign', `file-${i}.txt`), 'foreign\n');
  // Links: to a file outside named like an artifact, to a directory laid out like ours,
  // as a batch file, and a loop.
  symlinkSync(join(outside, 'secret.txt'), join(root, 'context', 'conv-0', 'artifacts', 'tool', 'call_link.txt'));
  symlinkSync(join(outside, 'context', 'lure'), join(root, 'context', 'lure'));
  symlinkSync(join(outside, 'context', 'lure', 'artifacts'), join(root, 'context', 'conv-1', 'artifacts', 'linked'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'batch', 'tool-result-link.md'));
  symlinkSync(join(root, 'context'), join(root, 'context', 'conv-2', 'loop'));
  return { root, outside };
}

const cli = join(repo, 'target', 'release', 'tool-offload');
execFileSync('cargo', ['build', '--release', '--quiet', '-p', 'tool-offload-cli'], { cwd: repo, stdio: 'inherit' });

const base = join(tmpdir(), 'tool-offload-gc-tree');
const rows = [];
const time = (label, run) => {
  const start = performance.now();
  const out = run();
  rows.push([label, performance.now() - start]);
  return out;
};

for (const host of ['npm gcDirectory', 'CLI tool-offload gc']) {
  const { root, outside } = build(base);
  const before = snapshot(outside);
  const foreignBefore = [...snapshot(root)].filter(([p, v]) => v === 'link' || /notes\.md$|\/foreign\//.test(p));
  const files = time(`${host}: baseline, lstat walk`, () => walk(root));
  const gc = async (dryRun) => {
    if (host.startsWith('npm')) return gcDirectory(root, { olderThanMs: 30 * 86_400_000, dryRun });
    const args = ['gc', root, '--older-than', '30d', '--json', ...(dryRun ? ['--dry-run'] : [])];
    return JSON.parse(execFileSync(cli, args, { maxBuffer: 1 << 30 }).toString());
  };
  let start = performance.now();
  const dry = await gc(true);
  rows.push([`${host}: dry run`, performance.now() - start]);
  start = performance.now();
  const real = await gc(false);
  rows.push([`${host}: removing ${real.removed.length.toLocaleString('en')}`, performance.now() - start]);
  const after = snapshot(outside);
  const touched =
    [...before].filter(([p, v]) => after.get(p) !== v).length + [...after.keys()].filter((p) => !before.has(p)).length;
  const nowRoot = snapshot(root);
  const foreignLost = foreignBefore.filter(([p, v]) => nowRoot.get(p) !== v).length;
  console.log(
    `${host}: ${files.toLocaleString('en')} entries; dry run would remove ${dry.removed.length.toLocaleString('en')}, removed ${real.removed.length.toLocaleString('en')} (expected ${((CONVERSATIONS * PER) / 2).toLocaleString('en')}); files touched outside: ${touched}; foreign files or links changed: ${foreignLost}`,
  );
  if (touched !== 0 || foreignLost !== 0 || real.removed.length !== (CONVERSATIONS * PER) / 2) process.exitCode = 1;
}
rmSync(base, { recursive: true, force: true });

const baseline = new Map(rows.filter(([l]) => l.endsWith('lstat walk')).map(([l, ms]) => [l.split(':')[0], ms]));
console.log('\n| run | ms | × the lstat walk |\n|---|---:|---:|');
for (const [label, ms] of rows) {
  const walkMs = baseline.get(label.split(':')[0]);
  console.log(`| ${label} | ${ms.toFixed(0)} | ${(ms / walkMs).toFixed(1)} |`);
}
