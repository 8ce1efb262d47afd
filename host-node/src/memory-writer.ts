import type { FileReader, FileWriter } from '../wasm/tool_offload_wasm.js';
import { offloadError } from './errors.js';
import { joinParts, pathParts } from './virtual-path.js';

const encoder = new TextEncoder();
// A leading U+FEFF is content, kept as `fs.readFile` keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** What `stat` reports: the shape of `FileWriter.stat`'s result. */
interface Stat {
  size: number;
  modifiedMs: number;
  isDir: boolean;
}

/**
 * The whole IO contract in memory, in every JavaScript runtime: a tree rooted at `/`
 * that, like a file system, needs a file's directory to exist first, holds files as
 * UTF-8 bytes (a lone UTF-16 surrogate is stored as U+FFFD, as `TextEncoder` and Node's
 * `fs` write it), creates exclusively (`createFile`) and reads by byte range. The
 * JavaScript twin of core's `MemoryWriter`, with the same rules and messages; gone when
 * the page or process ends (`OpfsWriter` keeps a browser's artifacts).
 *
 * @example
 * ```ts
 * import { Materializer, MemoryWriter } from 'tool-offload';
 * const writer = new MemoryWriter();
 * const materializer = new Materializer({ userData: '/agent', conversationId: 'c1', writer });
 * ```
 */
export class MemoryWriter implements FileWriter, FileReader {
  readonly #dirs = new Set<string>(['/']);
  readonly #files = new Map<string, { bytes: Uint8Array; modifiedMs: number }>();

  /** Create `dir` and its parents; succeeds if it exists, fails where a file is in the way. */
  async mkdir(dir: string): Promise<void> {
    const parts = pathParts(dir);
    for (let i = 1; i <= parts.length; i++) {
      const prefix = joinParts(parts.slice(0, i));
      if (this.#files.has(prefix)) throw offloadError('WRITE_FAILED', `not a directory: ${prefix}`, dir);
      this.#dirs.add(prefix);
    }
  }

  /** Write `data` (text as UTF-8, bytes as they are) to `path`, replacing any file; its directory must exist. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const key = this.#writable(path);
    this.#files.set(key, { bytes: bytesOf(data), modifiedMs: Date.now() });
  }

  /** Write `data` to `path` only if nothing is there: `true` when it did, `false` (nothing written) otherwise. */
  async createFile(path: string, data: string | Uint8Array): Promise<boolean> {
    const key = this.#writable(path);
    // Check and insert with no await between them: exclusive across concurrent calls.
    if (this.#files.has(key)) return false;
    this.#files.set(key, { bytes: bytesOf(data), modifiedMs: Date.now() });
    return true;
  }

  /** The UTF-8 content of the file at `path`, or `undefined` when there is none. */
  async readFile(path: string): Promise<string | undefined> {
    const file = this.#files.get(joinParts(pathParts(path)));
    return file === undefined ? undefined : decoder.decode(file.bytes);
  }

  /** The names in `dir` (files and directories), sorted; `[]` when it does not exist. */
  async listDir(dir: string): Promise<string[]> {
    const parts = pathParts(dir);
    const prefix = parts.length === 0 ? '/' : joinParts(parts) + '/';
    const names = new Set<string>();
    for (const key of [...this.#files.keys(), ...this.#dirs]) {
      if (key.length > prefix.length && key.startsWith(prefix)) {
        const rest = key.slice(prefix.length);
        if (!rest.includes('/')) names.add(rest);
      }
    }
    return [...names].sort();
  }

  /** The size in bytes of the file at `path`, or `undefined` when there is none. */
  async size(path: string): Promise<number | undefined> {
    return this.#files.get(joinParts(pathParts(path)))?.bytes.length;
  }

  /** Bytes `start..end` of the file at `path` (fewer at its end); a missing file is `READ_FAILED`. */
  async readRange(path: string, start: number, end: number): Promise<Uint8Array> {
    const file = this.#files.get(joinParts(pathParts(path)));
    if (file === undefined) throw offloadError('READ_FAILED', `no such file: ${path}`, path);
    const from = Math.min(Math.max(0, start), file.bytes.length);
    return file.bytes.slice(from, Math.min(Math.max(from, end), file.bytes.length));
  }

  /** Size, modification time and kind of `path`, or `undefined` when nothing is there (retention). */
  async stat(path: string): Promise<Stat | undefined> {
    const key = joinParts(pathParts(path));
    const file = this.#files.get(key);
    if (file !== undefined) return { size: file.bytes.length, modifiedMs: file.modifiedMs, isDir: false };
    return this.#dirs.has(key) ? { size: 0, modifiedMs: 0, isDir: true } : undefined;
  }

  /** Remove the file at `path`; nothing there is not an error (retention). */
  async remove(path: string): Promise<void> {
    this.#files.delete(joinParts(pathParts(path)));
  }

  /** The canonical key of `path` when a file may be written there (its directory exists, it is no directory). */
  #writable(path: string): string {
    const parts = pathParts(path);
    if (parts.length === 0) throw offloadError('WRITE_FAILED', `is a directory: /`, path);
    const parent = joinParts(parts.slice(0, -1));
    if (!this.#dirs.has(parent)) throw offloadError('WRITE_FAILED', `no such directory: ${parent}`, path);
    const key = joinParts(parts);
    if (this.#dirs.has(key)) throw offloadError('WRITE_FAILED', `is a directory: ${key}`, path);
    return key;
  }
}

/** Text as UTF-8; bytes copied, so the caller may reuse its array. */
const bytesOf = (data: string | Uint8Array): Uint8Array =>
  typeof data === 'string' ? encoder.encode(data) : data.slice();
