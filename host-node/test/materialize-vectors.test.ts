// Every materialization vector (tests/vectors/materialize-*.json) through the raw wasm
// build (in-memory IO) and through the npm package as users import it (NodeFileWriter
// on a temporary directory). Outcomes are recorded in
// target/conformance/materialize-<host>.json for tests/cross-host.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';

import * as wasm from '../wasm/tool_offload_wasm.js';
import * as npm from 'tool-offload';
import { byBytes, record } from '../../tests/harness/vectors.ts';
import {
  expectedOutcome,
  loadMaterializeVectors,
  MemoryIO,
  runMaterializeVector,
  type MaterializeApi,
  type MaterializeVector,
  type ReadWriter,
} from '../../tests/harness/materialize.ts';

const vectors = loadMaterializeVectors();
const wasmApi = wasm as unknown as MaterializeApi;
const npmApi = npm as unknown as MaterializeApi;

type Outcomes = Map<string, { outcome: string; actual: unknown[] }>;

function check(host: string, outcomes: Outcomes): void {
  record(`materialize-${host}`, new Map([...outcomes].map(([id, o]) => [id, o.outcome])));
  const pending: string[] = [];
  for (const v of vectors) {
    const { outcome, actual } = outcomes.get(v.id)!;
    const want = expectedOutcome(v, actual as never);
    if (want === null) pending.push(v.id);
    else assert.equal(outcome, want, v.id);
  }
  assert.deepEqual(pending, [], 'core texts not blessed: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test materialize');
}

/** Files under a real directory, by path relative to it. */
function filesUnder(root: string): Record<string, string> {
  const found: [string, string][] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else found.push([relative(root, p).split(sep).join('/'), readFileSync(p, 'utf8')]);
    }
  };
  walk(root);
  return Object.fromEntries(byBytes(found));
}

test('materialize vectors exist', () => {
  assert.ok(vectors.length > 0);
  assert.ok(vectors.every((v: MaterializeVector) => v.steps.length > 0));
});

test('wasm build with in-memory IO passes every materialize vector', async () => {
  const outcomes: Outcomes = new Map();
  for (const v of vectors) {
    const io = new MemoryIO();
    const root = '/data';
    outcomes.set(v.id, await runMaterializeVector(v, { api: wasmApi, io, root, files: () => io.filesUnder(root) }));
  }
  check('wasm', outcomes);
});

test('npm package with NodeFileWriter on real files passes every materialize vector', async () => {
  const outcomes: Outcomes = new Map();
  for (const v of vectors) {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tool-offload-mat-')));
    try {
      const io = new npm.NodeFileWriter() as unknown as ReadWriter;
      outcomes.set(v.id, await runMaterializeVector(v, { api: npmApi, io, root, files: () => filesUnder(root) }));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  check('npm', outcomes);
});
