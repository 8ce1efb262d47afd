//! Keeping a host's [`RecordIndex`] in step with the records.

use std::collections::HashSet;

use super::find::Loaded;
use super::record_index::RecordIndex;
use super::store::Workspace;
use crate::{error::OffloadError, io::FileReader};

impl Workspace {
    /// Catch the index up with the records, when it may be behind: records it lacks are
    /// read and added, ids whose records are gone dropped; and the records cached here
    /// forgotten (another process wrote, maybe rewrote one in place: `tool-offload
    /// redact`, which puts it in the index again itself).
    pub(super) async fn sync_index<R: FileReader + ?Sized>(
        &self,
        index: &dyn RecordIndex,
        reader: &R,
    ) -> Result<(), OffloadError> {
        let Some(token) = index.changed().await? else {
            return Ok(());
        };
        self.forget_records();
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
