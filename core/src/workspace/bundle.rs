//! Export and import of a namespace: every record with its content and SHA-256, in one
//! self-contained JSON bundle.

use super::record::KnowledgeRecord;
use super::store::Workspace;
use crate::sha256::sha256_hex;
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::{Map, Value};

/// A workspace bundle's `format` field.
pub const WORKSPACE_BUNDLE_FORMAT: &str = "tool-offload/workspace";
/// A workspace bundle's `version` field.
pub const WORKSPACE_BUNDLE_VERSION: u64 = 1;

impl Workspace {
    /// Every knowledge artifact of the namespace, by id:
    /// `{ format, version, namespace, items: [{ record, sha256, content }] }`.
    ///
    /// # Errors
    /// `REF_NOT_FOUND` when a record's content is missing; `READ_FAILED`.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::workspace::{KnowledgeInput, KnowledgeType, Workspace, WorkspaceOptions};
    /// use tool_offload_core::MemoryWriter;
    /// # futures_executor::block_on(async {
    /// let (old, new) = (MemoryWriter::new(), MemoryWriter::new());
    /// let ws = Workspace::new(WorkspaceOptions::new("/a", "/")).unwrap();
    /// let metadata = json!({"context_type": "note"}).as_object().unwrap().clone();
    /// let note = KnowledgeInput { id: "n1", text: "remember", kind: KnowledgeType::Text, metadata, known: Default::default() };
    /// ws.add(&note, 0.0, &old).await.unwrap();
    /// let bundle = ws.export_namespace(&old).await.unwrap();
    /// let elsewhere = Workspace::new(WorkspaceOptions::new("/b", "/")).unwrap();
    /// assert_eq!(elsewhere.import_namespace(&bundle, &new).await.unwrap(), ["n1"]);
    /// assert_eq!(elsewhere.get_by_id("n1", &new).await.unwrap().content, "remember");
    /// # });
    /// ```
    pub async fn export_namespace<R: FileReader + ?Sized>(
        &self,
        reader: &R,
    ) -> Result<Value, OffloadError> {
        let mut records = self.records(reader).await?;
        crate::sort::sort_by(&mut records, |a, b| a.id.cmp(&b.id));
        let mut items = Vec::with_capacity(records.len());
        for record in records {
            let knowledge = self.get_by_id(&record.id, reader).await?;
            let mut item = Map::new();
            item.insert("record".into(), record.to_value());
            item.insert("sha256".into(), sha256_hex(&knowledge.content).into());
            item.insert("content".into(), knowledge.content.into());
            items.push(Value::Object(item));
        }
        let mut bundle = Map::new();
        bundle.insert("format".into(), WORKSPACE_BUNDLE_FORMAT.into());
        bundle.insert("version".into(), WORKSPACE_BUNDLE_VERSION.into());
        bundle.insert("namespace".into(), self.options.namespace.as_str().into());
        bundle.insert("items".into(), Value::Array(items));
        Ok(Value::Object(bundle))
    }

    /// Restore a bundle from [`Workspace::export_namespace`] into this workspace's
    /// namespace (whatever namespace it was exported from); records keep their metadata.
    /// Everything is checked before anything is written: the format, each record, each
    /// content's SHA-256 (against the item's and the record's), each id, and that no id
    /// already holds a different content (an identical one is left as it is). Returns
    /// the ids, in bundle order.
    ///
    /// # Errors
    /// `INVALID_BUNDLE`, `ARTIFACT_EXISTS`, `READ_FAILED`, `WRITE_FAILED`.
    pub async fn import_namespace<IO: FileWriter + FileReader + ?Sized>(
        &self,
        bundle: &Value,
        io: &IO,
    ) -> Result<Vec<String>, OffloadError> {
        let items = checked_items(bundle)?;
        let mut fresh = Vec::new();
        for (record, content) in &items {
            let path = self
                .content_path(&record.id, record.kind)
                .map_err(|e| OffloadError::InvalidBundle(format!("item {:?}: {e}", record.id)))?;
            match self.read_record(&record.id, io).await? {
                None => fresh.push((record, *content, path)),
                Some(existing) => {
                    self.reuse(
                        existing,
                        record.sha256().unwrap_or_default(),
                        record.kind,
                        path,
                    )?;
                }
            }
        }
        for (record, content, path) in fresh {
            self.commit(content, record.clone(), path, io).await?;
        }
        Ok(items.into_iter().map(|(record, _)| record.id).collect())
    }
}

/// The bundle's items, each checked: a record, a string content whose SHA-256 is the
/// item's and the record's; ids unique.
fn checked_items(bundle: &Value) -> Result<Vec<(KnowledgeRecord, &str)>, OffloadError> {
    let invalid = |why: String| OffloadError::InvalidBundle(why);
    if bundle.get("format").and_then(Value::as_str) != Some(WORKSPACE_BUNDLE_FORMAT) {
        return Err(invalid(format!(
            "format must be {WORKSPACE_BUNDLE_FORMAT:?}"
        )));
    }
    if bundle.get("version").and_then(Value::as_u64) != Some(WORKSPACE_BUNDLE_VERSION) {
        return Err(invalid(format!(
            "version must be {WORKSPACE_BUNDLE_VERSION}"
        )));
    }
    let Some(items) = bundle.get("items").and_then(Value::as_array) else {
        return Err(invalid("items must be an array".into()));
    };
    let mut checked = Vec::with_capacity(items.len());
    let mut ids = std::collections::HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let record = item
            .get("record")
            .ok_or_else(|| "no record".to_owned())
            .and_then(|r| KnowledgeRecord::from_value(r.clone()))
            .map_err(|why| invalid(format!("items[{i}]: {why}")))?;
        let Some(content) = item.get("content").and_then(Value::as_str) else {
            return Err(invalid(format!("items[{i}]: content must be a string")));
        };
        let sha256 = sha256_hex(content);
        if item.get("sha256").and_then(Value::as_str) != Some(&sha256)
            || record.sha256() != Some(&sha256)
        {
            return Err(invalid(format!(
                "items[{i}] ({:?}): its content does not match its SHA-256",
                record.id
            )));
        }
        if !ids.insert(record.id.clone()) {
            return Err(invalid(format!(
                "items[{i}]: id {:?} appears twice",
                record.id
            )));
        }
        checked.push((record, content));
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{ToolResultInput, WorkspaceOptions};
    use crate::{error::ErrorCode, memory::MemoryWriter};
    use futures_executor::block_on;

    fn workspace(root: &str, namespace: &str) -> Workspace {
        let mut options = WorkspaceOptions::new(root, "/");
        options.namespace = namespace.into();
        Workspace::new(options).unwrap()
    }

    #[test]
    fn a_namespace_moves_whole_and_checked() {
        let (old, new) = (MemoryWriter::new(), MemoryWriter::new());
        let ws = workspace("/a", "team-a");
        let big = "e\n".repeat(30_000);
        for call in ["c2", "c1"] {
            let input = ToolResultInput::text(call, "bash", &big);
            block_on(ws.offload_tool_result(&input, None, 1.0, &old)).unwrap();
        }
        let bundle = block_on(ws.export_namespace(&old)).unwrap();
        assert_eq!(bundle["namespace"], "team-a");
        let target = workspace("/b", "team-b");
        let ids = block_on(target.import_namespace(&bundle, &new)).unwrap();
        assert_eq!(ids, ["tool_result_c1", "tool_result_c2"]);
        let record = block_on(target.record("tool_result_c1", &new))
            .unwrap()
            .unwrap();
        assert_eq!(
            record,
            block_on(ws.record("tool_result_c1", &old))
                .unwrap()
                .unwrap()
        );
        let page = block_on(target.get_by_lines("tool_result_c2", 1, 1, &new)).unwrap();
        assert!(page.ends_with("\n1| e"), "{page}");
        // Again: identical, so nothing changes.
        assert_eq!(
            block_on(target.import_namespace(&bundle, &new))
                .unwrap()
                .len(),
            2
        );

        let mut forged = bundle.clone();
        forged["items"][1]["content"] = "tampered".into();
        let err = block_on(target.import_namespace(&forged, &new)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidBundle);
        assert!(
            err.to_string().contains("does not match its SHA-256"),
            "{err}"
        );

        let mut clash = bundle.clone();
        let other = "other";
        clash["items"][0]["content"] = other.into();
        clash["items"][0]["sha256"] = sha256_hex(other).into();
        clash["items"][0]["record"]["metadata"]["sha256"] = sha256_hex(other).into();
        let err = block_on(target.import_namespace(&clash, &new)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ArtifactExists);

        // The item's hash matches its content, the record's does not.
        let mut stale = bundle.clone();
        stale["items"][0]["record"]["metadata"]["sha256"] = sha256_hex("something else").into();
        let err = block_on(target.import_namespace(&stale, &MemoryWriter::new())).unwrap_err();
        assert!(
            err.to_string().contains("does not match its SHA-256"),
            "{err}"
        );

        let mut escape = bundle.clone();
        escape["items"][0]["record"]["id"] = "../x".into();
        let err = block_on(target.import_namespace(&escape, &MemoryWriter::new())).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidBundle);
        let mut twice = bundle;
        twice["items"][1] = twice["items"][0].clone();
        let err = block_on(target.import_namespace(&twice, &MemoryWriter::new())).unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
    }
}
