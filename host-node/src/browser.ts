/**
 * tool-offload for browsers and workers (the package's `browser` and `worker` export
 * conditions): everything the Node entry exports except `NodeFileWriter` and
 * `offloadToolResultToFile`, with nothing reaching for `node:*`. Writers are given
 * explicitly: a {@link MemoryWriter}, an {@link OpfsWriter} (artifacts that survive a
 * reload), or your own. Importing this module loads the WebAssembly first (see
 * docs/browser.md for where the `.wasm` comes from).
 *
 * @example
 * ```ts
 * import { Materializer, OpfsWriter } from 'tool-offload';
 * const materializer = new Materializer({ userData: '/agent', conversationId: 'c1', writer: new OpfsWriter() });
 * ```
 */
export * from './api.js';
