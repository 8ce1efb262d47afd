// Seed corpora for `make fuzz` (written at run time into fuzz/corpus/, which is not
// committed): small JSON values from the conformance vectors for `json`, the bundles the
// vectors export for `bundle_import`, and the committed fuzz/seeds/<target>/ inputs
// (past crashes, kept as regression seeds).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const vectors = join(here, '..', 'tests', 'vectors');
const MAX_SEED_BYTES = 4096;

function write(target, bytes) {
  const dir = join(here, 'corpus', target);
  mkdirSync(dir, { recursive: true });
  const name = createHash('sha1').update(bytes).digest('hex');
  writeFileSync(join(dir, name), bytes);
}

// Edge cases of the JSON.parse grammar that serde_json treats differently or that
// stringify formats the JavaScript way.
const json = new Set([
  '["\\ud800", "\\udc00\\ud800", "\\ud83d\\ude00"]',
  '[1e400, -1e400, 1e-400, 123456789012345678901234567890]',
  '{"b": 1.0, "10": true, "2": null, "01": 0, "4294967295": 1, "4294967294": 2}',
  '[-0, 0.1, 1e21, 1e20, 1.5e-7, 5e-324, 1.7976931348623157e308, 9007199254740993]',
  '["\\u0000\\u001f\\u007f\\b\\f\\n\\r\\t\\/\\\\\\"", "\u2028\u2029"]',
  `${'['.repeat(200)}${']'.repeat(200)}`,
  ' \t\r\n{ "a" : [ true , false , null ] } \n',
]);
const bundles = [];

function visit(value) {
  if (value === null || typeof value !== 'object') return;
  if (value.format === 'tool-offload/conversation') bundles.push(value);
  const text = JSON.stringify(value);
  if (text.length <= MAX_SEED_BYTES) json.add(text);
  for (const child of Object.values(value)) visit(child);
}

for (const file of readdirSync(vectors).filter((f) => f.endsWith('.json'))) {
  visit(JSON.parse(readFileSync(join(vectors, file), 'utf8')));
}
// Every distinct small value would be thousands of seeds; a spread of sizes is enough.
const picked = [...json]
  .sort((a, b) => a.length - b.length)
  .filter((_, i, all) => i < 50 || i % Math.ceil(all.length / 150) === 0);
for (const text of picked) write('json', Buffer.from(text));
// `bundle_import` input: enum tag 0 (raw bytes), then the JSON.
for (const bundle of bundles) {
  write('bundle_import', Buffer.concat([Buffer.alloc(4), Buffer.from(JSON.stringify(bundle))]));
}
let kept = 0;
const seeds = join(here, 'seeds');
for (const target of existsSync(seeds) ? readdirSync(seeds) : []) {
  for (const file of readdirSync(join(seeds, target))) {
    write(target, readFileSync(join(seeds, target, file)));
    kept += 1;
  }
}
console.log(`seeded ${picked.length} json, ${bundles.length} bundle_import and ${kept} past-crash inputs`);
