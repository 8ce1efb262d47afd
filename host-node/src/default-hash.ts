/** The SHA-256 a Workspace left without one uses: set by the Node entry, none in browsers. */
let hash: ((utf8: Uint8Array) => string) | undefined;

/**
 * Make `sha256` the hasher of every Workspace whose options leave it out. The Node entry
 * sets `node:crypto`'s (a content is hashed ~35× faster than by SHA-256 compiled to
 * wasm); browsers have no synchronous one, and core hashes there.
 */
export function setDefaultSha256(sha256: (utf8: Uint8Array) => string): void {
  hash = sha256;
}

/** The default hasher, or `undefined` where there is none (browsers, workers). */
export function defaultSha256(): ((utf8: Uint8Array) => string) | undefined {
  return hash;
}
