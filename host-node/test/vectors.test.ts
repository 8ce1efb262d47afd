// Every conformance vector (tests/vectors/*.json) through the raw wasm build (in-memory
// IO) and through the npm package as users import it (NodeFileWriter on a temporary
// directory standing for `/`). Outcomes are recorded in target/conformance/<host>.json
// for tests/cross-host.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import * as wasm from '../wasm/tool_offload_wasm.js';
import * as npm from 'tool-offload';
import {
  expectedOutcome,
  filesUnder,
  loadVectors,
  MemoryIO,
  record,
  runVector,
  type Api,
  type ReadWriter,
} from '../../tests/harness/steps.ts';

const vectors = loadVectors();

type Outcomes = Map<string, { outcome: string; actual: unknown[] }>;

function check(host: string, outcomes: Outcomes): void {
  record(host, new Map([...outcomes].map(([id, o]) => [id, o.outcome])));
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

test('vectors cover every kind of step', () => {
  const ops = new Set(vectors.flatMap((v) => v.steps.map((s) => s.op)));
  for (const op of [
    'offloadToolResult',
    'offloadToolResults',
    'materialize',
    'read',
    'grep',
    'registry',
    'execute',
    'registerTodoTools',
  ]) {
    assert.ok(ops.has(op), `no vector has a ${op} step`);
  }
});

test('wasm build with in-memory IO passes every vector', async () => {
  const outcomes: Outcomes = new Map();
  for (const v of vectors) {
    const io = new MemoryIO();
    outcomes.set(v.id, await runVector(v, { api: wasm as unknown as Api, io, root: '', files: () => io.written() }));
  }
  check('wasm', outcomes);
});

test('npm package with NodeFileWriter on real files passes every vector', async () => {
  const outcomes: Outcomes = new Map();
  for (const v of vectors) {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tool-offload-vec-')));
    try {
      const io = new npm.NodeFileWriter() as unknown as ReadWriter;
      outcomes.set(v.id, await runVector(v, { api: npm as unknown as Api, io, root, files: () => filesUnder(root) }));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  check('npm', outcomes);
});
