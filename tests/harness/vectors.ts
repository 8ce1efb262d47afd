// Shared conformance vectors (tests/vectors/*.json) for the JavaScript hosts. Mirrors
// tests/conformance/src/lib.rs: the same canonical outcome, recorded for cross-host.mjs.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Writer {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
}

interface VectorBase {
  /** The file name without `.json` (`direct-…`, `batch-…`): the key of recorded outcomes. */
  id: string;
  name: string;
  description: string;
  cwd: string;
  expect: Record<string, unknown>;
}

/** A direct-offload vector (`direct-*.json`). */
export interface DirectVector extends VectorBase {
  call: 'offloadToolResult';
  input: { message: unknown; sessionId: string; outputDir: string; failOn?: string };
}

/** A batch-offload vector (`batch-*.json`). */
export interface BatchVector extends VectorBase {
  call: 'offloadToolResults';
  input: { messages: unknown[]; outputDir: string; threshold?: number; failOn?: string };
}

export type Vector = DirectVector | BatchVector;

export type OffloadFn = (message: any, sessionId: string, outputDir: string, writer: Writer, options?: { cwd?: string }) => Promise<{
  message: unknown;
  freedChars: number;
  file: string;
  files: string[];
}>;

export type OffloadBatchFn = (messages: any[], options: { outputDir: string; threshold?: number; writer: Writer; cwd?: string }) => Promise<{
  messages: unknown[];
  offloadedCount: number;
  freedChars: number;
  files: string[];
}>;

/** The host's two entry points. */
export interface Api {
  offloadToolResult: OffloadFn;
  offloadToolResults: OffloadBatchFn;
}

export function loadVectors(): Vector[] {
  const dir = join(repo, 'tests', 'vectors');
  return readdirSync(dir)
    .filter((f) => (f.startsWith('direct-') || f.startsWith('batch-')) && f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Vector), id: f.slice(0, -'.json'.length) }));
}

/**
 * Run `vector` through `api` with `writer` (made to fail on the vector's `failOn` path,
 * a file or the directory to create); `written` lists files afterwards. Returns the
 * canonical outcome: the expected object's keys, plus `problems` (so it cannot match)
 * when the input was mutated, a directory was created though nothing was written, or
 * (batch) an unchanged message did not come back as the very same object or a changed
 * one shares objects with the input.
 */
export async function runVector(vector: Vector, api: Api, writer: Writer, written: () => Record<string, string>): Promise<string> {
  const { failOn } = vector.input;
  let mkdirs = 0;
  const failing: Writer = {
    mkdir: (dir) => (mkdirs++, dir === failOn ? Promise.reject(new Error('injected failure')) : writer.mkdir(dir)),
    writeFile: (path, data) => (path === failOn ? Promise.reject(new Error('injected failure')) : writer.writeFile(path, data)),
  };
  const problems: string[] = [];
  const input = vector.call === 'offloadToolResult' ? vector.input.message : vector.input.messages;
  const before = structuredClone(input);
  let outcome: Record<string, unknown>;
  try {
    if (vector.call === 'offloadToolResult') {
      const { message, sessionId, outputDir } = vector.input;
      const r = await api.offloadToolResult(message, sessionId, outputDir, failing, { cwd: vector.cwd });
      outcome = { message: r.message, freedChars: r.freedChars, file: r.file, files: r.files };
    } else {
      const { messages, outputDir, threshold } = vector.input;
      const options = { outputDir, writer: failing, cwd: vector.cwd, ...(threshold !== undefined ? { threshold } : {}) };
      const r = await api.offloadToolResults(messages, options);
      problems.push(...identityProblems(vector, r.messages));
      outcome = { messages: r.messages, offloadedCount: r.offloadedCount, freedChars: r.freedChars, files: r.files };
    }
  } catch (e) {
    const err = e as { code?: string; path?: string };
    if (!(e instanceof Error) || typeof err.code !== 'string') throw e;
    outcome = { error: err.code, ...(err.code === 'WRITE_FAILED' ? { errorPath: err.path } : {}) };
    const mentions = vector.expect.errorMentions;
    if (typeof mentions === 'string') outcome.errorMentions = e.message.includes(mentions) ? mentions : e.message;
  }
  try {
    assert.deepStrictEqual(input, before);
  } catch {
    problems.push('the input was modified');
  }
  outcome.written = written();
  if (mkdirs > 0 && Object.keys(outcome.written as object).length === 0 && outcome.errorPath === undefined) {
    problems.push(`${mkdirs} directories created although nothing was written`);
  }
  if (problems.length > 0) outcome.problems = problems;
  return JSON.stringify(outcome);
}

/** Unchanged messages must be the input objects themselves (`===`); changed ones deep
 * copies sharing no object with the input. "Changed" is read off the expected messages. */
function identityProblems(vector: BatchVector, got: unknown[]): string[] {
  const expected = vector.expect.messages;
  if (!Array.isArray(expected)) return [];
  const input = vector.input.messages;
  const problems: string[] = [];
  if (got.length !== input.length) return [`${got.length} messages returned for ${input.length}`];
  for (let i = 0; i < input.length; i++) {
    const changed = JSON.stringify(expected[i]) !== JSON.stringify(input[i]);
    if (!changed && got[i] !== input[i]) problems.push(`messages[${i}] is unchanged but not the same object`);
    if (changed) {
      const originals = objectsIn(input[i]);
      if ([...objectsIn(got[i])].some((o) => originals.has(o))) problems.push(`messages[${i}] is changed but shares objects with the input`);
    }
  }
  return problems;
}

function objectsIn(value: unknown, found = new Set<object>()): Set<object> {
  if (value !== null && typeof value === 'object' && !found.has(value)) {
    found.add(value);
    for (const v of Object.values(value)) objectsIn(v, found);
  }
  return found;
}

export const expected = (vector: Vector): string => JSON.stringify(vector.expect);

/** Byte-order sort, as Rust's BTreeMap<String, _> orders keys. */
export function byBytes<T>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A FileWriter in memory that, like a file system, needs the directory first, and
 * holds what a UTF-8 file would: a lone UTF-16 surrogate as U+FFFD, as Node's fs writes it. */
export class MemoryWriter implements Writer {
  readonly dirs = new Set<string>(['/']);
  readonly files = new Map<string, string>();
  async mkdir(dir: string): Promise<void> {
    let prefix = '';
    for (const part of dir.split('/').filter(Boolean)) this.dirs.add((prefix += '/' + part));
  }
  async writeFile(path: string, data: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if (!this.dirs.has(parent)) throw new Error(`no such directory: ${parent}`);
    this.files.set(path, data.replace(LONE_SURROGATE, '\uFFFD'));
  }
  written(): Record<string, string> {
    return Object.fromEntries(byBytes([...this.files]));
  }
}

/** Maps the vectors' virtual absolute paths under a real directory. */
export class RootedWriter implements Writer {
  constructor(readonly root: string, readonly inner: Writer) {}
  mkdir(dir: string): Promise<void> {
    return this.inner.mkdir(this.root + dir);
  }
  writeFile(path: string, data: string): Promise<void> {
    return this.inner.writeFile(this.root + path, data);
  }
  /** Every file under the root (temporary files included), by virtual path. */
  written(): Record<string, string> {
    const found: [string, string][] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else found.push(['/' + relative(this.root, p).split(sep).join('/'), readFileSync(p, 'utf8')]);
      }
    };
    walk(this.root);
    return Object.fromEntries(byBytes(found));
  }
}

/** Record outcomes (vector name → canonical outcome) in target/conformance/<host>.json. */
export function record(host: string, outcomes: Map<string, string>): void {
  const dir = join(repo, 'target', 'conformance');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${host}.json`), JSON.stringify(Object.fromEntries(byBytes([...outcomes]))));
}
