import { offloadError } from './errors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The ASCII bytes `object_store`'s `PathPart` percent-encodes (besides every byte over
 * 0x7F): control characters, the `/` delimiter, and the characters S3 and GCS advise
 * against in keys. Kept byte-identical to the Rust host's keys (tests/vectors/object-keys.json).
 */
const ENCODED = new Set([...'/\\{^}%`]">[~<#|*?'].map((c) => c.charCodeAt(0)));

function encodedByte(byte: number): boolean {
  return byte < 0x20 || byte >= 0x7f || ENCODED.has(byte);
}

/** One path segment as an object key segment: `a 50%` is `a 50%25`, `é` is `%C3%A9`. */
export function encodeSegment(segment: string): string {
  let out = '';
  for (const byte of encoder.encode(segment)) {
    out += encodedByte(byte) ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return out;
}

/** The name a key segment stands for: the inverse of {@link encodeSegment} (invalid UTF-8 reads as U+FFFD). */
export function decodeSegment(part: string): string {
  const bytes: number[] = [];
  let i = 0;
  while (i < part.length) {
    const hex = part.slice(i + 1, i + 3);
    if (part[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else {
      const char = String.fromCodePoint(part.codePointAt(i)!);
      bytes.push(...encoder.encode(char));
      i += char.length;
    }
  }
  return decoder.decode(new Uint8Array(bytes));
}

/**
 * A key prefix as given (`team/agents`, slashes around it trimmed): kept verbatim, as
 * `object_store`'s `Path::parse` keeps it, so it must be a valid key path: no empty,
 * `.` or `..` segment, no control character. `''` is the whole bucket.
 */
export function parsePrefix(prefix: string): string {
  if (typeof prefix !== 'string')
    throw offloadError('INVALID_ARGUMENT', `prefix must be a string, got ${typeof prefix}`);
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  for (const segment of trimmed.split('/')) {
    if (segment === '' || segment === '.' || segment === '..' || /[\u0000-\u001f\u007f]/.test(segment)) {
      throw offloadError('INVALID_ARGUMENT', `invalid object store location ${prefix}: bad segment "${segment}"`);
    }
  }
  return trimmed;
}

/**
 * The object key of a virtual absolute path under `prefix` (the Rust host's `key_for`):
 * empty segments are skipped, a `.` or `..` segment is refused before any request (no
 * key outside the prefix can be formed), a relative path is refused, `''` is the root.
 *
 * @example
 * ```ts
 * objectKey('team/agents', '/a//b.txt'); // 'team/agents/a/b.txt'
 * ```
 */
export function objectKey(prefix: string, path: string): string {
  let rest: string;
  if (typeof path === 'string' && path.startsWith('/')) rest = path.slice(1);
  else if (path === '') rest = '';
  else throw offloadError('INVALID_ARGUMENT', `not a valid object store path: ${String(path)}`);
  const parts = prefix === '' ? [] : [prefix];
  for (const segment of rest.split('/')) {
    if (segment === '') continue;
    if (segment === '.' || segment === '..') {
      throw offloadError('INVALID_ARGUMENT', `path leaves the object store prefix: ${path}`, path);
    }
    parts.push(encodeSegment(segment));
  }
  return parts.join('/');
}
