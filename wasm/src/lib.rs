//! # tool-offload-wasm
//!
//! Thin `#[wasm_bindgen]` shims over [`tool_offload_core`]: JavaScript values in,
//! JavaScript values out, and no behaviour of their own. The npm package `tool-offload`
//! is built from this crate.
//!
//! Core reads messages where they live, through `view::JsView`: when offloading, a
//! content string never crosses into wasm (its length is JavaScript's `.length`; the
//! writer gets the original string). `Materializer.materialize` copies the output into
//! wasm (measuring and summarising happen there); `materializeMessages` copies only
//! results that may be over the limits. A lone UTF-16 surrogate in content is no error:
//! such a copy holds U+FFFD for it, the bytes Node's `fs` writes for the original. In an
//! id it is `INVALID_ID`, checked before any id becomes a Rust String.
//! Returned copies of plain data are made directly in JavaScript, as
//! `JSON.parse(JSON.stringify(…))` would make them (dropped `undefined` properties, key
//! order, `-0` as `0`); a message holding anything else (`toJSON`, a class instance, a
//! cycle, a BigInt) is copied by the engine's own `JSON.stringify`/`JSON.parse`, so
//! those behave, and fail, as the engine's.

mod abort;
mod args;
mod batch;
mod convert;
mod copy;
mod count_tokens;
mod direct;
mod error;
mod gc;
mod given;
mod host;
mod js_io;
mod keys;
mod materializer;
mod object_key;
mod output_text;
mod promise;
mod read_write;
mod reader;
mod registry;
mod settle;
mod shapes;
mod temp;
mod todo;
mod types;
mod view;
mod workspace;
mod writer;

pub use batch::offload_tool_results;
pub use direct::offload_tool_result;
pub use error::{error_codes, offload_error_class};
pub use gc::gc_directory;
pub use materializer::{
    estimate_tokens_js, format_legacy_tool_record, import_conversation, mcp_resource_template,
    mime_type_of, Materializer,
};
pub use object_key::{decode_key_segment, object_key, parse_key_prefix};
pub use registry::ToolRegistry;
pub use temp::{sweep_stale_temp_files, temp_file_name};
pub use todo::register_todo_tools;
pub use workspace::Workspace;

// talc instead of std's dlmalloc: ~7 KB less wasm code, no slower on the benchmarks.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
