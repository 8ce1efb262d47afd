// Shared conformance vectors (tests/vectors/*.json) for the JavaScript hosts. Mirrors
// tests/conformance/src/lib.rs: the same canonical outcome, recorded for cross-host.mjs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Writer {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
}

export interface Vector {
  name: string;
  description: string;
  call: 'offloadToolResult';
  cwd: string;
  input: { message: unknown; sessionId: string; outputDir: string; failOn?: string };
  expect: Record<string, unknown>;
}

export type OffloadFn = (message: any, sessionId: string, outputDir: string, writer: Writer, options?: { cwd?: string }) => Promise<{
  message: unknown;
  freedChars: number;
  file: string;
  files: string[];
}>;

export function loadVectors(): Vector[] {
  const dir = join(repo, 'tests', 'vectors');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Vector);
}

/** Run `vector` through `offload` with `writer`; `written` lists files afterwards. */
export async function runVector(vector: Vector, offload: OffloadFn, writer: Writer, written: () => Record<string, string>): Promise<string> {
  const { message, sessionId, outputDir, failOn } = vector.input;
  const failing: Writer = {
    mkdir: (dir) => writer.mkdir(dir),
    writeFile: (path, data) => (path === failOn ? Promise.reject(new Error('injected failure')) : writer.writeFile(path, data)),
  };
  let outcome: Record<string, unknown>;
  try {
    const r = await offload(message, sessionId, outputDir, failing, { cwd: vector.cwd });
    outcome = { message: r.message, freedChars: r.freedChars, file: r.file, files: r.files };
  } catch (e) {
    const err = e as { code?: string; path?: string };
    if (!(e instanceof Error) || typeof err.code !== 'string') throw e;
    outcome = { error: err.code, ...(err.code === 'WRITE_FAILED' ? { errorPath: err.path } : {}) };
  }
  outcome.written = written();
  return JSON.stringify(outcome);
}

export const expected = (vector: Vector): string => JSON.stringify(vector.expect);

/** Byte-order sort, as Rust's BTreeMap<String, _> orders keys. */
export function byBytes<T>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** A FileWriter in memory that, like a file system, needs the directory first. */
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
    this.files.set(path, data);
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
