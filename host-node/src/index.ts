/**
 * tool-offload: move oversized LLM tool results out of the conversation into files,
 * leaving a placeholder that names the file.
 *
 * All behaviour runs in the same Rust core as the native crate (compiled to
 * WebAssembly), so Node and Rust write byte-for-byte identical files.
 *
 * @example
 * ```ts
 * import { offloadToolResultToFile } from 'tool-offload';
 * const { message, freedChars, file } = await offloadToolResultToFile(toolResultMessage, {
 *   sessionId: 'session-1',
 *   outputDir: 'artifacts',
 * });
 * ```
 */
export * from './api.js';
import { offloadToolResult } from './api.js';
import type { OffloadResult, Redact } from '../wasm/tool_offload_wasm.js';
import { createHash } from 'node:crypto';
import { setDefaultSha256 } from './default-hash.js';
import { setDefaultWriter } from './default-writer.js';
import { NodeFileWriter } from './node-file-writer.js';

export { NodeFileWriter } from './node-file-writer.js';
export type { NodeFileWriterOptions } from './node-file-writer.js';

// In Node a writer left out is a NodeFileWriter (relative paths against process.cwd()).
setDefaultWriter(() => new NodeFileWriter());
// A Workspace hashes what it stores with node:crypto, ~35× faster than SHA-256 compiled
// to wasm, straight from the UTF-8 bytes core already holds.
setDefaultSha256((utf8) => createHash('sha256').update(utf8).digest('hex'));

/** Options of {@link offloadToolResultToFile}. */
export interface OffloadToFileOptions {
  sessionId: string;
  outputDir: string;
  /** Replace well-known secrets (and what your patterns match) by `[REDACTED:<kind>]` in the file written (default false; see `Redact`). */
  redact?: Redact;
}

/**
 * {@link offloadToolResult} with a {@link NodeFileWriter}; relative `outputDir`s resolve
 * against `process.cwd()`.
 *
 * @example
 * ```ts
 * const { file, freedChars } = await offloadToolResultToFile(message, { sessionId: 's1', outputDir: 'out' });
 * ```
 */
export function offloadToolResultToFile<M extends object>(
  message: M,
  options: OffloadToFileOptions,
): Promise<OffloadResult<M>> {
  // Validation of both fields (including a missing options object) happens in core.
  const redact = options?.redact;
  return offloadToolResult(message, options?.sessionId, options?.outputDir, new NodeFileWriter(), { redact });
}
