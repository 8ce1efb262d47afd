// Every conformance vector through the raw wasm build (in-memory writer) and through the
// npm package as users import it (NodeFileWriter on a temporary directory).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import * as wasm from '../wasm/tool_offload_wasm.js';
import { NodeFileWriter, offloadToolResult } from 'tool-offload';
import { expected, loadVectors, MemoryWriter, record, RootedWriter, runVector, type OffloadFn } from '../../tests/harness/vectors.ts';

const vectors = loadVectors();

test('wasm build with an in-memory writer passes every vector', async () => {
  const outcomes = new Map<string, string>();
  for (const v of vectors) {
    const memory = new MemoryWriter();
    outcomes.set(v.name, await runVector(v, wasm.offloadToolResult as OffloadFn, memory, () => memory.written()));
  }
  record('wasm', outcomes);
  for (const v of vectors) assert.equal(outcomes.get(v.name), expected(v), v.name);
});

test('npm package with NodeFileWriter on real files passes every vector', async () => {
  const outcomes = new Map<string, string>();
  for (const v of vectors) {
    const root = mkdtempSync(join(tmpdir(), 'tool-offload-vec-'));
    try {
      const rooted = new RootedWriter(root, new NodeFileWriter());
      outcomes.set(v.name, await runVector(v, offloadToolResult as OffloadFn, rooted, () => rooted.written()));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  record('npm', outcomes);
  for (const v of vectors) assert.equal(outcomes.get(v.name), expected(v), v.name);
});
