import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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
 * The {@link FileWriter} for Node, over `node:fs/promises`. Writes are atomic: data goes
 * to a temporary file in the same directory, renamed over the final path, so a crash
 * never leaves a truncated file there.
 *
 * @example
 * ```ts
 * import { NodeFileWriter, offloadToolResult } from 'tool-offload';
 * const result = await offloadToolResult(message, 'session-1', 'artifacts', new NodeFileWriter());
 * ```
 */
export class NodeFileWriter implements FileWriter, FileReader {
  readonly #durable: boolean;

  constructor(options: NodeFileWriterOptions = {}) {
    this.#durable = options.durable === true;
  }

  /** Create `dir` and its parents; succeeds if it exists. */
  async mkdir(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
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

  /** The names in `dir`, sorted; `[]` when it does not exist. */
  async listDir(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /** Write `data` as UTF-8 to `path` atomically, replacing any existing file. */
  async writeFile(path: string, data: string): Promise<void> {
    // The temporary name does not embed the final one, which may already be 255 bytes.
    const temp = join(dirname(path), `.tool-offload-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    try {
      if (this.#durable) {
        const handle = await open(temp, 'w');
        try {
          await handle.writeFile(data, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await writeFile(temp, data, 'utf8');
      }
      await rename(temp, path);
      if (this.#durable) await syncDirectory(dirname(path));
    } catch (err) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  }
}

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
