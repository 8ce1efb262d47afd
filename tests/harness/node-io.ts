// The Node side of the JavaScript vector hosts: reading the vectors, the files a host left
// on disk, and recording outcomes for tests/cross-host.mjs. steps.ts runs them.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative as relativePath, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { byBytes, expand, expectedOutcome, type Vector } from './steps.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every vector of tests/vectors, `$text` recipes expanded, sorted by file name. */
export function loadVectors(): Vector[] {
  const dir = join(repo, 'tests', 'vectors');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map(
      (f) =>
        ({
          ...(expand(JSON.parse(readFileSync(join(dir, f), 'utf8'))) as object),
          id: f.slice(0, -'.json'.length),
        }) as Vector,
    );
}

/** Every file under a real directory standing for `/`, by virtual path. */
export function filesUnder(root: string): Record<string, string> {
  const found: [string, string][] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else found.push(['/' + relativePath(root, p).split(sep).join('/'), readFileSync(p, 'utf8')]);
    }
  };
  walk(root);
  return Object.fromEntries(byBytes(found));
}

/** Record outcomes (vector id → canonical outcome) in target/conformance/<host>.json. */
export function record(host: string, outcomes: Map<string, string>): void {
  const dir = join(repo, 'target', 'conformance');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${host}.json`), JSON.stringify(Object.fromEntries(byBytes([...outcomes]))));
}

/**
 * Record `host`'s outcomes (unless `undefined`), then assert each equals the vector's expectation given the
 * step results the host saw (every `$core` text blessed).
 */
export function checkOutcomes(
  host: string | undefined,
  vectors: Vector[],
  outcomes: Map<string, { outcome: string; actual: unknown[] }>,
): void {
  if (host !== undefined) record(host, new Map([...outcomes].map(([id, o]) => [id, o.outcome])));
  const pending: string[] = [];
  for (const v of vectors) {
    const { outcome, actual } = outcomes.get(v.id)!;
    const want = expectedOutcome(v, actual as never);
    if (want === null) pending.push(v.id);
    else assert.equal(outcome, want, v.id);
  }
  assert.deepEqual(
    pending,
    [],
    'core texts not blessed: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host',
  );
}
