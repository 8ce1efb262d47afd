//! What a registry does with a handler's result before the loop sees it: nothing,
//! offload it to a file, or materialize it. Both hosts' registries run this one policy,
//! so they cannot drift.

use std::future::Future;

use super::registry::{Finished, ToolResult};

use super::offload::ResultOffload;
use crate::forms::summary_header::summary_ref;
use crate::summary::ToolOutputRef;
use crate::{error::OffloadError, io::FileWriter};

/// A materializer as a registry uses it: the summary that replaces an output over the
/// limits, or `None` to keep the output inline.
///
/// Core's [`Materializer`](crate::materialize::Materializer) paired with its IO implements it; hosts implement it over
/// their own materializer type (the npm package's calls the JS `materialize` method, so
/// the caller's own string is what gets written).
///
/// ```
/// use tool_offload_core::materialize::{Materializer, MaterializerOptions, ToolOutputRef};
/// use tool_offload_core::tools::ResultMaterializer;
/// use tool_offload_core::MemoryWriter;
/// let core = Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap();
/// let io = MemoryWriter::new();
/// let output = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: "ok", was_value: false };
/// let summary = futures_executor::block_on((&core, &io).materialize_output(&output)).unwrap();
/// assert_eq!(summary, None); // within the limits: stays inline
/// ```
pub trait ResultMaterializer {
    /// Materialize `output`: `Some(summary)` when it went to an artifact, `None` when it
    /// stays inline.
    fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> impl Future<Output = Result<Option<String>, OffloadError>>;
}

/// A shared materializer (the tokio host's registry holds an `Arc<Materializer>`).
impl<M: ResultMaterializer + ?Sized> ResultMaterializer for std::sync::Arc<M> {
    fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> impl Future<Output = Result<Option<String>, OffloadError>> {
        (**self).materialize_output(output)
    }
}

/// A registry without a materializer: `ResultPolicy<W, NoMaterializer>`.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoMaterializer;

impl ResultMaterializer for NoMaterializer {
    async fn materialize_output(
        &self,
        _output: &ToolOutputRef<'_>,
    ) -> Result<Option<String>, OffloadError> {
        Ok(None)
    }
}

/// What a registry does with every handler's result, with the writer `W` offloading
/// uses or the materializer `M`.
///
/// ```
/// use tool_offload_core::tools::{NoMaterializer, ResultOffload, ResultPolicy, ToolResult};
/// use tool_offload_core::MemoryWriter;
/// let policy: ResultPolicy<MemoryWriter, NoMaterializer> =
///     ResultPolicy::Offload(ResultOffload::new("out", "s1", "/work"), MemoryWriter::new());
/// let result = ToolResult { tool_use_id: "toolu_1".into(), content: "x".repeat(1000), is_error: false };
/// let done = futures_executor::block_on(policy.apply(result, "bash", false)).unwrap();
/// assert!(done.replaced);
/// assert_eq!(done.result.content, "[Tool result offloaded to file: /work/out/s1/toolu_1.md]");
/// ```
#[derive(Debug, Default)]
pub enum ResultPolicy<W, M> {
    /// Every result goes back as it is.
    #[default]
    Inline,
    /// Results of at least the threshold are written to a file and replaced by
    /// `[Tool result offloaded to file: <path>]`.
    Offload(ResultOffload, W),
    /// Results over the materializer's limits are written to an artifact and replaced by
    /// its summary.
    Materialize(M),
}

impl<W, M> ResultPolicy<W, M> {
    /// This policy with its writer borrowed and its materializer seen through `f`: how a
    /// host pairs a stored materializer with what one call needs (the npm package passes
    /// the handler's own JS string).
    ///
    /// ```
    /// use tool_offload_core::tools::{NoMaterializer, ResultPolicy};
    /// let stored: ResultPolicy<(), &str> = ResultPolicy::Materialize("js object");
    /// let per_call = stored.map_materializer(|_object| NoMaterializer);
    /// assert!(matches!(per_call, ResultPolicy::Materialize(NoMaterializer)));
    /// ```
    pub fn map_materializer<'a, N>(&'a self, f: impl FnOnce(&'a M) -> N) -> ResultPolicy<&'a W, N> {
        match self {
            ResultPolicy::Inline => ResultPolicy::Inline,
            ResultPolicy::Offload(offload, writer) => {
                ResultPolicy::Offload(offload.clone(), writer)
            }
            ResultPolicy::Materialize(materializer) => ResultPolicy::Materialize(f(materializer)),
        }
    }
}

impl<W: FileWriter, M: ResultMaterializer> ResultPolicy<W, M> {
    /// Apply the policy to the result of tool `tool_name`. A `passthrough` tool's result
    /// (the read-back tools: their pages are already bounded) and content that already
    /// is a placeholder or a summary are never offloaded or materialized again.
    ///
    /// # Errors
    /// From offloading or materializing: `WRITE_FAILED` (the result is never silently
    /// inlined), `INVALID_ID` for a `tool_use_id` that cannot name a file.
    pub async fn apply(
        &self,
        result: ToolResult,
        tool_name: &str,
        passthrough: bool,
    ) -> Result<Finished, OffloadError> {
        let unchanged = |result| Finished {
            result,
            replaced: false,
        };
        if passthrough {
            return Ok(unchanged(result));
        }
        match self {
            ResultPolicy::Inline => Ok(unchanged(result)),
            ResultPolicy::Offload(offload, writer) => offload.offload(result, writer).await,
            ResultPolicy::Materialize(materializer) => {
                if summary_ref(&result.content).is_some() {
                    return Ok(unchanged(result));
                }
                let output = ToolOutputRef {
                    tool_call_id: &result.tool_use_id,
                    tool_name,
                    server_name: None,
                    text: &result.content,
                    was_value: false,
                };
                match materializer.materialize_output(&output).await? {
                    None => Ok(unchanged(result)),
                    Some(summary) => Ok(Finished {
                        result: ToolResult {
                            content: summary,
                            ..result
                        },
                        replaced: true,
                    }),
                }
            }
        }
    }
}
