//! Reading knowledge: a whole artifact, its lines, or a grep over it, through the read
//! engine; a knowledge id named in every page.

use super::io_types::Knowledge;
use super::record::KnowledgeRecord;
use super::store::Workspace;
use crate::forms::reference::{artifact_ref, ArtifactKind};
use crate::grep::pattern::Pattern;
use crate::read::{Naming, Within};
use crate::{error::OffloadError, io::FileReader};

/// The last line `get_by_lines` shows when the caller names none: one page of
/// [`DEFAULT_LINES`](crate::read::tool_args::DEFAULT_LINES) from `start`.
///
/// ```
/// assert_eq!(tool_offload_core::workspace::default_end_line(1), 200);
/// assert_eq!(tool_offload_core::workspace::default_end_line(usize::MAX), usize::MAX);
/// ```
pub fn default_end_line(start: usize) -> usize {
    start.saturating_add(crate::read::tool_args::DEFAULT_LINES - 1)
}

impl Workspace {
    /// The record and whole content of `id`.
    ///
    /// # Errors
    /// `INVALID_ID`; `REF_NOT_FOUND` for an id not stored in this namespace;
    /// `READ_FAILED`.
    pub async fn get_by_id<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Knowledge, OffloadError> {
        let record = self.existing(id, reader).await?;
        let path = self.content_path(id, record.kind)?;
        let content = reader
            .read_file(&path)
            .await
            .map_err(|source| OffloadError::ReadFailed {
                path: path.clone(),
                source,
            })?
            .ok_or_else(|| self.not_found(id))?;
        Ok(Knowledge { record, content })
    }

    /// Lines `start..=end` (1-based) of `id`, numbered, as one page within the inline
    /// limit (the Materializer's `read`).
    ///
    /// # Errors
    /// As [`Workspace::get_by_id`]; `INVALID_ARGUMENT` for `start` 0 or `end < start`.
    pub async fn get_by_lines<R: FileReader + ?Sized>(
        &self,
        id: &str,
        start: usize,
        end: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        self.get_by_lines_from(id, (start, 1), end, reader).await
    }

    /// [`Workspace::get_by_lines`] starting inside line `start`: at part `part`
    /// (1-based; a number is a part) or at a character ([`Within::Char`], a grep
    /// window's `57.3@4010`): how a page continues inside a line too long for one page
    /// (the `part=` its header names).
    ///
    /// # Errors
    /// As [`Workspace::get_by_lines`]; `INVALID_ARGUMENT` for `part` 0.
    pub async fn get_by_lines_from<R: FileReader + ?Sized>(
        &self,
        id: &str,
        (start, within): (usize, impl Into<Within>),
        end: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        self.by_lines(id, (start, within.into()), end, reader).await
    }

    /// [`Workspace::get_by_lines_from`], one instance whatever says where it starts.
    async fn by_lines<R: FileReader + ?Sized>(
        &self,
        id: &str,
        (start, within): (usize, Within),
        end: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        if start == 0 || end < start || within == Within::Part(0) {
            let part = match within {
                Within::Part(part) => part,
                Within::Char(_) => 1,
            };
            return Err(OffloadError::InvalidArgument(format!(
                "lines and parts are 1-based and end >= start, got lines {start}..{end}, part {part}"
            )));
        }
        let reference = self.reference(id, reader).await?;
        let lines = end - start + 1;
        let naming = Naming::Knowledge { id, lines };
        let request = (start - 1, within, lines);
        self.artifacts
            .read_named(&reference, naming, request, self.page_chars, reader)
            .await
    }

    /// Rows of `id` matching `pattern`, with `context` rows around each, at most
    /// `max_matches` (the Materializer's `grep`).
    ///
    /// # Errors
    /// As [`Workspace::get_by_id`].
    pub async fn grep<R: FileReader + ?Sized>(
        &self,
        id: &str,
        pattern: &Pattern,
        context: usize,
        max_matches: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let reference = self.reference(id, reader).await?;
        let naming = Naming::Knowledge { id, lines: 1 };
        let limits = (context, max_matches);
        self.artifacts
            .grep_named(&reference, naming, pattern, limits, self.page_chars, reader)
            .await
    }

    /// The `ctx://` ref of a stored id (its content is an artifact of the namespace's
    /// conversation).
    async fn reference<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let record = self.existing(id, reader).await?;
        let file = format!("{id}.{}", record.kind.extension());
        Ok(artifact_ref(
            &self.options.namespace,
            ArtifactKind::Knowledge,
            &file,
        ))
    }

    pub(super) async fn existing<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<KnowledgeRecord, OffloadError> {
        self.record(id, reader)
            .await?
            .ok_or_else(|| self.not_found(id))
    }

    fn not_found(&self, id: &str) -> OffloadError {
        OffloadError::KnowledgeNotFound {
            id: id.into(),
            namespace: self.options.namespace.clone(),
        }
    }
}
