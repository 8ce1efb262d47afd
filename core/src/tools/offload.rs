//! Offloading as registry middleware: a tool result at or over a size threshold is
//! written out with the direct-offload rules before the loop ever sees it.

use std::borrow::Cow;

use super::registry::{Finished, ToolResult};
use crate::create::create_at_unread_name;
use crate::error::OffloadError;
use crate::forms::placeholder::direct_placeholder;
use crate::io::FileWriter;
use crate::message::check_session_id;
use crate::message::Slot;
use crate::path::{join, resolve, unsafe_component};
use crate::plan::PlannedOffload;
use crate::text::utf16_len;

/// The default middleware threshold, in UTF-16 code units.
pub const DEFAULT_THRESHOLD_CHARS: usize = 1000;

/// Where and from what size tool results are offloaded.
///
/// ```
/// use tool_offload_core::tools::{ResultOffload, ToolResult};
/// use tool_offload_core::MemoryWriter;
/// let offload = ResultOffload::new("out", "s1", "/work");
/// let result = ToolResult { tool_use_id: "toolu_1".into(), content: "x".repeat(1000), is_error: false };
/// let writer = MemoryWriter::new();
/// let slim = futures_executor::block_on(offload.apply(result, &writer)).unwrap();
/// assert_eq!(slim.content, "[Tool result offloaded to file: /work/out/s1/toolu_1.md]");
/// assert_eq!(writer.read("/work/out/s1/toolu_1.md").unwrap().len(), 1000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultOffload {
    /// Directory for the files; relative paths resolve against `cwd`.
    pub output_dir: String,
    /// Files go to `<output_dir>/<session_id>/<tool_use_id>.md`.
    pub session_id: String,
    /// Absolute working directory.
    pub cwd: String,
    /// Offload content of at least this many UTF-16 code units.
    pub threshold_chars: usize,
    /// Replace well-known secrets in what is written
    /// ([`redact_offloads`](crate::plan::redact_offloads)).
    pub redact: crate::redact::Redaction,
}

impl ResultOffload {
    /// Middleware with the default threshold ([`DEFAULT_THRESHOLD_CHARS`]).
    pub fn new(
        output_dir: impl Into<String>,
        session_id: impl Into<String>,
        cwd: impl Into<String>,
    ) -> Self {
        ResultOffload {
            output_dir: output_dir.into(),
            session_id: session_id.into(),
            cwd: cwd.into(),
            threshold_chars: DEFAULT_THRESHOLD_CHARS,
            redact: crate::redact::Redaction::off(),
        }
    }

    /// [`ResultOffload::new`] with an empty `cwd`: the host fills it in with its working
    /// directory (the tokio host does; core alone needs an absolute `output_dir` then).
    ///
    /// ```
    /// use tool_offload_core::tools::ResultOffload;
    /// let offload = ResultOffload { threshold_chars: 4000, ..ResultOffload::at("/var/out", "s1") };
    /// assert_eq!(offload.cwd, "");
    /// ```
    pub fn at(output_dir: impl Into<String>, session_id: impl Into<String>) -> Self {
        Self::new(output_dir, session_id, "")
    }

    /// Check the session id and output directory now rather than at the first large
    /// result.
    ///
    /// # Errors
    /// `INVALID_ID` for an unusable session id, `INVALID_ARGUMENT` for a relative `cwd`.
    pub fn validate(&self) -> Result<(), OffloadError> {
        self.dir().map(drop)
    }

    /// `<cwd>/<output_dir>/<session_id>`, as direct offload resolves it.
    fn dir(&self) -> Result<String, OffloadError> {
        check_session_id(&self.session_id)?;
        Ok(join(
            &resolve(&self.cwd, &self.output_dir)?,
            &self.session_id,
        ))
    }

    /// Whether a result whose content has `chars` UTF-16 code units is offloaded.
    pub fn applies_to(&self, chars: usize) -> bool {
        chars >= self.threshold_chars
    }

    /// `result` unchanged when it is under the threshold; otherwise its content written
    /// to a file and replaced by `[Tool result offloaded to file: <path>]`, keeping
    /// `tool_use_id` and `is_error`.
    ///
    /// # Errors
    /// `WRITE_FAILED` when the writer fails (the result is never silently inlined or
    /// dropped), `INVALID_ID` for an id or session id that cannot name a file.
    pub async fn apply<W: FileWriter + ?Sized>(
        &self,
        result: ToolResult,
        writer: &W,
    ) -> Result<ToolResult, OffloadError> {
        Ok(self.offload(result, writer).await?.result)
    }

    /// [`ResultOffload::apply`], telling whether the content was replaced.
    pub(crate) async fn offload<W: FileWriter + ?Sized>(
        &self,
        result: ToolResult,
        writer: &W,
    ) -> Result<Finished, OffloadError> {
        // A result that already stands for stored content (a placeholder, a summary, a
        // page read back) stays as it is: nothing to move.
        let chars = utf16_len(&result.content);
        if !self.applies_to(chars)
            || crate::forms::stored_form::stored_form(&result.content).is_some()
        {
            return Ok(Finished {
                result,
                replaced: false,
            });
        }
        let ToolResult {
            tool_use_id,
            content,
            is_error,
        } = result;
        if let Some(reason) = unsafe_component(&tool_use_id, ".md".len()) {
            // Checked here so the error names the caller's field, not our wrapper message.
            return Err(OffloadError::InvalidId {
                field: "tool_use_id".into(),
                value: Some(tool_use_id),
                reason,
            });
        }
        // Direct offload's file and placeholder, for the one result there is (no message
        // to walk: the registry knows where its content is).
        let dir = self.dir()?;
        let mut offload = PlannedOffload {
            path: join(&dir, &format!("{tool_use_id}.md")),
            id: tool_use_id,
            slot: Slot::whole("content", "tool_use_id"),
            placeholder: String::new(),
            chars,
            text: Cow::Owned(content),
        };
        if self.redact.is_on() {
            crate::plan::redact_offloads(std::slice::from_mut(&mut offload), &self.redact);
        }
        offload.path = create_named(&dir, &offload.id, &offload.text, writer).await?;
        let PlannedOffload {
            id: tool_use_id,
            path,
            ..
        } = offload;
        Ok(Finished {
            result: ToolResult {
                tool_use_id,
                content: direct_placeholder(&path),
                is_error,
            },
            replaced: true,
        })
    }
}

/// Create `text` at `<dir>/<id>.md`, or at `<id>-1.md`, `<id>-2.md`… when a result
/// with a reused id finds the name taken: the registry never overwrites an earlier
/// result (only direct offload called directly does, as seed 000 specifies).
async fn create_named<W: FileWriter + ?Sized>(
    dir: &str,
    id: &str,
    text: &str,
    writer: &W,
) -> Result<String, OffloadError> {
    writer
        .mkdir(dir)
        .await
        .map_err(crate::create::dir_failed(dir))?;
    create_at_unread_name(writer, text, |n| candidate(dir, id, n)).await
}

/// `<dir>/<id>.md` for `n` 0, else `<dir>/<id>-<n>.md`.
fn candidate(dir: &str, id: &str, n: u32) -> Result<String, OffloadError> {
    let name = match n {
        0 => format!("{id}.md"),
        n => format!("{id}-{n}.md"),
    };
    match unsafe_component(&name, 0) {
        None => Ok(join(dir, &name)),
        Some(reason) => Err(OffloadError::InvalidId {
            field: "tool_use_id".into(),
            value: Some(id.to_owned()),
            reason,
        }),
    }
}
