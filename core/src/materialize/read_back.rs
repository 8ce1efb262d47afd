//! The [`Materializer`]'s read-back: `read`, `tail` and `grep` of an artifact by ref,
//! through the read engine's [`Artifacts`](crate::read::artifacts::Artifacts), in pages
//! under the Materializer's page size.

use super::materializer::Materializer;
use crate::read::Within;
use crate::{error::OffloadError, io::FileReader};

impl Materializer {
    /// Lines `offset..offset + limit` of the artifact (0-based), numbered, at most
    /// [`Materializer::page_chars`] long (see [`read_page`](crate::read::read_page)).
    ///
    /// # Errors
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn read<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        offset: usize,
        limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        self.read_from(reference, offset, 1, limit, reader).await
    }

    /// [`Materializer::read`] starting inside line `offset + 1`: at part `part`
    /// (1-based; a number is a part) or at a character ([`Within::Char`], a grep
    /// window's `57.3@4010`): how a page continues inside a line too long for one page.
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions, ToolOutputRef, Within};
    /// use tool_offload_core::MemoryWriter;
    /// use futures_executor::block_on;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// let text = format!("{}NEEDLE{}", "a".repeat(5000), "b".repeat(5000));
    /// let output = ToolOutputRef { tool_call_id: "q", tool_name: "t", server_name: None, text: &text, was_value: false };
    /// block_on(m.materialize(&output, &io)).unwrap();
    /// let page = block_on(m.read_from("ctx://c/tool/q.txt", 0, Within::Char(5000), 1, &io)).unwrap();
    /// assert!(page.contains("\n1.3@5000| NEEDLEbbb"));
    /// ```
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn read_from<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        offset: usize,
        within: impl Into<Within>,
        limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let request = (offset, within.into(), limit);
        let reference = crate::forms::reference::clean_ref(reference);
        self.artifacts
            .read_named(
                reference,
                reference.into(),
                request,
                self.read_page_chars(),
                reader,
            )
            .await
    }

    /// The last `lines` lines of the artifact (see [`tail_page`](crate::read::tail_page)).
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn tail<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        lines: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let reference = crate::forms::reference::clean_ref(reference);
        self.artifacts
            .tail(reference, lines, self.read_page_chars(), reader)
            .await
    }

    /// Rows matching `pattern` (from [`compile_pattern`](crate::grep::pattern::compile_pattern)), with
    /// context (see [`grep_page`](crate::read::grep_page)). Reads the whole artifact once, a
    /// chunk at a time.
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn grep<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        pattern: &crate::grep::pattern::Pattern,
        context: usize,
        max_matches: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let limits = (context, max_matches);
        let reference = crate::forms::reference::clean_ref(reference);
        self.artifacts
            .grep_named(
                reference,
                reference.into(),
                pattern,
                limits,
                self.read_page_chars(),
                reader,
            )
            .await
    }
}
