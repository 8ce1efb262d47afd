//! [`RecordIndex`]: a host's index of the records (SQLite natively), kept in step with
//! the records on disk by core.

use std::collections::HashSet;

use super::query::Query;
use super::record::KnowledgeRecord;
use super::store::Workspace;
use crate::{FileReader, OffloadError};

/// An index of a namespace's records that answers [`Query`]s as the scan of the records
/// would (same results, same order). The records stay the source of truth: core adds
/// each record it stores, and before a query catches up with records other processes
/// wrote whenever [`changed`](RecordIndex::changed) says there may be some.
///
/// Its methods are synchronous (a local database); a host with a remote one blocks
/// briefly or keeps a local copy.
pub trait RecordIndex: Send + Sync {
    /// A token naming the records directory's current state (e.g. its modification
    /// time) when it differs from the last [`synced`](RecordIndex::synced) one; `None`
    /// when nothing changed since.
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn changed(&self) -> Result<Option<String>, OffloadError>;
    /// Mark the index in step with the directory state `token` names.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn synced(&self, token: &str) -> Result<(), OffloadError>;
    /// The ids indexed.
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn ids(&self) -> Result<HashSet<String>, OffloadError>;
    /// Add (or replace) records.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn insert(&self, records: &[KnowledgeRecord]) -> Result<(), OffloadError>;
    /// Drop ids whose records are gone.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn remove(&self, ids: &[String]) -> Result<(), OffloadError>;
    /// Drop everything (before a rebuild).
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn clear(&self) -> Result<(), OffloadError>;
    /// The records `query` selects, newest first (`created_at` descending, then id
    /// ascending), `query.offset` skipped, at most `query.limit` (capped at
    /// [`MAX_QUERY_LIMIT`](super::MAX_QUERY_LIMIT)).
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn query(&self, query: &Query) -> Result<Vec<KnowledgeRecord>, OffloadError>;
}

impl Workspace {
    /// Catch the index up with the records on disk, when it may be behind: records it
    /// lacks are read and added, ids whose records are gone dropped.
    pub(super) async fn sync_index<R: FileReader + ?Sized>(
        &self,
        index: &dyn RecordIndex,
        reader: &R,
    ) -> Result<(), OffloadError> {
        let Some(token) = index.changed()? else {
            return Ok(());
        };
        self.catch_up(index, reader).await?;
        index.synced(&token)
    }

    /// Add the records the index lacks, drop the ids whose records are gone.
    async fn catch_up<R: FileReader + ?Sized>(
        &self,
        index: &dyn RecordIndex,
        reader: &R,
    ) -> Result<(), OffloadError> {
        let on_disk: HashSet<String> = self.record_ids(reader).await?.into_iter().collect();
        let known = index.ids()?;
        let mut fresh = Vec::new();
        for id in on_disk.difference(&known) {
            if let Some(record) = self.load_record(id, reader).await? {
                fresh.push(record);
            }
            if fresh.len() == 1000 {
                index.insert(&fresh)?;
                fresh.clear();
            }
        }
        index.insert(&fresh)?;
        let gone: Vec<String> = known.difference(&on_disk).cloned().collect();
        index.remove(&gone)
    }

    /// Rebuild the index from the records (the source of truth); a no-op without one.
    ///
    /// # Errors
    /// `READ_FAILED`, `WRITE_FAILED`.
    pub async fn rebuild_index<R: FileReader + ?Sized>(
        &self,
        reader: &R,
    ) -> Result<(), OffloadError> {
        let Some(index) = self.index.as_deref() else {
            return Ok(());
        };
        index.clear()?;
        self.catch_up(index, reader).await
    }
}
