//! The [`Materializer`]'s read-back for Rust users: pages of an artifact by ref, by JSON
//! path, its tail, grep in one artifact or all of them (core's pages, on this host's IO).

use tool_offload_core::materialize;
use tool_offload_core::FileLifecycle;
use tool_offload_core::{FileReader, FileWriter, OffloadError};

use crate::{materializer::GrepOptions, materializer::Materializer};

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// Lines `offset..offset + limit` of an artifact (0-based), numbered, within the
    /// inline limit. Continue inside a line split into parts with
    /// [`Materializer::read_from`].
    ///
    /// # Errors
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn read(
        &self,
        reference: &str,
        offset: usize,
        limit: usize,
    ) -> Result<String, OffloadError> {
        self.core().read(reference, offset, limit, self.io()).await
    }

    /// [`Materializer::read`] from inside line `offset + 1`, for a line too long for one
    /// page: from part `part` (1-based; a number is a part, shown as `57.1`, `57.2`…) or
    /// from a character ([`materialize::Within::Char`]: a grep window's `57.3@4010`).
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn read_from(
        &self,
        reference: &str,
        offset: usize,
        within: impl Into<materialize::Within>,
        limit: usize,
    ) -> Result<String, OffloadError> {
        self.core()
            .read_from(reference, offset, within, limit, self.io())
            .await
    }

    /// What the JSON path `path` (`$.items[10]`, `/items/10`) selects in the artifact,
    /// pretty-printed, lines `offset..offset + limit` from part `part` (or a
    /// [`materialize::Within::Char`]) of the first.
    ///
    /// # Errors
    /// As [`Materializer::read`]; `INVALID_ARGUMENT` for a malformed path, one that
    /// selects nothing, or an artifact that is not JSON.
    pub async fn read_json(
        &self,
        reference: &str,
        path: &str,
        offset: usize,
        within: impl Into<materialize::Within>,
        limit: usize,
    ) -> Result<String, OffloadError> {
        self.core()
            .read_json(reference, path, offset, within, limit, self.io())
            .await
    }

    /// The last `lines` lines of an artifact.
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn tail(&self, reference: &str, lines: usize) -> Result<String, OffloadError> {
        self.core().tail(reference, lines, self.io()).await
    }

    /// Rows of an artifact matching the regular expression `pattern`, with context.
    /// Core compiles the pattern (see [`materialize::compile_pattern`] for the syntax and
    /// limits), so every host finds the same rows, in time linear in the artifact.
    ///
    /// # Errors
    /// `INVALID_PATTERN` (over [`materialize::MAX_PATTERN_CHARS`], invalid or unsupported
    /// syntax), and as [`Materializer::read`].
    pub async fn grep(
        &self,
        reference: &str,
        pattern: &str,
        options: GrepOptions,
    ) -> Result<String, OffloadError> {
        let pattern = materialize::compile_pattern(pattern, options.ignore_case)?;
        self.core()
            .grep(
                reference,
                &pattern,
                options.context,
                options.max_matches,
                self.io(),
            )
            .await
    }
}

impl<IO: FileWriter + FileReader + FileLifecycle + Send + Sync> Materializer<IO> {
    /// Rows matching `pattern` in every artifact of this conversation, newest first,
    /// each artifact's under its own header, as much as fits in one page
    /// (`context_grep` without a ref).
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn grep_all(
        &self,
        pattern: &str,
        options: GrepOptions,
    ) -> Result<String, OffloadError> {
        let compiled = materialize::compile_pattern(pattern, options.ignore_case)?;
        self.core()
            .grep_all(&compiled, options.context, options.max_matches, self.io())
            .await
    }
}
