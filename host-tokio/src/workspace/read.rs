//! The [`Workspace`]'s queries and read-back for Rust users: core's, on this host's IO.

use tool_offload_core::workspace::{Knowledge, KnowledgeRecord, OffloadInfo, Query};
use tool_offload_core::{FileReader, FileWriter, OffloadError};

use super::{trace, Workspace};
use crate::materializer::GrepOptions;

impl<IO: FileWriter + FileReader + Send + Sync> Workspace<IO> {
    /// Records whose metadata equals every field of `query.filter`, newest first (ids
    /// and metadata, never content): from the index (SQLite, PostgreSQL) when there is one, else a
    /// scan of the records; the results are the same.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn query_artifacts(
        &self,
        query: &Query,
    ) -> Result<Vec<KnowledgeRecord>, OffloadError> {
        let found = self.core().query(query, self.io()).await?;
        self.warn_skipped();
        Ok(found)
    }

    /// The record files the last walk over every record left out because they hold no
    /// record (truncated, emptied, garbage), each id with why; the rest answered. Each
    /// walk also logs them (`warn`, target `tool_offload::workspace`).
    pub fn skipped_records(&self) -> Vec<(String, String)> {
        self.core().skipped_records()
    }

    fn warn_skipped(&self) {
        trace::skipped(&self.core().skipped_records());
    }

    /// The stored tool results, newest first, of a task and/or session when given.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn tool_result_offload_info(
        &self,
        task_id: Option<&str>,
        session_id: Option<&str>,
    ) -> Result<Vec<OffloadInfo>, OffloadError> {
        let found = self
            .core
            .tool_result_offload_info(task_id, session_id, self.io())
            .await?;
        self.warn_skipped();
        Ok(found)
    }

    /// A knowledge artifact's record and whole content.
    ///
    /// # Errors
    /// `INVALID_ID`, `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn get_by_id(&self, id: &str) -> Result<Knowledge, OffloadError> {
        self.core().get_by_id(id, self.io()).await
    }

    /// Lines `start..=end` (1-based) of a knowledge artifact, numbered, one page.
    ///
    /// # Errors
    /// As [`Workspace::get_by_id`]; `INVALID_ARGUMENT` for bad line numbers.
    pub async fn get_by_lines(
        &self,
        id: &str,
        start: usize,
        end: usize,
    ) -> Result<String, OffloadError> {
        self.core().get_by_lines(id, start, end, self.io()).await
    }

    /// Rows of a knowledge artifact matching `pattern`, with context.
    ///
    /// # Errors
    /// `INVALID_PATTERN`, and as [`Workspace::get_by_id`].
    pub async fn grep(
        &self,
        id: &str,
        pattern: &str,
        options: GrepOptions,
    ) -> Result<String, OffloadError> {
        let pattern =
            tool_offload_core::materialize::compile_pattern(pattern, options.ignore_case)?;
        self.core
            .grep(
                id,
                &pattern,
                options.context,
                options.max_matches,
                self.io(),
            )
            .await
    }

    /// Rows matching `pattern` in every knowledge artifact of the namespace, newest
    /// first, as much as fits in one page (`grep_knowledge` without an id).
    ///
    /// # Errors
    /// `INVALID_PATTERN`, `READ_FAILED`.
    pub async fn grep_all(
        &self,
        pattern: &str,
        options: GrepOptions,
    ) -> Result<String, OffloadError> {
        let pattern =
            tool_offload_core::materialize::compile_pattern(pattern, options.ignore_case)?;
        let (context, max) = (options.context, options.max_matches);
        self.core()
            .grep_all(&pattern, context, max, self.io())
            .await
    }
}
