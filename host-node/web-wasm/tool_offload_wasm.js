// The browser build's view of the wasm module: wasm-bindgen's `--target web` glue
// (./glue/, generated from the same .wasm as the Node build), instantiated before any
// importer runs. The glue finds the .wasm with `new URL('tool_offload_wasm_bg.wasm',
// import.meta.url)`, which browsers resolve beside it and Vite and webpack 5 bundle as an
// asset; with esbuild the .wasm is copied next to the bundle (docs/browser.md).
import init from './glue/tool_offload_wasm.js';

export * from './glue/tool_offload_wasm.js';

/** The WebAssembly could not be fetched or instantiated; `cause` says why. */
export class WasmLoadError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'WasmLoadError';
    this.code = 'WASM_LOAD_FAILED';
  }
}

try {
  await init();
} catch (cause) {
  throw new WasmLoadError(
    `tool-offload could not load its WebAssembly (tool_offload_wasm_bg.wasm, expected beside ` +
      `${import.meta.url}): ${cause instanceof Error ? cause.message : String(cause)}. Serve the ` +
      'file there (a bundler without wasm asset support needs it copied beside the bundle; see docs/browser.md).',
    { cause },
  );
}
