//! Finding knowledge: records (cached, loaded once, unreadable ones reported), queries,
//! and the tool-result overview.

use super::query::{OffloadInfo, Query};
use super::record::{KnowledgeRecord, TOOL_RESULT_CONTEXT_TYPE};
use super::store::Workspace;
use crate::{error::OffloadError, io::FileReader, io::IoError};
use serde_json::Value;

impl Workspace {
    /// The record of `id`, if stored (from the cache, else its file).
    ///
    /// # Errors
    /// `INVALID_ID`; `READ_FAILED`, also for a record file that is not a record.
    pub async fn record<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Option<KnowledgeRecord>, OffloadError> {
        self.content_path(id, super::record::KnowledgeType::Text)?;
        // Another process wrote (the index says): maybe a record rewritten in place.
        if let Some(index) = self.index.as_deref() {
            if index.changed().await?.is_some() {
                self.forget_records();
            }
        }
        self.read_record(id, reader).await
    }

    pub(super) async fn read_record<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Option<KnowledgeRecord>, OffloadError> {
        match self.cached_load(id, reader).await? {
            Loaded::Missing => Ok(None),
            Loaded::Record(record) => Ok(Some(record)),
            Loaded::Unreadable(err) => Err(err),
        }
    }

    /// [`Workspace::load`] through the cache: a record read is kept.
    async fn cached_load<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Loaded, OffloadError> {
        if let Some(record) = self.cached(id) {
            return Ok(Loaded::Record(record));
        }
        let loaded = self.load(id, reader).await?;
        if let Loaded::Record(record) = &loaded {
            self.cache(record.clone());
        }
        Ok(loaded)
    }

    /// What the record file of `id` holds, not cached (an index sync reads thousands).
    /// `Err` only when the file cannot be read at all.
    pub(super) async fn load<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Loaded, OffloadError> {
        let path = self.record_path(id);
        let failed = |source| OffloadError::ReadFailed {
            path: path.clone(),
            source,
        };
        let Some(text) = reader.read_file(&path).await.map_err(failed)? else {
            return Ok(Loaded::Missing);
        };
        let record = match (self.options.parse_json)(&text).and_then(KnowledgeRecord::from_value) {
            Ok(record) => record,
            Err(reason) => {
                let why = format!("not a knowledge record: {reason}");
                return Ok(Loaded::Unreadable(failed(IoError::new(why))));
            }
        };
        if record.id != id {
            let why = format!("not a knowledge record: its id is {:?}", record.id);
            return Ok(Loaded::Unreadable(failed(IoError::new(why))));
        }
        Ok(Loaded::Record(record))
    }

    /// For a walk over every record: the record of `id` (cached), or `None` when its
    /// file is gone or is no record, which is then reported in
    /// [`Workspace::skipped_records`] rather than failing the walk.
    pub(super) async fn scan_record<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<Option<KnowledgeRecord>, OffloadError> {
        match self.cached_load(id, reader).await? {
            Loaded::Missing => Ok(None),
            Loaded::Record(record) => Ok(Some(record)),
            Loaded::Unreadable(err) => {
                self.skip(id, &err);
                Ok(None)
            }
        }
    }

    /// The record files the last walk over every record (a scan query, an index catching
    /// up, `rebuild_index`) left out because they hold no record (truncated, emptied,
    /// garbage): each id with why. [`Workspace::get_by_id`] of one still fails with
    /// `READ_FAILED` saying so; the rest of the namespace answers.
    ///
    /// ```
    /// use tool_offload_core::workspace::{Query, Workspace, WorkspaceOptions};
    /// use tool_offload_core::{FileWriter, MemoryWriter};
    /// let ws = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// futures_executor::block_on(async {
    ///     io.mkdir("/data/context/default/records").await.unwrap();
    ///     io.write_file("/data/context/default/records/bad.json", "{\"id\":").await.unwrap();
    ///     let found = ws.query(&Query::new(Default::default()), &io).await.unwrap();
    ///     assert!(found.is_empty());
    /// });
    /// assert_eq!(ws.skipped_records()[0].0, "bad");
    /// ```
    pub fn skipped_records(&self) -> Vec<(String, String)> {
        let mut skipped = self
            .skipped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        crate::sort::sort_by(&mut skipped, |a, b| a.0.cmp(&b.0));
        skipped
    }

    /// A walk over every record begins: what the last one skipped is forgotten.
    pub(super) fn begin_walk(&self) {
        self.skipped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    pub(super) fn skip(&self, id: &str, err: &OffloadError) {
        let mut skipped = self.skipped.lock().unwrap_or_else(|p| p.into_inner());
        // (A list, not a map: there are few, and a map's code would weigh on the wasm.)
        skipped.retain(|(known, _)| known != id);
        skipped.push((id.to_owned(), err.to_string()));
    }

    fn cached(&self, id: &str) -> Option<KnowledgeRecord> {
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(id)
            .cloned()
    }

    /// Every record of the namespace: the directory is listed each time (other
    /// processes store too), and only records not seen before are read.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn records<R: FileReader + ?Sized>(
        &self,
        reader: &R,
    ) -> Result<Vec<KnowledgeRecord>, OffloadError> {
        let ids = self.record_ids(reader).await?;
        self.begin_walk();
        let mut records = Vec::with_capacity(ids.len());
        for id in &ids {
            if let Some(record) = self.scan_record(id, reader).await? {
                records.push(record);
            }
        }
        Ok(records)
    }

    /// The ids of the record files in the records directory.
    pub(super) async fn record_ids<R: FileReader + ?Sized>(
        &self,
        reader: &R,
    ) -> Result<Vec<String>, OffloadError> {
        let names = reader.list_dir(&self.records_dir).await.map_err(|source| {
            OffloadError::ReadFailed {
                path: self.records_dir.clone(),
                source,
            }
        })?;
        // Anything else (a writer's temporary file) is not a record.
        Ok(names
            .iter()
            .filter_map(|name| name.strip_suffix(".json").map(str::to_owned))
            .collect())
    }

    /// The records `query` selects, newest first: ids and metadata, never content.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn query<R: FileReader + ?Sized>(
        &self,
        query: &Query,
        reader: &R,
    ) -> Result<Vec<KnowledgeRecord>, OffloadError> {
        if let Some(index) = self.index.as_deref() {
            self.sync_index(index, reader).await?;
            return index.query(query).await;
        }
        // Every record on disk into the cache (only those not read before are read),
        // then the query over the cache in place: only the page is copied out.
        let ids = self.record_ids(reader).await?;
        self.begin_walk();
        let mut present = Vec::with_capacity(ids.len());
        for id in ids {
            if self.cached_has(&id) || self.scan_record(&id, reader).await?.is_some() {
                present.push(id);
            }
        }
        let cache = self.records.lock().unwrap_or_else(|p| p.into_inner());
        let on_disk = present.iter().filter_map(|id| cache.get(id));
        Ok(query.select(on_disk).into_iter().cloned().collect())
    }

    fn cached_has(&self, id: &str) -> bool {
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(id)
    }

    /// The stored tool results, newest first (the latest [`MAX_QUERY_LIMIT`](super::query::MAX_QUERY_LIMIT)), of a
    /// task and/or session when given.
    ///
    /// # Errors
    /// `READ_FAILED`.
    pub async fn tool_result_offload_info<R: FileReader + ?Sized>(
        &self,
        task_id: Option<&str>,
        session_id: Option<&str>,
        reader: &R,
    ) -> Result<Vec<OffloadInfo>, OffloadError> {
        let mut query = Query::new(serde_json::Map::new());
        query
            .filter
            .insert("context_type".into(), TOOL_RESULT_CONTEXT_TYPE.into());
        for (key, value) in [("task_id", task_id), ("session_id", session_id)] {
            if let Some(value) = value {
                query.filter.insert(key.into(), Value::from(value));
            }
        }
        query.limit = super::query::MAX_QUERY_LIMIT;
        let records = self.query(&query, reader).await?;
        Ok(records.iter().filter_map(OffloadInfo::of).collect())
    }
}

/// What a record file holds.
pub(super) enum Loaded {
    /// No file.
    Missing,
    /// A record.
    Record(KnowledgeRecord),
    /// Something else (truncated, emptied, garbage, another id's record): `READ_FAILED`
    /// saying why.
    Unreadable(OffloadError),
}
