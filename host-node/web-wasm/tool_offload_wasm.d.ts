export * from './glue/tool_offload_wasm.js';

/** The WebAssembly could not be fetched or instantiated; `cause` says why. */
export declare class WasmLoadError extends Error {
  readonly name: 'WasmLoadError';
  readonly code: 'WASM_LOAD_FAILED';
}
