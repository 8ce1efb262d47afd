import type { FileReader, FileWriter } from '../wasm/tool_offload_wasm.js';
import { offloadError } from './errors.js';
import { sweepStaleTempFiles, tempFileName } from '../wasm/tool_offload_wasm.js';
import { joinParts, pathParts } from './virtual-path.js';

// The parts of the File System Access API this writer uses, declared here so the package
// compiles (and its types load) without the DOM library.
/** A directory of the Origin Private File System (`FileSystemDirectoryHandle`). */
export interface OpfsDirectoryHandle {
  readonly kind: 'directory';
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<OpfsDirectoryHandle>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<OpfsFileHandle>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
  keys(): AsyncIterable<string>;
}

/** What {@link OpfsFileHandle.getFile} gives: the file's content and metadata (`File`). */
type OpfsFile = Awaited<ReturnType<OpfsFileHandle['getFile']>>;

/** A file of the Origin Private File System (`FileSystemFileHandle`). */
export interface OpfsFileHandle {
  readonly kind: 'file';
  getFile(): Promise<{
    size: number;
    lastModified: number;
    arrayBuffer(): Promise<ArrayBuffer>;
    slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
  }>;
  createWritable(options?: { keepExistingData?: boolean }): Promise<{
    /** A string is written as UTF-8, a lone surrogate as U+FFFD; bytes as they are. */
    write(data: string | Uint8Array<ArrayBuffer>): Promise<void>;
    close(): Promise<void>;
    abort(): Promise<void>;
  }>;
  /** Chromium and Safari have it; without it `createFile` writes the target in place. */
  move?(parent: OpfsDirectoryHandle, name: string): Promise<void>;
}

/** Options of {@link OpfsWriter}. */
export interface OpfsWriterOptions {
  /**
   * The directory standing for `/` (default: the origin's OPFS root,
   * `navigator.storage.getDirectory()`); a subdirectory keeps one app's artifacts apart.
   */
  root?: OpfsDirectoryHandle | Promise<OpfsDirectoryHandle>;
}

interface Navigatorish {
  storage?: { getDirectory?(): Promise<OpfsDirectoryHandle> };
  locks?: { request<T>(name: string, callback: () => Promise<T>): Promise<T> };
}

const navigatorish = (): Navigatorish | undefined => (globalThis as unknown as { navigator?: Navigatorish }).navigator;
// Not `Blob.text()`, which drops a leading U+FEFF: that is content, kept as `fs.readFile` keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The IO contract over the browser's Origin Private File System, so a browser agent's
 * artifacts survive a reload. Paths are absolute POSIX paths under `root` (the origin's
 * OPFS root by default); `.`/`..` parts are refused, so nothing lands outside it.
 *
 * `writeFile` goes through `createWritable`, which the browser commits atomically on
 * `close` (a failed write leaves the old file). `createFile` writes a temporary file
 * beside the target and moves it into place only when the name is free, checked and
 * moved under a Web Lock named after the path (`navigator.locks`), so of concurrent
 * creators in any tab or worker of the origin exactly one wins and readers never see a
 * partial file. `readRange` reads by `File.slice`. As `NodeFileWriter` does, the first
 * `mkdir` of a directory removes the temporary files a closed tab left there more than
 * 10 minutes ago (core's policy).
 *
 * @example
 * ```ts
 * import { Materializer, OpfsWriter } from 'tool-offload';
 * const writer = new OpfsWriter();
 * const materializer = new Materializer({ userData: '/agent', conversationId: 'c1', writer });
 * ```
 */
export class OpfsWriter implements FileWriter, FileReader {
  readonly #root: Promise<OpfsDirectoryHandle>;
  /** Directories this writer has swept for dead writers' temporary files. */
  readonly #swept = new Set<string>();

  constructor(options: OpfsWriterOptions = {}) {
    const given = options.root;
    this.#root =
      given !== undefined
        ? Promise.resolve(given)
        : Promise.resolve().then(() => {
            const storage = navigatorish()?.storage;
            if (typeof storage?.getDirectory !== 'function') {
              throw offloadError(
                'INVALID_ARGUMENT',
                'OpfsWriter needs the Origin Private File System (navigator.storage.getDirectory), ' +
                  'which this runtime does not have (a secure context in a browser or worker does)',
              );
            }
            return storage.getDirectory();
          });
    // Reported by the first call that needs the root, not as an unhandled rejection.
    this.#root.catch(() => undefined);
  }

  /** Create `dir` and its parents; succeeds if it exists, fails where a file is in the way. */
  async mkdir(dir: string): Promise<void> {
    const parts = pathParts(dir);
    const handle = await this.#write(dir, () => this.#dir(parts, true));
    const key = joinParts(parts);
    if (handle !== undefined && !this.#swept.has(key)) {
      this.#swept.add(key);
      // Core's sweep (ours, untouched for 10 minutes), through this writer.
      await sweepStaleTempFiles(dir, Date.now(), this).catch(() => 0);
    }
  }

  /** Write `data` as UTF-8 to `path`, replacing any file; its directory must exist. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const [parent, name] = await this.#parentOf(path);
    await this.#write(path, async () => writeWhole(await parent.getFileHandle(name, { create: true }), data));
  }

  /**
   * Write `data` to `path` only if nothing is there: `true` when it did, `false`
   * (nothing written) otherwise. Exclusive across the origin's tabs and workers.
   */
  async createFile(path: string, data: string | Uint8Array): Promise<boolean> {
    const [parent, name] = await this.#parentOf(path);
    const temp = tempFileName(0, randomHex());
    const staged = await this.#write(path, async () => {
      const file = await parent.getFileHandle(temp, { create: true });
      await writeWhole(file, data);
      return file;
    });
    try {
      return await withLock(`tool-offload:${joinParts(pathParts(path))}`, async () => {
        if ((await entry(parent, name)) !== undefined) return false;
        await this.#write(path, async () =>
          staged.move !== undefined
            ? staged.move(parent, name)
            : writeWhole(await parent.getFileHandle(name, { create: true }), data),
        );
        return true;
      });
    } finally {
      // Gone already when it was moved into place.
      await parent.removeEntry(temp).catch(() => undefined);
    }
  }

  /** The UTF-8 content of the file at `path`, or `undefined` when there is none. */
  async readFile(path: string): Promise<string | undefined> {
    const handle = await this.#file(path);
    const file = handle && (await this.#contentOf(path, handle));
    return file === undefined ? undefined : this.#read(path, async () => decoder.decode(await file.arrayBuffer()));
  }

  /** The names in `dir`, sorted; `[]` when it does not exist. */
  async listDir(dir: string): Promise<string[]> {
    const handle = await this.#read(dir, () => this.#dir(pathParts(dir), false));
    if (handle === undefined) return [];
    const names: string[] = [];
    await this.#read(dir, async () => {
      for await (const name of handle.keys()) names.push(name);
    });
    return names.sort();
  }

  /** The size in bytes of the file at `path`, or `undefined` when there is none. */
  async size(path: string): Promise<number | undefined> {
    const handle = await this.#file(path);
    return (handle && (await this.#contentOf(path, handle)))?.size;
  }

  /** Bytes `start..end` of the file at `path` (fewer at its end), by `File.slice`; a missing file is `READ_FAILED`. */
  async readRange(path: string, start: number, end: number): Promise<Uint8Array> {
    const file = await this.#file(path);
    if (file === undefined) throw offloadError('READ_FAILED', `no such file: ${path}`, path);
    return this.#read(path, async () => {
      const blob = await file.getFile();
      const from = Math.min(Math.max(0, start), blob.size);
      return new Uint8Array(await blob.slice(from, Math.min(Math.max(from, end), blob.size)).arrayBuffer());
    });
  }

  /** Size, modification time and kind of `path`, or `undefined` when nothing is there (retention). */
  async stat(path: string): Promise<{ size: number; modifiedMs: number; isDir: boolean } | undefined> {
    const parts = pathParts(path);
    if (parts.length === 0) return { size: 0, modifiedMs: 0, isDir: true };
    const parent = await this.#read(path, () => this.#dir(parts.slice(0, -1), false));
    const found = parent && (await this.#read(path, () => entry(parent, parts.at(-1)!)));
    if (found === undefined) return undefined;
    if (found.kind === 'directory') return { size: 0, modifiedMs: 0, isDir: true };
    const file = await this.#contentOf(path, found);
    return file && { size: file.size, modifiedMs: file.lastModified, isDir: false };
  }

  /** Remove the file at `path`; nothing there is not an error (retention). */
  async remove(path: string): Promise<void> {
    const parts = pathParts(path);
    if (parts.length === 0) throw offloadError('WRITE_FAILED', 'is a directory: /', path);
    const parent = await this.#read(path, () => this.#dir(parts.slice(0, -1), false));
    if (parent === undefined) return;
    await this.#write(path, async () => {
      try {
        await parent.removeEntry(parts.at(-1)!);
      } catch (err) {
        if (!isNamed(err, 'NotFoundError')) throw err;
      }
    });
  }

  /** The directory of `path` (which must exist) and the file's name in it. */
  async #parentOf(path: string): Promise<[OpfsDirectoryHandle, string]> {
    const parts = pathParts(path);
    if (parts.length === 0) throw offloadError('WRITE_FAILED', 'is a directory: /', path);
    const parent = await this.#write(path, () => this.#dir(parts.slice(0, -1), false));
    if (parent === undefined) {
      throw offloadError('WRITE_FAILED', `no such directory: ${joinParts(parts.slice(0, -1))}`, path);
    }
    return [parent, parts.at(-1)!];
  }

  /**
   * The file of `handle`, or `undefined` when it was removed since the handle was found
   * (a concurrent `gc`): missing, as `size`, `readFile` and `stat` say of a missing file,
   * so core sees an artifact that vanished mid-read as removed, not `READ_FAILED`.
   */
  async #contentOf(path: string, handle: OpfsFileHandle): Promise<OpfsFile | undefined> {
    return this.#read(path, async () => {
      try {
        return await handle.getFile();
      } catch (err) {
        if (isNamed(err, 'NotFoundError')) return undefined;
        throw err;
      }
    });
  }

  /** The file at `path`, or `undefined` when no file is there. */
  async #file(path: string): Promise<OpfsFileHandle | undefined> {
    const parts = pathParts(path);
    if (parts.length === 0) return undefined;
    const parent = await this.#read(path, () => this.#dir(parts.slice(0, -1), false));
    const found = parent && (await this.#read(path, () => entry(parent, parts.at(-1)!)));
    return found?.kind === 'file' ? found : undefined;
  }

  /** The directory at `parts` (created with its parents when `create`), or `undefined` when missing. */
  async #dir(parts: readonly string[], create: boolean): Promise<OpfsDirectoryHandle | undefined> {
    let dir = await this.#root;
    for (const [i, name] of parts.entries()) {
      try {
        dir = await dir.getDirectoryHandle(name, { create });
      } catch (err) {
        if (isNamed(err, 'TypeMismatchError')) {
          throw offloadError(
            'WRITE_FAILED',
            `not a directory: ${joinParts(parts.slice(0, i + 1))}`,
            joinParts(parts),
            err,
          );
        }
        if (!create && isNamed(err, 'NotFoundError')) return undefined;
        throw err;
      }
    }
    return dir;
  }

  /** `run`, its failures (other than our own errors) as `WRITE_FAILED` on `path` with the browser's error as cause. */
  #write<T>(path: string, run: () => Promise<T>): Promise<T> {
    return run().catch((err: unknown) => {
      if (isOffloadError(err)) throw err;
      if (isNamed(err, 'TypeMismatchError')) throw offloadError('WRITE_FAILED', `is a directory: ${path}`, path, err);
      throw offloadError('WRITE_FAILED', `could not write ${path}: ${messageOf(err)}`, path, err);
    });
  }

  /** `run`, its failures as `READ_FAILED` on `path`. */
  #read<T>(path: string, run: () => Promise<T>): Promise<T> {
    return run().catch((err: unknown) => {
      if (isOffloadError(err)) throw err;
      throw offloadError('READ_FAILED', `could not read ${path}: ${messageOf(err)}`, path, err);
    });
  }
}

/** The entry `name` in `dir` (file or directory), or `undefined` when there is none. */
async function entry(
  dir: OpfsDirectoryHandle,
  name: string,
): Promise<OpfsDirectoryHandle | OpfsFileHandle | undefined> {
  for (const get of [() => dir.getFileHandle(name), () => dir.getDirectoryHandle(name)]) {
    try {
      return await get();
    } catch (err) {
      if (!isNamed(err, 'TypeMismatchError') && !isNamed(err, 'NotFoundError')) throw err;
    }
  }
  return undefined;
}

/** Replace the content of `file` with `data`, committed atomically on close. */
async function writeWhole(file: OpfsFileHandle, data: string | Uint8Array): Promise<void> {
  const writable = await file.createWritable();
  try {
    // A shared buffer is not something a file stream takes: its bytes are copied.
    await writable.write(
      typeof data === 'string' || data.buffer instanceof ArrayBuffer
        ? (data as string | Uint8Array<ArrayBuffer>)
        : data.slice(),
    );
  } catch (err) {
    await writable.abort().catch(() => undefined);
    throw err;
  }
  await writable.close();
}

/** Creates in flight in this context, by lock name: the queue where there are no Web Locks. */
const queues = new Map<string, Promise<unknown>>();

/**
 * `run` holding the Web Lock `name` (exclusive across the origin's tabs and workers);
 * where there are no Web Locks, after every earlier `run` of this context with that name.
 */
function withLock<T>(name: string, run: () => Promise<T>): Promise<T> {
  const locks = navigatorish()?.locks;
  if (typeof locks?.request === 'function') return locks.request(name, run);
  const done = (queues.get(name) ?? Promise.resolve()).then(run, run);
  const settled = done.catch(() => undefined);
  queues.set(name, settled);
  void settled.then(() => queues.get(name) === settled && queues.delete(name));
  return done;
}

function randomHex(): string {
  const bytes = new Uint8Array(6);
  const crypto = (globalThis as { crypto?: { getRandomValues(b: Uint8Array): Uint8Array } }).crypto;
  if (crypto) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const isNamed = (err: unknown, name: string): boolean =>
  typeof err === 'object' && err !== null && (err as { name?: unknown }).name === name;
const isOffloadError = (err: unknown): boolean => isNamed(err, 'OffloadError');
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
