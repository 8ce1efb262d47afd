/** The build log the proxy tests' upstream returns. */

/** The planted line the client must find with context_grep. */
export const PLANTED = 'FATAL: disk quota exceeded on /var/lib/build (errno 122)';

/** A ~200 KB build log with {@link PLANTED} at line 1234. */
export function buildLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 2500; i++) {
    lines.push(i === 1234 ? PLANTED : `step ${i}: compiled module_${i} in ${i % 97} ms, all checks passed`);
  }
  return lines.join('\n');
}
