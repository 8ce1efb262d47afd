//! The [`Materializer`]: decides what stays inline, writes artifacts, reads them back.

use super::types::{MaterializeStats, Materialized, MaterializerOptions};
use crate::forms::reference::unsafe_ref_component;
use crate::forms::reference::ArtifactKind;
use crate::path::resolve;
use crate::read::artifacts::Artifacts;
use crate::read::page::MIN_PAGE_CHARS;
use crate::summary::ToolOutputRef;
use crate::{error::OffloadError, io::FileReader, io::FileWriter, tokens::TokenCounter};
use std::sync::atomic::{AtomicU64, Ordering};

/// Moves tool outputs over the inline limits into artifacts of one conversation, and
/// reads them back for the model.
///
/// ```
/// use tool_offload_core::materialize::{Materialized, Materializer, MaterializerOptions, ToolOutputRef};
/// use tool_offload_core::MemoryWriter;
/// let fs = MemoryWriter::new();
/// let m = Materializer::new(MaterializerOptions::new("/data", "conv-1", "/")).unwrap();
/// let log = "x\n".repeat(3000);
/// let out = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: &log, was_value: false };
/// let Materialized::Artifact { reference, path, .. } = futures_executor::block_on(m.materialize(&out, &fs)).unwrap() else { panic!() };
/// assert_eq!(reference.id, "ctx://conv-1/tool/call_1.txt");
/// assert_eq!(path, "/data/context/conv-1/artifacts/tool/call_1.txt");
/// let page = futures_executor::block_on(m.tail(&reference.id, 2, &fs)).unwrap();
/// assert_eq!(page, "[ctx://conv-1/tool/call_1.txt: lines 2999-3000 of 3,000, the end.]\n2999| x\n3000| x");
/// ```
#[derive(Debug)]
pub struct Materializer {
    options: MaterializerOptions,
    /// Its artifacts, as read-back sees them (`…/context/<conversation>/artifacts`).
    pub(crate) artifacts: Artifacts,
    // Atomics so every method takes `&self`: hosts share one materializer between
    // concurrent calls without a lock held across a write.
    pub(super) hits: AtomicU64,
    pub(super) inlined: AtomicU64,
    pub(super) saved_chars: AtomicU64,
    /// Limits tools declared for their own results, by name ([`Materializer::declare_tool_limit`]).
    pub(super) declared: std::sync::Mutex<Vec<(String, usize)>>,
}

impl Materializer {
    /// A materializer for one conversation.
    ///
    /// # Errors
    /// `INVALID_ID` for a conversation id that cannot name a directory;
    /// `INVALID_ARGUMENT` for a relative `cwd`.
    pub fn new(options: MaterializerOptions) -> Result<Self, OffloadError> {
        if let Some(reason) = unsafe_ref_component(&options.conversation_id, 0) {
            return Err(OffloadError::InvalidId {
                field: "conversationId".into(),
                value: Some(options.conversation_id),
                reason,
            });
        }
        if let Some(window) = &options.context_window {
            window.check()?;
        }
        let root = resolve(&options.cwd, &options.user_data)?;
        let artifacts = Artifacts::dir_of(&root, &options.conversation_id);
        let offload_dir = match &options.offload_dir {
            Some(dir) => Some(resolve(&options.cwd, dir)?),
            None => None,
        };
        let artifacts = Artifacts::new(artifacts, options.conversation_id.clone(), offload_dir);
        Ok(Materializer {
            options,
            artifacts,
            hits: AtomicU64::new(0),
            inlined: AtomicU64::new(0),
            saved_chars: AtomicU64::new(0),
            declared: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &MaterializerOptions {
        &self.options
    }

    /// Counts so far.
    pub fn stats(&self) -> MaterializeStats {
        MaterializeStats {
            hits: self.hits.load(Ordering::Relaxed),
            inlined: self.inlined.load(Ordering::Relaxed),
            saved_chars: self.saved_chars.load(Ordering::Relaxed),
        }
    }

    /// The longest text the materializer hands the model (summaries, pages), in UTF-16
    /// units: `max_inline_chars`, or less when `max_inline_bytes` is the stricter limit
    /// (a UTF-16 unit takes at most 3 UTF-8 bytes), so nothing it returns could itself
    /// be over either limit.
    ///
    /// Read-back pages get at least [`MIN_PAGE_CHARS`], so that under a tiny limit
    /// (useful in tests) a page still shows something; the guarantee holds for limits
    /// of at least that much.
    pub fn page_chars(&self) -> usize {
        self.options
            .max_inline_chars
            .min(self.options.max_inline_bytes / 3)
    }

    pub(super) fn read_page_chars(&self) -> usize {
        self.page_chars().max(MIN_PAGE_CHARS)
    }

    /// Leave `output` inline when within both limits; otherwise write it (before
    /// returning) to `…/artifacts/tool/<toolCallId>.json|.txt` and return its summary
    /// and ref.
    ///
    /// # Errors
    /// `INVALID_ID` for a call id that cannot name a file; `WRITE_FAILED`.
    pub async fn materialize<IO: FileWriter + FileReader + ?Sized>(
        &self,
        output: &ToolOutputRef<'_>,
        io: &IO,
    ) -> Result<Materialized, OffloadError> {
        self.materialize_counted(output, None, None, io).await
    }

    /// [`Materializer::materialize`] for a host that already knows the text's length in
    /// UTF-16 code units (a JavaScript string's `.length`; a lone surrogate counts as the
    /// one unit of the U+FFFD it becomes), so the text is not counted again.
    ///
    /// # Errors
    /// As [`Materializer::materialize`].
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materialized, Materializer, MaterializerOptions, ToolOutputRef};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap();
    /// let log = "x\n".repeat(3000);
    /// let out = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: &log, was_value: false };
    /// let done = futures_executor::block_on(m.materialize_measured(&out, 6000, &MemoryWriter::new())).unwrap();
    /// assert!(matches!(done, Materialized::Artifact { .. }));
    /// ```
    pub async fn materialize_measured<IO: FileWriter + FileReader + ?Sized>(
        &self,
        output: &ToolOutputRef<'_>,
        chars: usize,
        io: &IO,
    ) -> Result<Materialized, OffloadError> {
        debug_assert_eq!(
            chars,
            crate::text::utf16_len(output.text),
            "the length given is the text's"
        );
        self.materialize_counted(output, Some(chars), None, io)
            .await
    }

    /// [`Materializer::materialize`] with the text's length in UTF-16 code units when the
    /// host knows it (`chars`, as for [`Materializer::materialize_measured`]) and its
    /// tokens (a `tools` entry's `max_inline_tokens`) counted by `count_tokens` when
    /// given: the host's tokenizer, asked only about text longer in UTF-8 bytes than the
    /// limit.
    ///
    /// The counter runs before the future is returned: the future does not hold it.
    ///
    /// # Errors
    /// As [`Materializer::materialize`], and the counter's own (nothing is then written).
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materialized, Materializer, MaterializerOptions, ToolLimits, ToolOutputRef};
    /// use tool_offload_core::{MemoryWriter, OffloadError};
    /// let mut options = MaterializerOptions::new("/data", "c1", "/");
    /// options.tools = vec![("bash".into(), ToolLimits { max_inline_tokens: Some(100), ..ToolLimits::default() })];
    /// let m = Materializer::new(options).unwrap();
    /// let text = ["word"; 150].join(" ");
    /// let out = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: &text, was_value: false };
    /// let words = |text: &str| Ok::<_, OffloadError>(text.split(' ').count());
    /// let done = futures_executor::block_on(m.materialize_counted(&out, None, Some(&words), &MemoryWriter::new())).unwrap();
    /// assert!(matches!(done, Materialized::Artifact { .. }));
    /// let refuse = |_: &str| Err(OffloadError::InvalidArgument("no".into()));
    /// assert!(futures_executor::block_on(m.materialize_counted(&out, None, Some(&refuse), &MemoryWriter::new())).is_err());
    /// ```
    pub fn materialize_counted<'a, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        output: &ToolOutputRef<'a>,
        chars: Option<usize>,
        count_tokens: Option<&TokenCounter<'_>>,
        io: &'a IO,
    ) -> impl std::future::Future<Output = Result<Materialized, OffloadError>> + 'a {
        self.store_as(
            (ArtifactKind::Tool, output.tool_call_id),
            output,
            (chars, None),
            false,
            count_tokens,
            io,
        )
    }

    /// [`Materializer::materialize`] for terminal output: over the limits, `text` goes
    /// to `…/artifacts/terminal/<snippetId>.log`, ref `ctx://<conv>/terminal/<snippetId>.log`,
    /// with the same summary (its pointer names the snippet).
    ///
    /// # Errors
    /// `INVALID_ID` for a snippet id that cannot name a file; `WRITE_FAILED`.
    pub async fn materialize_terminal<IO: FileWriter + FileReader + ?Sized>(
        &self,
        snippet_id: &str,
        text: &str,
        io: &IO,
    ) -> Result<Materialized, OffloadError> {
        let output = ToolOutputRef {
            tool_call_id: snippet_id,
            tool_name: "terminal",
            server_name: None,
            text,
            was_value: false,
        };
        self.store_as(
            (ArtifactKind::Terminal, snippet_id),
            &output,
            (None, None),
            false,
            None,
            io,
        )
        .await
    }

    /// `mkdir -p dir`, remembered (as `bit` of `made_dirs`) once it succeeds.
    pub(super) async fn make_dir<D: ?Sized, IO: FileWriter<D> + ?Sized>(
        &self,
        dir: &str,
        bit: u8,
        io: &IO,
    ) -> Result<(), OffloadError> {
        io.mkdir(dir)
            .await
            .map_err(crate::create::dir_failed(dir))?;
        self.artifacts.mark_made(bit);
        Ok(())
    }
}

#[cfg(test)]
#[path = "materializer_tests.rs"]
mod tests;
