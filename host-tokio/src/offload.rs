//! The seeds' offload on tokio: direct offload of one message and batch offload of an
//! array, through any writer or to real files.

use std::path::Path;

use tool_offload_core::{
    BatchOffload, BatchOptions, DirectOffload, FileReader, FileWriter, OffloadError, Value,
};

use crate::paths::{utf8, working_dir_for};
use crate::writer::TokioFileWriter;

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
