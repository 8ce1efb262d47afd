//! TypeScript declarations of the `Workspace`'s options, inputs and results.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const WORKSPACE_TYPES: &'static str = include_str!("../../ts/workspace.d.ts");

#[wasm_bindgen]
extern "C" {
    /// `QueryOptions` as a Rust type, for an optional typed parameter.
    #[wasm_bindgen(typescript_type = "QueryOptions")]
    pub type QueryOptions;
    /// `OffloadInfoOptions` as a Rust type.
    #[wasm_bindgen(typescript_type = "OffloadInfoOptions")]
    pub type OffloadInfoOptions;
    /// A metadata filter as a Rust type.
    #[wasm_bindgen(typescript_type = "Record<string, unknown>")]
    pub type Filter;
}
