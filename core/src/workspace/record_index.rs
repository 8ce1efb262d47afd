//! [`RecordIndex`]: a host's index of the records (SQLite or PostgreSQL natively), kept
//! in step with the records by core.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

use super::query::Query;
use super::record::KnowledgeRecord;
use crate::error::OffloadError;

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
    /// [`MAX_QUERY_LIMIT`](super::query::MAX_QUERY_LIMIT)).
    ///
    /// # Errors
    /// `READ_FAILED`.
    fn query<'a>(&'a self, query: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>>;
}
