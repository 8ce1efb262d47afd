//! Storing one knowledge artifact: its content, then its record (the commit point), as
//! one unit under concurrency; the naming rule for a taken id.

use super::io_types::{Content, Stored};
use super::record::{KnowledgeRecord, KnowledgeType};
use super::store::Workspace;
use super::time::iso8601;
use crate::create::{
    create_unless_taken, Creation, Payload, Payloads, SameData, MAX_NAME_ATTEMPTS,
};
use crate::path::join;
use crate::{error::OffloadError, io::CreateOutcome, io::FileReader, io::FileWriter};
use serde_json::{Map, Value};

impl Workspace {
    /// Store `text` as `id`, or, when `numbered` and `id` holds a different content, as
    /// the first of `id-1`, `id-2`… that is free or holds the same (the naming rule of
    /// every tool-offload store: nothing is ever overwritten). Not numbered, a taken id
    /// is `ARTIFACT_EXISTS`.
    pub(super) async fn store<IO: FileWriter + FileReader + ?Sized>(
        &self,
        id: &str,
        content: &Content<'_>,
        metadata: Map<String, Value>,
        numbered: bool,
        now_ms: f64,
        io: &IO,
    ) -> Result<Stored, OffloadError> {
        let Content {
            text,
            kind,
            measure,
            ref sha256,
        } = *content;
        let mut last = String::new();
        for number in 0..MAX_NAME_ATTEMPTS {
            let id = match number {
                0 => id.to_owned(),
                n => format!("{id}-{n}"),
            };
            let path = self.content_path(&id, kind)?;
            let taken = match self.read_record(&id, io).await? {
                Some(existing) if same_content(&existing, sha256, kind) => {
                    return Ok(reused(existing, path));
                }
                Some(_) => path,
                None => {
                    let record = KnowledgeRecord::new(
                        &id,
                        kind,
                        metadata.clone(),
                        measure,
                        sha256.clone(),
                        iso8601(now_ms),
                    );
                    match self.place(text, record, path, io).await? {
                        Placement::Stored(stored) => return Ok(stored),
                        Placement::Taken(path) => path,
                    }
                }
            };
            if !numbered {
                return Err(OffloadError::ArtifactExists(taken));
            }
            last = taken;
        }
        Err(OffloadError::WriteFailed {
            path: last,
            source: crate::io::IoError::new(format!(
                "no free id: {MAX_NAME_ATTEMPTS} candidates are all taken by other content"
            )),
        })
    }

    /// Store `record` and its content `text` at `path` as one unit, or
    /// `ARTIFACT_EXISTS` when the id holds a different content (see [`Workspace::place`]).
    pub(super) async fn commit<IO: FileWriter + FileReader + ?Sized>(
        &self,
        text: &str,
        record: KnowledgeRecord,
        path: String,
        io: &IO,
    ) -> Result<Stored, OffloadError> {
        match self.place(text, record, path, io).await? {
            Placement::Stored(stored) => Ok(stored),
            Placement::Taken(path) => Err(OffloadError::ArtifactExists(path)),
        }
    }

    /// Write `text` to `path`, then `record` (the commit point), each exclusively, so a
    /// record and its content are one unit: the content is never overwritten, and a
    /// record is only written by a writer that found its own content at `path`. Of
    /// concurrent stores of one id (threads, processes, an object store), one content
    /// wins; a store of the same content shares it, any other finds the id taken. A
    /// content left without its record (a crash between the two writes, or a store
    /// still in flight) is adopted by the same content and taken for any other.
    async fn place<IO: FileWriter + FileReader + ?Sized>(
        &self,
        text: &str,
        record: KnowledgeRecord,
        path: String,
        io: &IO,
    ) -> Result<Placement, OffloadError> {
        for dir in [&self.knowledge_dir, &self.records_dir] {
            io.mkdir(dir)
                .await
                .map_err(crate::create::dir_failed(dir))?;
        }
        // As the Materializer and import create theirs: one copy of the exclusive create.
        let text_payload = Payload::Text(text);
        let same = SameData::of(&text_payload);
        if create_unless_taken(&Payloads(io), &path, &text_payload, &same).await? == Creation::Taken
        {
            return Ok(Placement::Taken(path));
        }
        self.artifacts.write_line_index(&path, text, io).await;
        // Whether the index is in step before this write: then, once the record is in
        // it too, it still is (see `indexed`).
        let in_step = match &self.index {
            Some(index) => index.changed().await?.is_none(),
            None => false,
        };
        let record_path = self.record_path(&record.id);
        let created = io
            .create_file(&record_path, &record.to_json())
            .await
            .map_err(|source| OffloadError::WriteFailed {
                path: record_path.clone(),
                source,
            })?;
        if created == CreateOutcome::Exists {
            // Stored by someone else meanwhile: the same content (which is what `path`
            // holds), or a record of another kind.
            let sha256 = record.sha256().unwrap_or_default();
            return Ok(match self.read_record(&record.id, io).await? {
                Some(existing) if same_content(&existing, sha256, record.kind) => {
                    Placement::Stored(reused(existing, path))
                }
                _ => Placement::Taken(path),
            });
        }
        self.indexed(&record, in_step).await?;
        self.cache(record.clone());
        Ok(Placement::Stored(Stored {
            record,
            path,
            reused: false,
        }))
    }

    /// Add a record just written to the index; when the index was in step before the
    /// write, mark it in step with the directory as it is now, so a query does not list
    /// the directory again for this process's own writes. (A foreign write landing between
    /// the two checks is caught at the directory's next change, or by `rebuild_index`.)
    async fn indexed(&self, record: &KnowledgeRecord, in_step: bool) -> Result<(), OffloadError> {
        let Some(index) = &self.index else {
            return Ok(());
        };
        index.insert(std::slice::from_ref(record)).await?;
        if in_step {
            if let Some(token) = index.changed().await? {
                index.synced(&token).await?;
            }
        }
        Ok(())
    }

    /// `records/<id>.json`.
    pub(super) fn record_path(&self, id: &str) -> String {
        join(&self.records_dir, &format!("{id}.json"))
    }

    /// The existing record of an id being stored again: reused when the content is the
    /// same, else `ARTIFACT_EXISTS`.
    pub(super) fn reuse(
        &self,
        existing: KnowledgeRecord,
        sha256: &str,
        kind: KnowledgeType,
        path: String,
    ) -> Result<Stored, OffloadError> {
        if !same_content(&existing, sha256, kind) {
            return Err(OffloadError::ArtifactExists(path));
        }
        Ok(reused(existing, path))
    }

    /// `artifacts/knowledge/<id>.<ext>`, after checking the id names a file.
    pub(super) fn content_path(
        &self,
        id: &str,
        kind: KnowledgeType,
    ) -> Result<String, OffloadError> {
        // A character XML cannot hold could not name the artifact in a <knowledge_list>.
        let xml = id
            .chars()
            .any(super::knowledge_list::unrepresentable)
            .then_some("contains a control character, which a <knowledge_list> cannot carry");
        if let Some(reason) =
            xml.or_else(|| crate::forms::reference::unsafe_ref_component(id, ".json.lines".len()))
        {
            return Err(OffloadError::InvalidId {
                field: "id".into(),
                value: Some(id.into()),
                reason,
            });
        }
        Ok(join(
            &self.knowledge_dir,
            &format!("{id}.{}", kind.extension()),
        ))
    }

    pub(super) fn cache(&self, record: KnowledgeRecord) {
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(record.id.clone(), record);
    }

    /// The records read so far are forgotten (another process may have rewritten one in
    /// place: `tool-offload redact`): the next reads read their files again.
    pub(super) fn forget_records(&self) {
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }
}

/// What [`Workspace::place`] did.
enum Placement {
    /// Stored (or found stored with the same content).
    Stored(Stored),
    /// The id holds another content; its content path.
    Taken(String),
}

/// Whether `existing` records a content with this SHA-256 and kind.
fn same_content(existing: &KnowledgeRecord, sha256: &str, kind: KnowledgeType) -> bool {
    existing.sha256() == Some(sha256) && existing.kind == kind
}

fn reused(record: KnowledgeRecord, path: String) -> Stored {
    Stored {
        record,
        path,
        reused: true,
    }
}
