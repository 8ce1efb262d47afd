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

mod writer;

use std::path::Path;

pub use tool_offload_core as core;
pub use tool_offload_core::{
    json, utf16_len, DirectOffload, ErrorCode, FileWriter, IoError, MemoryWriter, OffloadError,
    Value,
};
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
    let output_dir = utf8(output_dir.as_ref(), "output directory")?;
    let cwd = working_dir_for(output_dir)?;
    tool_offload_core::offload_tool_result(message, session_id, output_dir, &cwd, writer).await
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

/// The directory `path` resolves against: the process's working directory, read only
/// when `path` is relative (so a deleted working directory does not break absolute paths).
fn working_dir_for(path: &str) -> Result<String, OffloadError> {
    if path.starts_with('/') {
        return Ok("/".into());
    }
    let cwd = std::env::current_dir().map_err(|e| {
        OffloadError::InvalidArgument(format!("cannot read the working directory: {e}"))
    })?;
    utf8(&cwd, "working directory").map(str::to_owned)
}

fn utf8<'a>(path: &'a Path, what: &str) -> Result<&'a str, OffloadError> {
    path.to_str().ok_or_else(|| {
        OffloadError::InvalidArgument(format!("{what} is not valid UTF-8: {}", path.display()))
    })
}
