//! Direct offload: the caller has decided a message's tool results are too long.

use crate::error::OffloadError;
use crate::forms::placeholder::direct_placeholder;
use crate::io::FileWriter;
use crate::json::view::{JsonView, Text};
use crate::message::{check_session_id, tool_results, with_contents, At};
use crate::path::{join, resolve};
use crate::plan::{edits, redact_offloads, write_offloads, PlannedOffload};
use crate::text::utf16_len;
use serde_json::Value;

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
/// Every `tool_result` block of an Anthropic message, the message itself when its
/// `role` is `"tool"` (OpenAI Chat), or an OpenAI Responses `function_call_output`
/// item is written out: string content as is, array content as its `JSON.stringify`.
/// Each content becomes `[Tool result offloaded to file: <absolute path>]`, where
/// `output_dir` is resolved against the absolute directory `cwd`. Ids are used
/// unchanged; a repeated id overwrites the earlier file.
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
    offload_tool_result_through(message, message, session_id, output_dir, cwd, writer).await
}

/// [`offload_tool_result`] reading `message` through `view` (see
/// [`offload_tool_results_through`](crate::batch::offload_tool_results_through)).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{offload_tool_result_through, MemoryWriter};
/// let message = json!({"role": "tool", "tool_call_id": "c1", "content": "big"});
/// let writer = MemoryWriter::new();
/// let done = futures_executor::block_on(
///     offload_tool_result_through(&message, &message, "s", "/o", "/", &writer),
/// ).unwrap();
/// assert_eq!(done.files, ["/o/s/c1.md"]);
/// ```
pub async fn offload_tool_result_through<V, W>(
    message: &Value,
    view: V,
    session_id: &str,
    output_dir: &str,
    cwd: &str,
    writer: &W,
) -> Result<DirectOffload, OffloadError>
where
    V: JsonView,
    W: FileWriter<<V::Text as Text>::Data> + ?Sized,
{
    let options = DirectOptions::new(session_id, output_dir, cwd);
    offload_tool_result_with(message, view, &options, writer).await
}

/// Options of [`offload_tool_result_with`].
///
/// ```
/// use tool_offload_core::DirectOptions;
/// let options = DirectOptions { redact: true.into(), ..DirectOptions::new("s1", "out", "/srv") };
/// assert_eq!(options.session_id, "s1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectOptions<'a> {
    /// The files go to `<output_dir>/<session_id>/`.
    pub session_id: &'a str,
    /// Directory for the session's directory; relative paths resolve against `cwd`.
    pub output_dir: &'a str,
    /// Absolute working directory.
    pub cwd: &'a str,
    /// Replace well-known secrets before anything is written ([`redact_offloads`]).
    pub redact: crate::redact::Redaction,
}

impl<'a> DirectOptions<'a> {
    /// Options without redaction.
    pub fn new(session_id: &'a str, output_dir: &'a str, cwd: &'a str) -> Self {
        DirectOptions {
            session_id,
            output_dir,
            cwd,
            redact: crate::redact::Redaction::off(),
        }
    }
}

/// [`offload_tool_result_through`] with [`DirectOptions`]: with `redact`, the files hold
/// the content with its secrets replaced by `[REDACTED:<kind>]`.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{offload_tool_result_with, DirectOptions, MemoryWriter};
/// let message = json!({"role": "tool", "tool_call_id": "c1", "content": "token ghp_0123456789abcdefghijABCDEFGHIJ012345"});
/// let writer = MemoryWriter::new();
/// let options = DirectOptions { redact: true.into(), ..DirectOptions::new("s", "/o", "/") };
/// futures_executor::block_on(offload_tool_result_with(&message, &message, &options, &writer)).unwrap();
/// assert_eq!(writer.read("/o/s/c1.md").unwrap(), "token [REDACTED:github-token]");
/// ```
pub async fn offload_tool_result_with<V, W>(
    message: &Value,
    view: V,
    options: &DirectOptions<'_>,
    writer: &W,
) -> Result<DirectOffload, OffloadError>
where
    V: JsonView,
    W: FileWriter<<V::Text as Text>::Data> + ?Sized,
{
    let mut plan = DirectPlan::new(&view, options.session_id, options.output_dir, options.cwd)?;
    if options.redact.is_on() {
        plan.redact(&options.redact);
    }
    plan.write(writer).await?;
    let files = plan.files();
    Ok(DirectOffload {
        message: with_contents(message, plan.edits()),
        freed_chars: plan.freed_chars,
        file: files[0].clone(),
        files,
    })
}

/// [`offload_tool_result`] in two steps, for a message of any [`JsonView`]: plan
/// (validation, paths, placeholders; no IO), then write. The host builds its own copy
/// of the message from [`DirectPlan::edits`].
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{DirectPlan, MemoryWriter};
/// let message = json!({"type": "function_call_output", "call_id": "c1", "output": "big"});
/// let plan = DirectPlan::new(&&message, "s", "/o", "/").unwrap();
/// assert_eq!(plan.edits()[0].1, "[Tool result offloaded to file: /o/s/c1.md]");
/// futures_executor::block_on(plan.write(&MemoryWriter::new())).unwrap();
/// ```
#[derive(Debug)]
pub struct DirectPlan<T> {
    dir: String,
    /// The tool results to write, in message order; never empty.
    pub offloads: Vec<PlannedOffload<T>>,
    /// As [`DirectOffload::freed_chars`].
    pub freed_chars: i64,
}

impl<T: Text> DirectPlan<T> {
    /// Validate `message` and decide every file. See [`offload_tool_result`] for the
    /// rules and errors (all but `WRITE_FAILED` come from here).
    pub fn new<V: JsonView<Text = T>>(
        message: &V,
        session_id: &str,
        output_dir: &str,
        cwd: &str,
    ) -> Result<Self, OffloadError> {
        let found = tool_results(message, At::Alone, ".md".len(), &mut Vec::new())?;
        if found.is_empty() {
            return Err(OffloadError::NoToolResult);
        }
        // Already-offloaded results are left as they are: writing a placeholder again
        // would overwrite the original file with it.
        let found: Vec<_> = found
            .into_iter()
            .filter(|r| !r.text.is_placeholder())
            .collect();
        if found.is_empty() {
            return Err(OffloadError::AlreadyOffloaded);
        }
        // Direct offload writes every tool result, so every id must name a file.
        let found = found
            .into_iter()
            .map(|r| {
                let id = r.id()?;
                Ok((id, r.slot, r.text))
            })
            .collect::<Result<Vec<_>, OffloadError>>()?;
        check_session_id(session_id)?;
        let dir = join(&resolve(cwd, output_dir)?, session_id);
        let mut freed_chars: i64 = 0;
        let offloads = found
            .into_iter()
            .map(|(id, slot, text)| {
                let path = join(&dir, &format!("{id}.md"));
                let placeholder = direct_placeholder(&path);
                let chars = text.utf16_len();
                freed_chars += chars as i64 - utf16_len(&placeholder) as i64;
                PlannedOffload {
                    id,
                    slot,
                    path,
                    placeholder,
                    chars,
                    text,
                }
            })
            .collect();
        Ok(DirectPlan {
            dir,
            offloads,
            freed_chars,
        })
    }

    /// Replace well-known secrets in every content to write ([`redact_offloads`]).
    pub fn redact(&mut self, redaction: &crate::redact::Redaction) {
        redact_offloads(&mut self.offloads, redaction);
    }

    /// Create the session directory and write every file, in order.
    ///
    /// # Errors
    /// `WRITE_FAILED` with the path when the writer fails.
    pub async fn write<W: FileWriter<T::Data> + ?Sized>(
        &self,
        writer: &W,
    ) -> Result<(), OffloadError> {
        write_offloads(Some(&self.dir), &self.offloads, writer).await
    }

    /// The slot → placeholder edits that turn the message into its offloaded copy.
    pub fn edits(&self) -> Vec<(crate::message::Slot, String)> {
        edits(&self.offloads)
    }

    /// Absolute paths of the files, in message order.
    pub fn files(&self) -> Vec<String> {
        self.offloads.iter().map(|o| o.path.clone()).collect()
    }
}
