//! TypeScript declarations for the values the shims take and return. They are written in
//! `wasm/ts/*.d.ts` (formatted by prettier) and emitted into the generated `.d.ts`, where
//! the npm package's strict `tsc` checks them, so the package's types come from this crate
//! and cannot drift from it.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODE: &'static str = tool_offload_core::ErrorCode::TYPESCRIPT;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("../ts/shared.d.ts");

#[wasm_bindgen]
extern "C" {
    /// `OffloadOptions` as a Rust type, so optional parameters are typed `options?: OffloadOptions`.
    #[wasm_bindgen(typescript_type = "OffloadOptions")]
    pub type OffloadOptions;

    /// `ReadOptions` as a Rust type, so the parameter is typed `options?: ReadOptions`.
    #[wasm_bindgen(typescript_type = "ReadOptions")]
    pub type ReadOptions;

    /// `GrepOptions` as a Rust type, so the parameter is typed `options?: GrepOptions`.
    #[wasm_bindgen(typescript_type = "GrepOptions")]
    pub type GrepOptions;

    /// `OperationOptions` as a Rust type, so the parameter is typed `options?: OperationOptions`.
    #[wasm_bindgen(typescript_type = "OperationOptions")]
    pub type OperationOptions;

    /// `MaterializeMessagesOptions` as a Rust type, so the parameter is typed
    /// `options?: MaterializeMessagesOptions`.
    #[wasm_bindgen(typescript_type = "MaterializeMessagesOptions")]
    pub type MaterializeMessagesOptions;

    /// `DefinitionsOptions` as a Rust type, so the parameter is typed `options?: DefinitionsOptions`.
    #[wasm_bindgen(typescript_type = "DefinitionsOptions")]
    pub type DefinitionsOptions;

    /// An optional count typed `number` (validated in Rust, not coerced by the glue).
    #[wasm_bindgen(typescript_type = "number")]
    pub type Count;
}
