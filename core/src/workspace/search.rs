//! `grep_knowledge` without an id: one search over every knowledge artifact of the
//! namespace, newest first, through the Materializer's search across artifacts.

use super::query::Query;
use super::store::Workspace;
use crate::forms::reference::{artifact_ref, ArtifactKind};
use crate::grep::pattern::Pattern;
use crate::read::by_ref::Section;
use crate::{error::OffloadError, io::FileReader};

impl Workspace {
    /// Rows matching `pattern` in every knowledge artifact of the namespace (the newest
    /// [`MAX_QUERY_LIMIT`](super::query::MAX_QUERY_LIMIT)), newest first, each artifact's as
    /// its own `grep` page (named by its id) under one header that counts them all, as
    /// much as fits in one page: `grep_knowledge` without an id.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn grep_all<R: FileReader + ?Sized>(
        &self,
        pattern: &Pattern,
        context: usize,
        max_matches: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let mut everything = Query::new(serde_json::Map::new());
        everything.limit = super::query::MAX_QUERY_LIMIT;
        let records = self.query(&everything, reader).await?;
        let sections: Vec<Section> = records
            .iter()
            .map(|record| Section {
                reference: artifact_ref(
                    &self.options.namespace,
                    ArtifactKind::Knowledge,
                    &format!("{}.{}", record.id, record.kind.extension()),
                ),
                knowledge_id: Some(record.id.clone()),
            })
            .collect();
        let limits = (context, max_matches);
        self.artifacts
            .grep_sections(
                ("knowledge", "id"),
                &sections,
                pattern,
                limits,
                self.page_chars,
                reader,
            )
            .await
    }
}
