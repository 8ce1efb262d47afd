import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { EncodeScratch } from './encode-scratch.js';
import type { Encoded } from './encode-scratch.js';
import { LingeringFile } from './lingering-file.js';
import { sweepStaleTempFiles, tempFileName } from '../wasm/tool_offload_wasm.js';
import type { FileReader, FileWriter } from '../wasm/tool_offload_wasm.js';

/** Options of {@link NodeFileWriter}. */
export interface NodeFileWriterOptions {
  /**
   * Also `fsync` each file before renaming it into place, and its directory after, so
   * the content survives a power loss, not only a crash. Slower. Default `false`.
   */
  durable?: boolean;
}

/**
 * Temporary names: random per process, then counted (a `randomBytes` per file was 1 % of
 * a `materialize()`). Opened exclusively, so a name that is taken fails, never follows.
 */
const TEMP_UNIQUE = randomBytes(6).toString('hex');
let tempCount = 0;

/** Directories already swept for stale temporary files by this process. */
const swept = new Set<string>();

/**
 * The {@link FileWriter} for Node, over `node:fs/promises`. Writes are atomic: data goes
 * to a temporary file in the same directory, renamed over the final path (or, for
 * `createFile`, hard-linked to it, which never replaces an existing file), so a crash
 * never leaves a truncated file there. The first time it creates a directory, the
 * process removes the `.tool-offload-*.tmp` files that writers killed mid-write left
 * there more than 10 minutes ago (core's policy, shared with the tokio writer).
 *
 * @example
 * ```ts
 * import { NodeFileWriter, offloadToolResult } from 'tool-offload';
 * const result = await offloadToolResult(message, 'session-1', 'artifacts', new NodeFileWriter());
 * ```
 */
export class NodeFileWriter implements FileWriter, FileReader {
  readonly #durable: boolean;
  readonly #ranges = new LingeringFile();

  constructor(options: NodeFileWriterOptions = {}) {
    this.#durable = options.durable === true;
  }

  /** Create `dir` and its parents; succeeds if it exists. */
  async mkdir(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    if (!swept.has(dir)) {
      swept.add(dir);
      // Core's sweep (ours, untouched for 10 minutes), through this writer.
      await sweepStaleTempFiles(dir, Date.now(), this).catch(() => 0);
    }
  }

  /**
   * Size, modification time and kind of `path` itself (a symbolic link is reported as one,
   * not followed: retention never follows a link), or `undefined` when nothing is there.
   */
  async stat(path: string): Promise<{ size: number; modifiedMs: number; isDir: boolean; isLink: boolean } | undefined> {
    try {
      const s = await lstat(path);
      return {
        size: s.isDirectory() ? 0 : s.size,
        modifiedMs: Math.trunc(s.mtimeMs),
        isDir: s.isDirectory(),
        isLink: s.isSymbolicLink(),
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Remove the file at `path`; nothing there is not an error (retention). */
  async remove(path: string): Promise<void> {
    try {
      await unlink(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    } finally {
      this.#ranges.invalidate(path);
    }
  }

  /** The UTF-8 content of the file at `path`, or `undefined` when there is none. */
  async readFile(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** The size in bytes of the file at `path`, or `undefined` when there is none. */
  async size(path: string): Promise<number | undefined> {
    try {
      return (await stat(path)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * Bytes `start..end` of the file at `path` (fewer at its end): one positioned read. The
   * file stays open for 50 ms after a read, so a scan's next read starts at once (see
   * `LingeringFile`).
   */
  readRange(path: string, start: number, end: number): Promise<Uint8Array> {
    return this.#ranges.readRange(path, start, end);
  }

  /** The names in `dir`, sorted; `[]` when it does not exist. */
  async listDir(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /** Write `data` (text as UTF-8, bytes as they are) to `path` atomically, replacing any existing file. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const { temp, handle } = await this.#writeTemp(path, data);
    try {
      // Closed while it is renamed: one wait less (the data is written either way).
      await Promise.all([handle.close(), rename(temp, path)]);
      this.#ranges.invalidate(path); // a read from now on sees the new content
      if (this.#durable) await syncDirectory(dirname(path));
    } catch (err) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Write `data` as UTF-8 to `path` only if nothing is there: `true` when it created the
   * file, `false` when something already was (then nothing is written). Atomic and
   * exclusive across calls and processes: the data is linked into place complete.
   */
  async createFile(path: string, data: string | Uint8Array): Promise<boolean> {
    const { temp, handle } = await this.#writeTemp(path, data);
    try {
      await link(temp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (!LINKS_UNSUPPORTED.has(code ?? '')) throw err;
      // No hard links here (FAT, some network mounts): an exclusive open of the final
      // name, still never replacing a file, though a crash mid-write could leave it short.
      try {
        await writeFile(path, data, { flag: 'wx' });
      } catch (inner) {
        if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw inner;
      }
    } finally {
      // Closed while it is unlinked: one wait less. unlink, not rm: one system call
      // (rm stats first), on every create.
      await Promise.all([handle.close().catch(() => undefined), unlink(temp).catch(() => undefined)]);
    }
    this.#ranges.invalidate(path);
    if (this.#durable) await syncDirectory(dirname(path));
    return true;
  }

  /**
   * `data` in a new temporary file beside `path` (fsynced when durable): its path, and
   * its handle, still open so that the caller closes it alongside its last step.
   */
  async #writeTemp(path: string, data: string | Uint8Array): Promise<{ temp: string; handle: FileHandle }> {
    // The temporary name does not embed the final one, which may already be 255 bytes.
    const temp = join(dirname(path), tempFileName(process.pid, `${TEMP_UNIQUE}-${(++tempCount).toString(36)}`));
    // Encoded while the thread pool opens the file (into a reused buffer when large).
    const opening = open(temp, 'wx');
    opening.catch(() => undefined); // awaited below, also when encoding throws first
    let handle: FileHandle | undefined;
    let encoded: Encoded | undefined;
    try {
      if (typeof data === 'string') encoded = scratch.encode(data);
      handle = await opening;
      await writeAll(handle, encoded?.bytes ?? (data as Uint8Array));
      if (this.#durable) await handle.sync();
      return { temp, handle };
    } catch (err) {
      handle ??= await opening.catch(() => undefined);
      await handle?.close().catch(() => undefined);
      await rm(temp, { force: true }).catch(() => undefined);
      throw err;
    } finally {
      encoded?.release();
    }
  }
}

/** The buffer large writes are encoded into, shared by every writer of the process. */
const scratch = new EncodeScratch();

/**
 * All of `bytes` into the file `handle` opened empty, in positioned writes of at most
 * {@link WRITE_CHUNK} bytes, as `fs.writeFile` makes them (single writes of several
 * megabytes were sometimes 25 ms slower here: 10 MB in 37 ms against 15), issued together so
 * the thread pool takes them without a round trip each (10 MB: 3.0 against 3.7–4.1 ms).
 * Every write has settled before this settles, so the handle is never closed under one.
 */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  const chunks: Promise<void>[] = [];
  for (let at = 0; at < bytes.length; at += WRITE_CHUNK) {
    chunks.push(writeRange(handle, bytes, at, Math.min(at + WRITE_CHUNK, bytes.length)));
  }
  const failed = (await Promise.allSettled(chunks)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/** Bytes `at..end` of `bytes` at the same offset of the file (a write may take only part). */
async function writeRange(handle: FileHandle, bytes: Uint8Array, at: number, end: number): Promise<void> {
  while (at < end) at += (await handle.write(bytes, at, end - at, at)).bytesWritten;
}

/** The largest single write: 512 KiB, Node's own `fs.writeFile` chunk. */
const WRITE_CHUNK = 1 << 19;

/** `link` failures that mean the file system has no hard links, not a bad path. */
const LINKS_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/** Flush a directory's entries (the rename) to disk; not possible on Windows, where it is skipped. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
