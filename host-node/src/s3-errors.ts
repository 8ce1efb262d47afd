import type { ErrorCode } from '../wasm/tool_offload_wasm.js';
import type { OffloadError } from './errors.js';
import { offloadError } from './errors.js';

/** What the SDK's errors carry: a service error's name and HTTP status, a network error's code. */
interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  errors?: unknown[];
  $metadata?: { httpStatusCode?: number };
}

const status = (e: unknown): number | undefined => (e as SdkError)?.$metadata?.httpStatusCode;

/** What a status means when the response says no more (HEAD requests have no body). */
const STATUS: Record<number, string> = {
  400: 'bad request',
  403: 'access denied (wrong credentials, or not allowed by the bucket policy)',
  404: 'no such bucket or object',
  409: 'conflict',
  412: 'precondition failed',
  503: 'service unavailable (throttled)',
};

/**
 * No such object (`404`, `NoSuchKey`): a missing file, not a failure. A missing bucket
 * (`NoSuchBucket`) is a failure: a misnamed bucket must not read as an empty one (a
 * `HEAD`, which has no body, cannot tell the two apart).
 */
export function isNotFound(e: unknown): boolean {
  const name = (e as SdkError)?.name;
  return name !== 'NoSuchBucket' && (status(e) === 404 || name === 'NoSuchKey' || name === 'NotFound');
}

/** `416 Range Not Satisfiable`: a range that starts at or past the object's end. */
export function isPastEnd(e: unknown): boolean {
  return status(e) === 416;
}

/**
 * A conditional put that did not happen because the key is taken: `412 Precondition
 * Failed`, or `409 ConditionalRequestConflict` (another conditional write in flight).
 */
export function isTaken(e: unknown): boolean {
  const name = (e as SdkError)?.name;
  return status(e) === 412 || name === 'PreconditionFailed' || name === 'ConditionalRequestConflict';
}

/**
 * The typed error of a failed request: `ABORTED` when `signal` ended it (its reason as
 * `cause`), else `code` naming the path, the request, the service's error name and
 * HTTP status and its message, the SDK's error as `cause`.
 */
export function requestError(
  code: ErrorCode,
  path: string,
  request: string,
  e: unknown,
  signal: AbortSignal | undefined,
): OffloadError {
  if (signal?.aborted) return offloadError('ABORTED', `${request}: aborted`, path, signal.reason ?? e);
  const err = (e ?? {}) as SdkError;
  const http = status(e);
  // A response without a body (a HEAD's) has no error name: the SDK says `Unknown`.
  const named = err.name && err.name !== 'Error' && err.name !== 'Unknown';
  const name = named ? err.name : err.code;
  let message = typeof err.message === 'string' ? err.message : String(e);
  if (message === 'UnknownError' && http !== undefined) message = STATUS[http] ?? `the server answered ${http}`;
  // Node reports a refused dual-stack connection as an AggregateError with no message.
  if (message === '' && Array.isArray(err.errors)) message = err.errors.map((x) => (x as Error)?.message).join('; ');
  const label = [name, http === undefined ? undefined : `HTTP ${http}`].filter(Boolean).join(', ');
  return offloadError(code, `${request} failed${label ? ` (${label})` : ''}: ${message || 'no message'}`, path, e);
}
