//! [`PostgresIndex`] as the workspace's [`RecordIndex`]: each call once more on a new
//! connection when the connection was lost
//! ([`Connection::retrying`](super::connection::Connection::retrying)).

use std::collections::HashSet;

use tool_offload_core::workspace::{IndexFuture, KnowledgeRecord, Query, RecordIndex};
use tool_offload_core::OffloadError;

use super::index::PostgresIndex;

impl PostgresIndex {
    /// `op` as [`Connection::retrying`](super::connection::Connection::retrying) runs it,
    /// boxed as the trait's futures are.
    fn retrying<'a, T: Send + 'a, Fut>(
        &'a self,
        op: impl Fn() -> Fut + Send + Sync + 'a,
    ) -> IndexFuture<'a, T>
    where
        Fut: std::future::Future<Output = Result<T, OffloadError>> + Send + 'a,
    {
        Box::pin(self.connection.retrying(&self.namespace, op))
    }
}

impl RecordIndex for PostgresIndex {
    fn changed(&self) -> IndexFuture<'_, Option<String>> {
        self.retrying(|| self.changed_now())
    }
    fn synced<'a>(&'a self, token: &'a str) -> IndexFuture<'a, ()> {
        self.retrying(|| self.synced_now(token))
    }
    fn ids(&self) -> IndexFuture<'_, HashSet<String>> {
        self.retrying(|| self.ids_now())
    }
    fn insert<'a>(&'a self, records: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()> {
        self.retrying(|| self.insert_now(records))
    }
    fn remove<'a>(&'a self, ids: &'a [String]) -> IndexFuture<'a, ()> {
        self.retrying(|| self.remove_now(ids))
    }
    fn clear(&self) -> IndexFuture<'_, ()> {
        self.retrying(|| self.clear_now())
    }
    fn query<'a>(&'a self, query: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>> {
        self.retrying(|| self.query_now(query))
    }
}
