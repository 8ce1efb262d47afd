//! Offloading as registry middleware: a tool result at or over a size threshold is
//! written out with the direct-offload rules before the loop ever sees it.

use super::{Finished, ToolResult};
use crate::path::unsafe_component;
use crate::{is_placeholder, utf16_len, DirectPlan, FileWriter, Map, OffloadError, Value};

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
        }
    }

    /// Check the session id and output directory now rather than at the first large
    /// result.
    ///
    /// # Errors
    /// `INVALID_ID` for an unusable session id, `INVALID_ARGUMENT` for a relative `cwd`.
    pub fn validate(&self) -> Result<(), OffloadError> {
        let probe = tool_result_message("probe", String::new());
        DirectPlan::new(&&probe, &self.session_id, &self.output_dir, &self.cwd).map(drop)
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
        if !self.applies_to(utf16_len(&result.content)) || is_placeholder(&result.content) {
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
        let message = tool_result_message(&tool_use_id, content);
        let plan = DirectPlan::new(&&message, &self.session_id, &self.output_dir, &self.cwd)?;
        plan.write(writer).await?;
        let placeholder = plan
            .offloads
            .into_iter()
            .next()
            .map(|o| o.placeholder)
            .unwrap_or_default();
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

/// `{ role: "user", content: [{ type: "tool_result", tool_use_id, content }] }`, the
/// content moved in rather than copied.
fn tool_result_message(tool_use_id: &str, content: String) -> Value {
    let mut block = Map::new();
    block.insert("type".into(), "tool_result".into());
    block.insert("tool_use_id".into(), tool_use_id.into());
    block.insert("content".into(), Value::String(content));
    let mut message = Map::new();
    message.insert("role".into(), "user".into());
    message.insert("content".into(), Value::Array(vec![Value::Object(block)]));
    Value::Object(message)
}
