//! # tool-offload
//!
//! Agent loops drown in huge tool outputs: a 200 KB log eats the context window and the
//! budget. `tool-offload` moves oversized tool-result content out of the conversation
//! into files, leaving a placeholder that names the file.
//!
//! This crate is the native host: it re-exports the IO-free [`tool_offload_core`] and
//! adds [`TokioFileWriter`] and file-system conveniences. It writes byte-for-byte the
//! same files as the npm package `tool-offload` for the same input.
//!
//! ```no_run
//! use serde_json::json;
//! use tool_offload::offload_tool_result_to_file;
//!
//! # async fn demo() -> Result<(), tool_offload::OffloadError> {
//! let message = json!({"role": "user", "content": [
//!     {"type": "tool_result", "tool_use_id": "toolu_01", "content": "…200 KB of build log…"}
//! ]});
//! let done = offload_tool_result_to_file(&message, "session-42", "artifacts").await?;
//! println!("wrote {} and freed {} characters", done.file, done.freed_chars);
//! # Ok(()) }
//! ```
//!
//! ## Cancelling
//!
//! Every operation is a future: drop it to cancel (directly, or through
//! `tokio::time::timeout`, `select!` or aborting its task). Nothing is reported as done,
//! no lock is left held, and the [`Materializer`] stays usable. A write already handed
//! to tokio's blocking pool finishes on its own, so a cancelled call may still leave a
//! complete artifact behind, never a partial one: files appear at their final path only
//! whole (rename or link of a finished temporary file). A writer that never answers
//! cannot hang a caller who bounds the wait:
//!
//! ```no_run
//! # use tool_offload::{Materializer, ToolOutputInput};
//! # async fn demo(m: &Materializer, out: &ToolOutputInput<'_>) {
//! use std::time::Duration;
//! match tokio::time::timeout(Duration::from_secs(5), m.materialize(out)).await {
//!     Ok(done) => { /* materialized or inline, or an OffloadError */ }
//!     Err(_elapsed) => { /* gave up: keep the output inline this turn */ }
//! }
//! # }
//! ```

mod budget;
mod count;
mod lifecycle;
mod materializer;
#[cfg(feature = "object-store")]
mod object_store_io;
mod offload;
mod paths;
mod read_back;
mod read_tools;
mod reads;
mod registry;
mod remind;
mod stale;
#[cfg(feature = "tokenizer")]
mod tokens;
mod workspace;
mod writer;

pub use budget::Budget;
pub use count::{CountTokens, TryCountTokens};
pub use lifecycle::{gc_dir, gc_dir_with, now_ms};
pub use materializer::{
    import_conversation, import_conversation_with, GrepOptions, MaterializedMessages, Materializer,
    ToolOutputInput,
};
#[cfg(feature = "object-store")]
pub use object_store_io::{ObjectStoreIo, ObjectStoreIoError};
pub use offload::{
    offload_tool_result, offload_tool_result_redacted, offload_tool_result_redacted_with,
    offload_tool_result_to_file, offload_tool_results, offload_tool_results_to_files,
};
pub use paths::working_dir_for;
pub use registry::{register_todo_tools, Handler, HandlerResult, ToolRegistry};
pub use remind::MaterializeMessagesOptions;
#[cfg(feature = "tokenizer")]
pub use tokens::{token_counter, Vocabulary};
#[cfg(feature = "postgres")]
pub use tokio_postgres;
pub use tool_offload_core as core;
pub use tool_offload_core::gc::{GcOptions, GcReport};
pub use tool_offload_core::materialize::{
    format_legacy_tool_record, BudgetOptions, Cleared, ContextRef, ContextWindow,
    ImportedConversation, LegacyToolRecord, MaterializeStats, MaterializeWhen, Materialized,
    MaterializerOptions, RefHint, ToolLimits,
};
pub use tool_offload_core::tools;
pub use tool_offload_core::tools::ResultOffload;
pub use tool_offload_core::workspace::{IndexFuture, RecordIndex, WorkspaceOptions};
pub use tool_offload_core::{
    json, utf16_len, Batch, BatchOffload, BatchOptions, CreateOutcome, DirectOffload, ErrorCode,
    FileReader, FileWriter, IoError, MemoryWriter, OffloadError, Value, DEFAULT_THRESHOLD,
};
pub use tool_offload_core::{FileLifecycle, FileStat};
#[cfg(feature = "sqlite")]
pub use workspace::INDEX_FILE;
pub use workspace::{Clock, OffloadedMessages, ToolResultCall, Workspace};
#[cfg(feature = "postgres")]
pub use workspace::{PostgresIndex, POSTGRES_CONNECT_TIMEOUT, POSTGRES_COUNT_TTL};
pub use writer::TokioFileWriter;
