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
import { MemoryIO, runVector, type Api, type ReadWriter } from '../../tests/harness/steps.ts';
import { checkOutcomes, filesUnder, loadVectors } from '../../tests/harness/node-io.ts';

const vectors = loadVectors();

type Outcomes = Map<string, { outcome: string; actual: unknown[] }>;

const check = (host: string | undefined, outcomes: Outcomes) => checkOutcomes(host, vectors, outcomes);

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

test('npm package with its MemoryWriter passes every vector', async () => {
  const outcomes: Outcomes = new Map();
  for (const v of vectors) {
    const io = new npm.MemoryWriter();
    const files = async () => {
      const found: Record<string, string> = {};
      const walk = async (dir: string): Promise<void> => {
        for (const name of await io.listDir(dir)) {
          const path = `${dir === '/' ? '' : dir}/${name}`;
          if ((await io.stat(path))?.isDir) await walk(path);
          else found[path] = (await io.readFile(path))!;
        }
      };
      await walk('/');
      return found;
    };
    outcomes.set(v.id, await runVector(v, { api: npm as unknown as Api, io, root: '', files }));
  }
  // Not a host of its own in cross-host.mjs: the same outcomes as the others, asserted here.
  check(undefined, outcomes);
});
