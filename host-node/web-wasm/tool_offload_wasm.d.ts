export * from './glue/tool_offload_wasm.js';

/** The WebAssembly could not be fetched or instantiated; `cause` says why. */
export declare class WasmLoadError extends Error {
  readonly name: 'WasmLoadError';
  readonly code: 'WASM_LOAD_FAILED';
}

// The glue's classes have `[Symbol.dispose]()` (explicit resource management); declared
// here as @types/node declares it, so a browser app type-checks with `lib` below ESNext.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
