//! # tool-offload-wasm
//!
//! Thin `#[wasm_bindgen]` shims over [`tool_offload_core`]: JavaScript values in,
//! JavaScript values out, and no behaviour of their own. The npm package `tool-offload`
//! is built from this crate.
//!
//! Values cross the boundary as JSON text produced by the engine's own `JSON.stringify`,
//! so JavaScript semantics (`toJSON`, dropped `undefined` properties, key order) are the
//! engine's, and core sees exactly what `JSON.stringify` would write.

mod convert;
mod direct;
mod error;
mod types;
mod writer;

pub use direct::offload_tool_result;
pub use error::offload_error_class;
