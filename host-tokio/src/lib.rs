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

use std::path::Path;

pub use budget::Budget;
pub use lifecycle::{gc_dir, gc_dir_with, now_ms};
pub use materializer::{
    import_conversation, import_conversation_with, GrepOptions, MaterializedMessages, Materializer,
    ToolOutputInput,
};
#[cfg(feature = "object-store")]
pub use object_store_io::{ObjectStoreIo, ObjectStoreIoError};
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
pub use workspace::{Clock, CountTokens, OffloadedMessages, ToolResultCall, Workspace};
#[cfg(feature = "postgres")]
pub use workspace::{PostgresIndex, POSTGRES_CONNECT_TIMEOUT, POSTGRES_COUNT_TTL};
pub use writer::TokioFileWriter;

/// Offload every tool result of `message` to `<output_dir>/<session_id>/<id>.md` through
/// `writer`; a relative `output_dir` resolves against the process's working directory.
/// See [`tool_offload_core::offload_tool_result`] for the rules and errors.
///
/// ```no_run
/// use serde_json::json;
/// use tool_offload::{offload_tool_result, TokioFileWriter};
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let message = json!({"role": "tool", "tool_call_id": "call_1", "content": "big output"});
/// let done = offload_tool_result(&message, "s1", "/var/tmp/out", &TokioFileWriter::new()).await?;
/// assert_eq!(done.file, "/var/tmp/out/s1/call_1.md");
/// # Ok(()) }
/// ```
pub async fn offload_tool_result<W: FileWriter + ?Sized>(
    message: &Value,
    session_id: &str,
    output_dir: impl AsRef<Path>,
    writer: &W,
) -> Result<DirectOffload, OffloadError> {
    direct(
        message,
        session_id,
        output_dir.as_ref(),
        writer,
        tool_offload_core::redact::Redaction::off(),
    )
    .await
}

/// [`offload_tool_result`] replacing well-known secrets by `[REDACTED:<kind>]` in the
/// files it writes (the message's placeholders are as without it).
///
/// ```no_run
/// # async fn demo(message: serde_json::Value) -> Result<(), tool_offload::OffloadError> {
/// use tool_offload::{offload_tool_result_redacted, TokioFileWriter};
/// let done = offload_tool_result_redacted(&message, "s1", "out", &TokioFileWriter::new()).await?;
/// # Ok(()) }
/// ```
pub async fn offload_tool_result_redacted<W: FileWriter + ?Sized>(
    message: &Value,
    session_id: &str,
    output_dir: impl AsRef<Path>,
    writer: &W,
) -> Result<DirectOffload, OffloadError> {
    let redaction = tool_offload_core::redact::Redaction::builtin();
    direct(message, session_id, output_dir.as_ref(), writer, redaction).await
}

/// [`offload_tool_result_redacted`] with `redaction`: the user's patterns and
/// replacement beside the built-in rules.
///
/// ```no_run
/// # async fn demo(message: serde_json::Value) -> Result<(), tool_offload::OffloadError> {
/// use tool_offload::core::redact::{RedactPattern, Redaction};
/// use tool_offload::{offload_tool_result_redacted_with, TokioFileWriter};
/// let redaction = Redaction::with_patterns(vec![RedactPattern::new(r"ACME-\d{8}")], None)?;
/// let done = offload_tool_result_redacted_with(&message, "s1", "out", &redaction, &TokioFileWriter::new()).await?;
/// # Ok(()) }
/// ```
pub async fn offload_tool_result_redacted_with<W: FileWriter + ?Sized>(
    message: &Value,
    session_id: &str,
    output_dir: impl AsRef<Path>,
    redaction: &tool_offload_core::redact::Redaction,
    writer: &W,
) -> Result<DirectOffload, OffloadError> {
    let redaction = redaction.clone();
    direct(message, session_id, output_dir.as_ref(), writer, redaction).await
}

/// Direct offload with `output_dir` resolved against the process's working directory.
async fn direct<W: FileWriter + ?Sized>(
    message: &Value,
    session_id: &str,
    output_dir: &Path,
    writer: &W,
    redact: tool_offload_core::redact::Redaction,
) -> Result<DirectOffload, OffloadError> {
    let output_dir = utf8(output_dir, "output directory")?;
    let cwd = working_dir_for(output_dir)?;
    let options = tool_offload_core::DirectOptions {
        redact,
        ..tool_offload_core::DirectOptions::new(session_id, output_dir, &cwd)
    };
    tool_offload_core::offload_tool_result_with(message, message, &options, writer).await
}

/// [`offload_tool_result`] with a [`TokioFileWriter`].
///
/// ```no_run
/// # async fn demo(message: serde_json::Value) -> Result<(), tool_offload::OffloadError> {
/// let done = tool_offload::offload_tool_result_to_file(&message, "s1", "out").await?;
/// # Ok(()) }
/// ```
pub async fn offload_tool_result_to_file(
    message: &Value,
    session_id: &str,
    output_dir: impl AsRef<Path>,
) -> Result<DirectOffload, OffloadError> {
    offload_tool_result(message, session_id, output_dir, &TokioFileWriter::new()).await
}

/// Offload every tool result of at least `options.threshold` UTF-16 code units in a
/// conversation to `<output_dir>/tool-result-<id>.md` through `writer`, replacing its
/// content with `[Content offloaded to: ./tool-result-<id>.md]`. Unchanged messages come
/// back borrowed. See [`tool_offload_core::offload_tool_results`] for the rules.
///
/// ```no_run
/// use serde_json::json;
/// use tool_offload::{offload_tool_results, BatchOptions, TokioFileWriter};
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let history = vec![json!({"role": "tool", "tool_call_id": "call_1", "content": "…"})];
/// let done = offload_tool_results(&history, &BatchOptions::at("artifacts"), &TokioFileWriter::new()).await?;
/// println!("{} offloaded, {} characters freed", done.offloaded_count, done.freed_chars);
/// # Ok(()) }
/// ```
pub async fn offload_tool_results<'a, W: FileWriter + FileReader + ?Sized>(
    messages: &'a [Value],
    options: &BatchOptions<'_>,
    writer: &W,
) -> Result<BatchOffload<'a>, OffloadError> {
    let (cwd, filled);
    let options = match options.cwd {
        "" => {
            cwd = working_dir_for(options.output_dir)?;
            filled = BatchOptions {
                cwd: &cwd,
                ..options.clone()
            };
            &filled
        }
        _ => options,
    };
    tool_offload_core::offload_tool_results(messages, options, writer).await
}

/// [`offload_tool_results`] with a [`TokioFileWriter`].
///
/// ```no_run
/// # async fn demo(history: Vec<serde_json::Value>) -> Result<(), tool_offload::OffloadError> {
/// let options = tool_offload::BatchOptions::at("artifacts");
/// let done = tool_offload::offload_tool_results_to_files(&history, &options).await?;
/// # Ok(()) }
/// ```
pub async fn offload_tool_results_to_files<'a>(
    messages: &'a [Value],
    options: &BatchOptions<'_>,
) -> Result<BatchOffload<'a>, OffloadError> {
    offload_tool_results(messages, options, &TokioFileWriter::new()).await
}

/// The directory `path` resolves against: the process's working directory, read only
/// when `path` is relative (so a deleted working directory does not break absolute
/// paths). Pass it as the `cwd` of core's functions.
///
/// ```
/// assert_eq!(tool_offload::working_dir_for("/var/out").unwrap(), "/");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` when the working directory cannot be read or is not UTF-8.
pub fn working_dir_for(path: &str) -> Result<String, OffloadError> {
    if path.starts_with('/') {
        return Ok("/".into());
    }
    let cwd = std::env::current_dir().map_err(|e| {
        OffloadError::InvalidArgument(format!("cannot read the working directory: {e}"))
    })?;
    utf8(&cwd, "working directory").map(str::to_owned)
}

/// An empty `cwd` in core's options (their `at` constructors) filled with the directory
/// `path` resolves against.
pub(crate) fn fill_cwd(cwd: &mut String, path: &str) -> Result<(), OffloadError> {
    if cwd.is_empty() {
        *cwd = working_dir_for(path)?;
    }
    Ok(())
}

pub(crate) fn utf8<'a>(path: &'a Path, what: &str) -> Result<&'a str, OffloadError> {
    path.to_str().ok_or_else(|| {
        OffloadError::InvalidArgument(format!("{what} is not valid UTF-8: {}", path.display()))
    })
}
