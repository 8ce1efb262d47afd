//! [`RecordIndex`]: a host's index of the records (SQLite or PostgreSQL natively), kept
//! in step with the records by core.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

use super::query::Query;
use super::read::Loaded;
use super::record::KnowledgeRecord;
use super::store::Workspace;
use crate::{FileReader, OffloadError};

/// What a [`RecordIndex`] method returns: a boxed `Send` future, so the trait stays
/// dyn-compatible (`Arc<dyn RecordIndex>`) and a workspace's futures stay `Send` on a
/// multi-threaded runtime.
pub type IndexFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, OffloadError>> + Send + 'a>>;

/// An index of a namespace's records that answers [`Query`]s as the scan of the records
/// would (same results, same order). The records stay the source of truth: core adds
/// each record it stores, and before a query catches up with records other processes
/// wrote whenever [`changed`](RecordIndex::changed) says there may be some.
///
/// Its methods are asynchronous, so that an index in a database server (PostgreSQL)
/// awaits its round trips; a local one (SQLite) answers in its first poll.
///
/// ```
/// use std::collections::HashSet;
/// use tool_offload_core::workspace::{IndexFuture, KnowledgeRecord, Query, RecordIndex};
/// /// An index that never holds anything (every query is then empty).
/// struct Nothing;
/// impl RecordIndex for Nothing {
///     fn changed(&self) -> IndexFuture<'_, Option<String>> { Box::pin(async { Ok(None) }) }
///     fn synced<'a>(&'a self, _: &'a str) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
///     fn ids(&self) -> IndexFuture<'_, HashSet<String>> { Box::pin(async { Ok(HashSet::new()) }) }
///     fn insert<'a>(&'a self, _: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
///     fn remove<'a>(&'a self, _: &'a [String]) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
///     fn clear(&self) -> IndexFuture<'_, ()> { Box::pin(async { Ok(()) }) }
///     fn query<'a>(&'a self, _: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>> { Box::pin(async { Ok(Vec::new()) }) }
/// }
/// let index: std::sync::Arc<dyn RecordIndex> = std::sync::Arc::new(Nothing);
/// assert!(futures_executor::block_on(index.changed()).unwrap().is_none());
/// ```
pub trait RecordIndex: Send + Sync {
    /// A token naming the records' current state (e.g. the records directory's
    /// modification time) when it differs from the last [`synced`](RecordIndex::synced)
    /// one; `None` when nothing changed since (or, for a shared index every writer adds
    /// to, once it was synced at all).
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn changed(&self) -> IndexFuture<'_, Option<String>>;
    /// Mark the index in step with the records' state `token` names.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn synced<'a>(&'a self, token: &'a str) -> IndexFuture<'a, ()>;
    /// The ids indexed.
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn ids(&self) -> IndexFuture<'_, HashSet<String>>;
    /// Add (or replace) records.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn insert<'a>(&'a self, records: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()>;
    /// Drop ids whose records are gone.
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn remove<'a>(&'a self, ids: &'a [String]) -> IndexFuture<'a, ()>;
    /// Drop everything (before a rebuild).
    ///
    /// # Errors
    /// `WRITE_FAILED`.
    fn clear(&self) -> IndexFuture<'_, ()>;
    /// The records `query` selects, newest first (`created_at` descending, then id
    /// ascending), `query.offset` skipped, at most `query.limit` (capped at
    /// [`MAX_QUERY_LIMIT`](super::MAX_QUERY_LIMIT)).
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn query<'a>(&'a self, query: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>>;
}

impl Workspace {
    /// Catch the index up with the records, when it may be behind: records it lacks are
    /// read and added, ids whose records are gone dropped.
    pub(super) async fn sync_index<R: FileReader + ?Sized>(
        &self,
        index: &dyn RecordIndex,
        reader: &R,
    ) -> Result<(), OffloadError> {
        let Some(token) = index.changed().await? else {
            return Ok(());
        };
        self.catch_up(index, reader).await?;
        index.synced(&token).await
    }

    /// Add the records the index lacks, drop the ids whose records are gone.
    async fn catch_up<R: FileReader + ?Sized>(
        &self,
        index: &dyn RecordIndex,
        reader: &R,
    ) -> Result<(), OffloadError> {
        // The index's ids before the listing: a record is written before it is indexed,
        // so an id another writer indexes meanwhile is either listed or not in `known`,
        // and never dropped as gone.
        let known = index.ids().await?;
        let listed: HashSet<String> = self.record_ids(reader).await?.into_iter().collect();
        self.begin_walk();
        let mut fresh = Vec::new();
        for id in listed.difference(&known) {
            // A file that holds no record stays out of the index (and is retried on
            // the next catch-up), reported in `skipped_records`.
            match self.load(id, reader).await? {
                Loaded::Record(record) => fresh.push(record),
                Loaded::Unreadable(err) => self.skip(id, &err),
                Loaded::Missing => {}
            }
            if fresh.len() == 1000 {
                index.insert(&fresh).await?;
                fresh.clear();
            }
        }
        index.insert(&fresh).await?;
        let gone: Vec<String> = known.difference(&listed).cloned().collect();
        index.remove(&gone).await
    }

    /// Rebuild the index from the records (the source of truth), through `reader` (a
    /// local directory or object storage alike), and mark it in step; a no-op without
    /// one.
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
        index.clear().await?;
        // The state now, before the listing: a record written meanwhile changes it, so
        // the next query catches up again.
        let token = index.changed().await?;
        self.catch_up(index, reader).await?;
        match token {
            Some(token) => index.synced(&token).await,
            None => Ok(()),
        }
    }
}
