import type { FileReader, FileWriter } from '../wasm/tool_offload_wasm.js';

/** What a writer option left out becomes: set by the Node entry, none in browsers. */
let make: (() => FileWriter & FileReader) | undefined;

/**
 * Make `factory` the writer every option left out defaults to. The Node entry sets a
 * `NodeFileWriter`; the browser entry sets none, so there a missing writer is core's
 * `INVALID_ARGUMENT` rather than an import of `node:fs`.
 */
export function setDefaultWriter(factory: () => FileWriter & FileReader): void {
  make = factory;
}

/** A new default writer, or `undefined` where there is none (browsers, workers). */
export function defaultWriter(): FileWriter & FileReader {
  // Handed to core as is: `undefined` there is the error saying a writer is needed.
  return make?.() as FileWriter & FileReader;
}
