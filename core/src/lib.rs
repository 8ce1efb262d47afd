//! # tool-offload-core
//!
//! All of tool-offload's behaviour, and **no IO**: this crate never touches the file
//! system, the network, processes, an async runtime or JavaScript. It uses none of the
//! standard library's `fs`, `net` or `process` modules and depends on neither tokio nor
//! wasm-bindgen nor js-sys; CI (`scripts/check-core-deps.sh`) fails if
//! `cargo tree -p tool-offload-core` or the source ever shows one of them.
//!
//! IO reaches the core only through the injected [`FileWriter`] trait (a reader
//! counterpart will join it for reading artifacts back). Each host implements it:
//! the npm package with `node:fs/promises`, the `tool-offload` crate with tokio's `fs`,
//! tests and the browser playground in memory ([`MemoryWriter`]).
//!
//! Behaviour is defined in JavaScript terms so that every host writes identical bytes:
//! a "character" is a UTF-16 code unit ([`utf16_len`]) and a content-block array is
//! serialised exactly as `JSON.stringify` would ([`json::stringify`]).
//!
//! ```
//! use serde_json::json;
//! use tool_offload_core::{offload_tool_result, MemoryWriter};
//!
//! let message = json!({"role": "user", "content": [
//!     {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a very long log"}
//! ]});
//! let writer = MemoryWriter::new();
//! let done = futures_executor::block_on(
//!     offload_tool_result(&message, "session-1", "out", "/work", &writer),
//! ).unwrap();
//! assert_eq!(done.file, "/work/out/session-1/toolu_1.md");
//! assert_eq!(writer.read("/work/out/session-1/toolu_1.md").as_deref(), Some("a very long log"));
//! assert_eq!(
//!     done.message["content"][0]["content"],
//!     "[Tool result offloaded to file: /work/out/session-1/toolu_1.md]"
//! );
//! ```

mod batch;
mod create;
mod direct;
mod error;
pub mod gc;
mod io;
pub mod json;
pub mod materialize;
mod memory;
mod message;
pub mod path;
mod placeholder;
mod plan;
pub mod temp;
mod text;
pub mod tools;
pub mod transcript;
pub mod view;

pub use batch::{
    offload_tool_results, offload_tool_results_through, Batch, BatchEdits, BatchOffload,
    BatchOptions, BatchPlan, PlannedMessage, DEFAULT_THRESHOLD,
};
pub use create::MAX_NAME_ATTEMPTS;
pub use direct::{offload_tool_result, offload_tool_result_through, DirectOffload, DirectPlan};
pub use error::{ErrorCode, OffloadError};
pub use gc::{FileLifecycle, FileStat};
pub use io::{clamp_range, CreateOutcome, FileReader, FileWriter, IoError};
pub use memory::MemoryWriter;
pub use message::{apply_edits, Slot};
pub use placeholder::{
    batch_placeholder, direct_placeholder, is_placeholder, MAX_PLACEHOLDER_CHARS,
};
pub use plan::PlannedOffload;
pub use serde_json::{Map, Value};
pub use text::{js_trim, utf16_len};
