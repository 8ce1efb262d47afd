import * as wasm from '../wasm/tool_offload_wasm.js';
import type { ErrorCode, OffloadErrorConstructor } from '../wasm/tool_offload_wasm.js';

/**
 * The class of every error this package throws or rejects with: a real `Error`
 * subclass with a stable `code` (see {@link ErrorCode}).
 *
 * @example
 * ```ts
 * try { await offloadToolResultToFile(msg, opts) }
 * catch (e) { if (e instanceof OffloadError && e.code === 'INVALID_ID') { … } }
 * ```
 */
export const OffloadError: OffloadErrorConstructor = wasm.offloadErrorClass();
export type OffloadError = wasm.OffloadError;

/** An {@link OffloadError} with `code`, and `path` for the IO failures that name one. */
export function offloadError(code: ErrorCode, message: string, path?: string, cause?: unknown): OffloadError {
  const error = new OffloadError(message, code, cause === undefined ? undefined : { cause });
  if (path !== undefined) Object.assign(error, { path });
  return error;
}
