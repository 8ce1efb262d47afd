import { offloadError } from './errors.js';

/**
 * The names of an absolute POSIX path under a writer's root (`/` is `[]`), for the
 * writers that have no file system of their own to resolve paths (`MemoryWriter`,
 * `OpfsWriter`). Core hands them resolved paths; anything that could name a place
 * outside the root or be read two ways — a relative path, a `.` or `..` part, a NUL — is
 * `INVALID_ARGUMENT` rather than guessed at. Repeated slashes count as one, as in POSIX.
 *
 * @example
 * ```ts
 * pathParts('/data/context//a.txt'); // ['data', 'context', 'a.txt']
 * ```
 */
export function pathParts(path: string): string[] {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw offloadError('INVALID_ARGUMENT', `not an absolute path: ${String(path)}`);
  }
  const parts = path.split('/').filter((part) => part !== '');
  for (const part of parts) {
    if (part === '.' || part === '..' || part.includes('\0')) {
      throw offloadError('INVALID_ARGUMENT', `path may not hold a '.', '..' or NUL part: ${path}`);
    }
  }
  return parts;
}

/** `parts` as the canonical absolute path (`/` for none). */
export function joinParts(parts: readonly string[]): string {
  return '/' + parts.join('/');
}
