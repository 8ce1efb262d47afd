/** The build log the proxy tests' upstream returns. */

/** The planted line the client must find with context_grep. */
export const PLANTED = 'FATAL: disk quota exceeded on /var/lib/build (errno 122)';

/** A ~200 KB build log (3,400 lines) with {@link PLANTED} at line 1234. */
export function buildLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 3400; i++) {
    lines.push(i === 1234 ? PLANTED : `step ${i}: compiled module_${i} in ${i % 97} ms, all checks passed`);
  }
  return lines.join('\n');
}

/** A 1×1 PNG, for an image block beside the log. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
