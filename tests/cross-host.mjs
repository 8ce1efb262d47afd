// Checks that every host recorded byte-identical outcomes for every vector, and, when the
// corpus tests ran, that the npm package and the tokio host produced identical outcomes
// for every real transcript.
// Each host's runner writes target/conformance/<host>.json (and corpus-<host>.json); run
// them first (make test).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOSTS = ['core-native', 'tokio', 'object-store', 'object-store-s3', 'wasm', 'npm', 'npm-s3', 'browser', 'python'];
const CORPUS_HOSTS = ['tokio', 'npm'];
const files = readdirSync(join(repo, 'tests', 'vectors')).filter((f) => f.endsWith('.json'));
const counts = new Map();
for (const f of files) counts.set(f.split('-')[0], (counts.get(f.split('-')[0]) ?? 0) + 1);
const groups = [...counts].map(([group, n]) => `${n} ${group}`);
const dir = join(repo, 'target', 'conformance');
let failed = 0;

/** Every host recorded `count` outcomes in `<prefix><host>.json`, byte-identical to the first host's. */
function compare(prefix, count, what) {
  const missing = HOSTS.filter((h) => !existsSync(join(dir, `${prefix}${h}.json`)));
  if (missing.length > 0) {
    console.error(`${what}: not recorded by ${missing.join(', ')}; run every host's tests first`);
    failed += missing.length;
    return;
  }
  const recorded = Object.fromEntries(HOSTS.map((h) => [h, readFileSync(join(dir, `${prefix}${h}.json`), 'utf8')]));
  for (const host of HOSTS) {
    const got = Object.keys(JSON.parse(recorded[host])).length;
    if (got !== count) {
      console.error(`${prefix}${host}: recorded ${got} outcomes for ${count} vectors`);
      failed++;
    }
    if (recorded[host] !== recorded[HOSTS[0]]) {
      const a = JSON.parse(recorded[HOSTS[0]]);
      const b = JSON.parse(recorded[host]);
      for (const name of Object.keys(a)) {
        if (a[name] === b[name]) continue;
        const [x, y] = [a[name], b[name] ?? ''];
        let at = 0;
        while (at < x.length && x[at] === y[at]) at++;
        console.error(
          `${host} differs from ${HOSTS[0]} on ${name} at character ${at}:\n  ${host}: …${y.slice(Math.max(0, at - 80), at + 80)}…\n  ${HOSTS[0]}: …${x.slice(Math.max(0, at - 80), at + 80)}…`,
        );
      }
      failed++;
    }
  }
  console.log(
    `cross-host: ${HOSTS.length} hosts × ${count} ${what}, ${recorded[HOSTS[0]].length} bytes of outcomes each`,
  );
}
compare('', files.length, `vectors (${groups.join(', ')})`);

let checks = HOSTS.length;
// Real transcripts: recorded only when the corpus was found (the corpus tests delete a
// stale record when it is absent).
const corpusPaths = CORPUS_HOSTS.map((h) => join(dir, `corpus-${h}.json`));
const present = corpusPaths.filter((p) => existsSync(p));
if (present.length === 0) {
  console.log('corpus: not recorded by any host (corpus absent?): skipped');
} else if (present.length < corpusPaths.length) {
  console.error(`corpus: recorded by ${present.map((p) => p.split('/').pop()).join(', ')} only; run every corpus test`);
  checks++;
  failed++;
} else {
  checks++;
  const [a, b] = corpusPaths.map((p) => JSON.parse(readFileSync(p, 'utf8')));
  const [ha, hb] = CORPUS_HOSTS;
  if (a.corpus !== b.corpus) {
    console.error(`corpus: ${ha} and ${hb} ran on different corpora; rerun both corpus tests`);
    failed++;
  } else {
    const keys = [...new Set([...Object.keys(a.outcomes), ...Object.keys(b.outcomes)])];
    let differ = 0;
    for (const key of keys) {
      const [x, y] = [a.outcomes[key], b.outcomes[key]];
      if (x === y) continue;
      differ++;
      if (x === undefined || y === undefined) {
        console.error(`corpus: ${key} recorded by ${x === undefined ? hb : ha} only`);
        continue;
      }
      let at = 0;
      while (at < x.length && x[at] === y[at]) at++;
      console.error(
        `corpus: ${ha} and ${hb} differ on ${key} at character ${at}:\n  ${ha}: …${x.slice(Math.max(0, at - 60), at + 60)}…\n  ${hb}: …${y.slice(Math.max(0, at - 60), at + 60)}…`,
      );
    }
    const size = Object.values(a.outcomes).reduce((n, o) => n + o.length, 0);
    console.log(
      `corpus: ${CORPUS_HOSTS.join(' and ')} × ${keys.length} runs (${a.corpus.split('\n').length} files), ${size} bytes of outcomes each: ${differ ? `${differ} differ` : 'identical'}`,
    );
    if (differ) failed++;
  }
}
console.log(`${checks - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
