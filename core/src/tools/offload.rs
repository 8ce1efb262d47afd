//! Offloading as registry middleware: a tool result at or over a size threshold is
//! written out with the direct-offload rules before the loop ever sees it.

use std::borrow::Cow;

use super::{Finished, ToolResult};
use crate::message::check_session_id;
use crate::path::{join, resolve, unsafe_component};
use crate::plan::{write_offloads, PlannedOffload};
use crate::{direct_placeholder, is_placeholder, utf16_len, FileWriter, OffloadError, Slot};

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
    /// ([`redact_offloads`](crate::redact_offloads)).
    pub redact: bool,
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
            redact: false,
        }
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
        // A result that already is a placeholder stays as it is (nothing to move).
        let chars = utf16_len(&result.content);
        if !self.applies_to(chars) || is_placeholder(&result.content) {
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
        let path = join(&dir, &format!("{tool_use_id}.md"));
        let mut offload = PlannedOffload {
            id: tool_use_id,
            slot: Slot::whole("content", "tool_use_id"),
            placeholder: direct_placeholder(&path),
            path,
            chars,
            text: Cow::Owned(content),
        };
        if self.redact {
            crate::redact_offloads(std::slice::from_mut(&mut offload));
        }
        write_offloads(Some(&dir), std::slice::from_ref(&offload), writer).await?;
        let PlannedOffload {
            id: tool_use_id,
            placeholder,
            ..
        } = offload;
        Ok(Finished {
            result: ToolResult {
                tool_use_id,
                content: placeholder,
                is_error,
            },
            replaced: true,
        })
    }
}
