//! Direct offload: the caller has decided a message's tool results are too long.

use crate::message::{check_session_id, tool_results, with_contents};
use crate::path::{join, resolve};
use crate::{direct_placeholder, utf16_len, FileWriter, OffloadError, Value};

/// What [`offload_tool_result`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectOffload {
    /// A deep copy of the input message with every tool result's content replaced by
    /// its placeholder.
    pub message: Value,
    /// Σ (original characters − placeholder characters), in UTF-16 code units. Negative
    /// when the content was shorter than its placeholder.
    pub freed_chars: i64,
    /// Absolute path of the first file written.
    pub file: String,
    /// Absolute paths of all files written, one per tool result, in message order.
    pub files: Vec<String>,
}

/// Offload every tool result of one message to `<output_dir>/<session_id>/<id>.md`.
///
/// Every `tool_result` block of an Anthropic message, or the whole message when its
/// `role` is `"tool"` (OpenAI Chat), is written out: string content as is, array
/// content as its `JSON.stringify`. Each content becomes
/// `[Tool result offloaded to file: <absolute path>]`, where `output_dir` is resolved
/// against the absolute directory `cwd`. Ids are used unchanged; a repeated id
/// overwrites the earlier file.
///
/// All input is validated before anything is written, and the input message is never
/// modified.
///
/// # Errors
/// `NO_TOOL_RESULT` when the message has no tool result; `INVALID_ID` for a missing,
/// non-string or unsafe id or session id; `INVALID_MESSAGE` for a malformed message;
/// `INVALID_ARGUMENT` for a relative `cwd`; `WRITE_FAILED` when the writer fails (then
/// nothing is reported as offloaded).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{offload_tool_result, MemoryWriter};
///
/// let message = json!({"role": "tool", "tool_call_id": "call_7", "content": "x".repeat(500)});
/// let writer = MemoryWriter::new();
/// let done = futures_executor::block_on(
///     offload_tool_result(&message, "s", "../out", "/srv/app", &writer),
/// ).unwrap();
/// assert_eq!(done.files, ["/srv/out/s/call_7.md"]);
/// assert_eq!(done.freed_chars, 500 - "[Tool result offloaded to file: /srv/out/s/call_7.md]".len() as i64);
/// ```
pub async fn offload_tool_result<W: FileWriter + ?Sized>(
    message: &Value,
    session_id: &str,
    output_dir: &str,
    cwd: &str,
    writer: &W,
) -> Result<DirectOffload, OffloadError> {
    let results = tool_results(message, ".md")?;
    if results.is_empty() {
        return Err(OffloadError::NoToolResult);
    }
    check_session_id(session_id)?;
    let dir = join(&resolve(cwd, output_dir)?, session_id);

    writer
        .mkdir(&dir)
        .await
        .map_err(|source| OffloadError::WriteFailed {
            path: dir.clone(),
            source,
        })?;

    let mut freed_chars: i64 = 0;
    let mut files = Vec::with_capacity(results.len());
    let mut placeholders = Vec::with_capacity(results.len());
    for result in &results {
        let path = join(&dir, &format!("{}.md", result.id));
        writer
            .write_file(&path, &result.text)
            .await
            .map_err(|source| OffloadError::WriteFailed {
                path: path.clone(),
                source,
            })?;
        let placeholder = direct_placeholder(&path);
        freed_chars += result.chars() as i64 - utf16_len(&placeholder) as i64;
        placeholders.push((result.slot, placeholder));
        files.push(path);
    }
    Ok(DirectOffload {
        message: with_contents(message, &placeholders),
        freed_chars,
        file: files[0].clone(),
        files,
    })
}
