//! # tool-offload-core
//!
//! All of tool-offload's behaviour, and **no IO**: this crate never touches the file
//! system, the network, processes, an async runtime or JavaScript. It uses none of the
//! standard library's `fs`, `net` or `process` modules and depends on neither tokio nor
//! wasm-bindgen nor js-sys; CI (`scripts/check-core-deps.sh`) fails if
//! `cargo tree -p tool-offload-core` or the source ever shows one of them.
//!
//! IO reaches the core only through the injected traits of the IO contract: [`FileWriter`]
//! (`mkdir`, `write_file`, the exclusive `create_file`), [`FileReader`] (`read_file`,
//! `list_dir`, `size`, `read_range`) and, for retention only, [`FileLifecycle`] (`stat`,
//! `remove`). Each host implements them: the npm package with `node:fs/promises` (or any
//! JS object), the `tool-offload` crate with tokio's `fs`, tests in memory
//! ([`MemoryWriter`]). `docs/io-contract.md` states what each method must do.
//!
//! ## How a host drives the core
//!
//! The core's futures wait only on the IO calls they are handed, so they run on tokio, on
//! JavaScript promises through wasm, or under `block_on`. There are four kinds of API:
//!
//! 1. **Pure planners**, no IO: [`DirectPlan::new`], [`BatchPlan::new`] (and
//!    [`Batch::plan`] one message at a time) read messages through a [`view::JsonView`]
//!    (so a host's own values, JS objects included, are read where they live), validate
//!    every input and choose every file name. Every input error (`INVALID_ID`,
//!    `INVALID_MESSAGE`, `NO_TOOL_RESULT`, …) comes from here, before anything is written.
//! 2. **`write(&io)`**: [`DirectPlan::write`], [`BatchPlan::write`] create the planned
//!    files (batch: several at once; names never depend on which finishes first). A name that turns out to be taken moves the result to the next
//!    free `-N` name ([`BatchPlan::write`] then returns `true`), so call `edits` *after*
//!    writing.
//! 3. **Edits the host applies**: `edits()` returns `(`[`Slot`]`, placeholder)` pairs;
//!    the host copies each changed message with those slots replaced, in its own value
//!    representation ([`apply_edits`] for `serde_json`; the wasm binding copies JS
//!    objects directly). The input is never mutated. [`offload_tool_result`] and
//!    [`offload_tool_results`] do plan → write → edit in one call for `serde_json` values.
//! 4. **Calls that interleave IO**: [`materialize::Materializer`] (`materialize`, `read`,
//!    `tail`, `grep`, `materialize_messages`, export/import), [`tools::ToolRegistry`]
//!    with its [`tools::ResultPolicy`], and [`gc::gc`] take the IO with each call and
//!    decide as they go (a free name, the next page, what to remove). They hold no IO and
//!    no lock between calls; one `Materializer` serves concurrent calls.
//!
//! **When a write fails** the call returns `WRITE_FAILED` (with the path) and nothing is
//! reported as done: no edits, no result. Each file is atomic on its own — a writer's
//! `create_file`/`write_file` either leaves the whole file or none — but a batch is not a
//! transaction. Batch offload writes up to 16 files side by side; after a failure it starts
//! no new write, waits for those already running, and reports the first failure in walk
//! order: every file before the failing one is there, whole, and some after it may be
//! (those that had started). A re-run is safe: direct
//! offload rewrites its own `<session>/<id>.md`, batch offload keeps a planned name that
//! already holds the same text instead of writing a duplicate. The same
//! holds when the caller cancels (JS `AbortSignal`, Rust: dropping the future).
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

pub mod audit;
pub mod base64;
mod batch;
mod concurrent;
mod create;
mod direct;
mod error;
pub(crate) mod forms;
pub mod gc;
pub mod grep;
pub mod identifiers;
mod io;
pub mod json;
pub(crate) mod limits;
pub mod materialize;
mod memory;
mod message;
pub mod object_key;
pub mod option_keys;
pub mod options;
pub mod path;
mod pattern_limit;
mod plan;
pub(crate) mod read;
pub mod redact;
mod redact_knowledge;
mod redact_tree;
pub mod replay;
mod search;
mod sha256;
mod sort;
pub(crate) mod summary;
pub mod temp;
#[cfg(test)]
mod test_rng;
mod text;
mod tokens;
pub mod tools;
pub mod transcript;
pub use json::view;
pub mod workspace;

pub use crate::forms::placeholder::{
    batch_placeholder, direct_placeholder, is_placeholder, MAX_PLACEHOLDER_CHARS,
};
pub use crate::forms::stored_form::{
    stored_form, stored_form_of_ends, StoredForm, HEAD_CHARS, TAIL_CHARS,
};
pub use batch::{
    offload_tool_results, offload_tool_results_through, Batch, BatchEdits, BatchOffload,
    BatchOptions, BatchPlan, PlannedMessage, DEFAULT_THRESHOLD,
};
pub use create::MAX_NAME_ATTEMPTS;
pub use direct::{
    offload_tool_result, offload_tool_result_through, offload_tool_result_with, DirectOffload,
    DirectOptions, DirectPlan,
};
pub use error::{ErrorCode, OffloadError};
pub use io::{
    clamp_range, CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError,
};
pub use memory::MemoryWriter;
pub use message::{apply_edits, joined_texts, Form, ResultShape, Slot, RESULT_SHAPES};
pub use plan::{redact_offloads, PlannedOffload};
pub use redact_tree::{redact_tree, redact_tree_indexed, redact_tree_with, IndexOf, RedactReport};
pub use serde_json::{Map, Value};
pub use text::{count_in_range, js_trim, safe_count, utf16_len, MAX_COUNT};
pub use tokens::{estimate_tokens, TokenCounter};
