// Checks that every host recorded byte-identical outcomes for every vector.
// Each host's runner writes target/conformance/<host>.json; run them first (make test).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const HOSTS = ['core-native', 'tokio', 'wasm', 'npm'];
const vectors = readdirSync(join(repo, 'tests', 'vectors')).filter((f) => f.endsWith('.json')).length;
const dir = join(repo, 'target', 'conformance');

const recorded = Object.fromEntries(HOSTS.map((h) => [h, readFileSync(join(dir, `${h}.json`), 'utf8')]));
let failed = 0;
for (const host of HOSTS) {
  const count = Object.keys(JSON.parse(recorded[host])).length;
  if (count !== vectors) {
    console.error(`${host}: recorded ${count} outcomes for ${vectors} vectors`);
    failed++;
  }
  if (recorded[host] !== recorded[HOSTS[0]]) {
    const a = JSON.parse(recorded[HOSTS[0]]);
    const b = JSON.parse(recorded[host]);
    for (const name of Object.keys(a)) {
      if (a[name] !== b[name]) console.error(`${host} differs from ${HOSTS[0]} on ${name}:\n  ${b[name]}\n  ${a[name]}`);
    }
    failed++;
  }
}
const bytes = recorded[HOSTS[0]].length;
console.log(`cross-host: ${HOSTS.length} hosts × ${vectors} vectors, ${bytes} bytes of outcomes each`);
console.log(`${HOSTS.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
