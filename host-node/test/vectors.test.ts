// Every conformance vector (direct and batch) through the raw wasm build (in-memory
// writer) and through the npm package as users import it (NodeFileWriter on a
// temporary directory).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import * as wasm from '../wasm/tool_offload_wasm.js';
import { NodeFileWriter, offloadToolResult, offloadToolResults } from 'tool-offload';
import { expected, loadVectors, MemoryWriter, record, RootedWriter, runVector, type Api } from '../../tests/harness/vectors.ts';

const vectors = loadVectors();
const wasmApi = { offloadToolResult: wasm.offloadToolResult, offloadToolResults: wasm.offloadToolResults } as unknown as Api;
const npmApi = { offloadToolResult, offloadToolResults } as unknown as Api;

test('vectors cover both calls', () => {
  assert.ok(vectors.some((v) => v.call === 'offloadToolResult'), 'no direct vectors');
  assert.ok(vectors.some((v) => v.call === 'offloadToolResults'), 'no batch vectors');
});

test('wasm build with an in-memory writer passes every vector', async () => {
  const outcomes = new Map<string, string>();
  for (const v of vectors) {
    const memory = new MemoryWriter();
    outcomes.set(v.id, await runVector(v, wasmApi, memory, () => memory.written()));
  }
  record('wasm', outcomes);
  for (const v of vectors) assert.equal(outcomes.get(v.id), expected(v), v.id);
});

test('npm package with NodeFileWriter on real files passes every vector', async () => {
  const outcomes = new Map<string, string>();
  for (const v of vectors) {
    const root = mkdtempSync(join(tmpdir(), 'tool-offload-vec-'));
    try {
      const rooted = new RootedWriter(root, new NodeFileWriter());
      outcomes.set(v.id, await runVector(v, npmApi, rooted, () => rooted.written()));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  record('npm', outcomes);
  for (const v of vectors) assert.equal(outcomes.get(v.id), expected(v), v.id);
});
