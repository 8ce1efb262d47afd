//! Knowledge redacted in place: content and record agree afterwards, a fresh workspace
//! reads the redacted text, and a run stopped between the two writes is finished by
//! the next.
use futures_executor::block_on;
use serde_json::json;

use crate::sha256::sha256_hex;

use crate::text::measure::Measure;
use crate::workspace::{
    KnowledgeInput, KnowledgeRecord, KnowledgeType, Workspace, WorkspaceOptions,
};
use crate::{io::FileWriter, memory::MemoryWriter, redact_tree::redact_tree};
use serde_json::{Map, Value};

const KEY: &str = "AKIAIOSFODNN7EXAMPLE";
const CONTENT: &str = "/data/context/default/artifacts/knowledge/env.txt";
const RECORD: &str = "/data/context/default/records/env.json";

fn workspace() -> Workspace {
    Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap()
}

/// A workspace holding `env`: a text with the key, and metadata naming it too.
fn stored() -> MemoryWriter {
    let io = MemoryWriter::new();
    let Value::Object(metadata) =
        json!({"context_type": "note", "command": format!("export AWS_ACCESS_KEY_ID={KEY}")})
    else {
        unreachable!()
    };
    let text = format!("line one\nAWS_ACCESS_KEY_ID={KEY}\nline three\n");
    let input = KnowledgeInput {
        id: "env",
        text: &text,
        kind: KnowledgeType::Text,
        metadata: metadata as Map<String, Value>,
        known: Default::default(),
    };
    block_on(workspace().add(&input, 0.0, &io)).unwrap();
    io
}

#[test]
fn knowledge_and_its_record_are_redacted_together() {
    let io = stored();
    let dry = block_on(redact_tree("/data", true, &io)).unwrap();
    assert_eq!(dry.rewritten, [CONTENT]);
    assert_eq!(dry.counts, [("aws-access-key".to_owned(), 2)]);
    assert!(
        io.read(CONTENT).unwrap().contains(KEY),
        "a dry run writes nothing"
    );

    let report = block_on(redact_tree("/data", false, &io)).unwrap();
    assert_eq!(report.rewritten, [CONTENT]);
    assert_eq!(report.namespaces, ["default"]);
    assert!(report.skipped.is_empty());
    let content = io.read(CONTENT).unwrap();
    assert_eq!(
        content,
        "line one\nAWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\nline three\n"
    );
    let record = KnowledgeRecord::parse(&io.read(RECORD).unwrap()).unwrap();
    let measure = Measure::of(&content);
    assert_eq!(record.metadata["chars"], json!(measure.chars));
    assert_eq!(record.metadata["bytes"], json!(measure.bytes));
    assert_eq!(record.metadata["lines"], json!(3));
    assert_eq!(record.sha256(), Some(sha256_hex(&content).as_str()));
    assert_eq!(
        record.metadata["command"],
        "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]"
    );
    let keys: Vec<&String> = record.metadata.keys().collect();
    assert_eq!(
        keys,
        [
            "context_type",
            "command",
            "chars",
            "bytes",
            "lines",
            "sha256",
            "created_at",
            "redacted"
        ],
        "the facts stay where they were, the count after them"
    );
    assert_eq!(record.metadata["redacted"], json!({"aws-access-key": 2}));
    // A fresh workspace reads the redacted content under the rewritten record.
    let read = block_on(workspace().get_by_id("env", &io)).unwrap();
    assert_eq!(read.content, content);
    // Again: nothing left to do.
    let again = block_on(redact_tree("/data", false, &io)).unwrap();
    assert!(again.rewritten.is_empty() && again.namespaces.is_empty());
}

#[test]
fn a_run_stopped_after_the_record_is_finished_by_the_next() {
    // The content's write fails: the record, written first, is the redacted one.
    let io = stored().fail_on(CONTENT);
    let err = block_on(redact_tree("/data", false, &io)).unwrap_err();
    assert_eq!(err.code().as_str(), "WRITE_FAILED");
    let record = io.read(RECORD).unwrap();
    assert!(!record.contains(KEY) && record.contains("[REDACTED:aws-access-key]"));
    assert!(io.read(CONTENT).unwrap().contains(KEY));
    // The next run (on the same files, writing freely) finds the content's key and
    // writes the same record again.
    let io = copy_of(&io);
    let report = block_on(redact_tree("/data", false, &io)).unwrap();
    assert_eq!(report.rewritten, [CONTENT]);
    assert_eq!(
        report.counts,
        [("aws-access-key".to_owned(), 1)],
        "the content's key only"
    );
    assert!(!io.read(CONTENT).unwrap().contains(KEY));
    assert_eq!(io.read(RECORD).unwrap(), record);
}

/// A writer holding the same files as `io`.
fn copy_of(io: &MemoryWriter) -> MemoryWriter {
    let copy = MemoryWriter::new();
    for (path, text) in io.files() {
        let dir = &path[..path.rfind('/').unwrap()];
        block_on(copy.mkdir(dir)).unwrap();
        block_on(copy.write_file(&path, &text)).unwrap();
    }
    copy
}

#[test]
fn content_without_a_usable_record_is_redacted_alone() {
    let io = stored();
    block_on(io.write_file(RECORD, "{not a record")).unwrap();
    let report = block_on(redact_tree("/data", false, &io)).unwrap();
    assert_eq!(report.rewritten, [CONTENT]);
    assert!(report.namespaces.is_empty());
    assert_eq!(io.read(RECORD).unwrap(), "{not a record");
    assert!(!io.read(CONTENT).unwrap().contains(KEY));
}

#[test]
fn nested_metadata_is_redacted_and_a_namespace_named_once() {
    let io = stored();
    let Value::Object(metadata) = json!({
        "context_type": "note",
        "env": {"keys": [format!("id {KEY}")]},
    }) else {
        unreachable!()
    };
    let input = KnowledgeInput {
        id: "nested",
        text: "no secret in the text\n",
        kind: KnowledgeType::Text,
        metadata,
        known: Default::default(),
    };
    block_on(workspace().add(&input, 0.0, &io)).unwrap();
    let report = block_on(redact_tree("/data", false, &io)).unwrap();
    assert_eq!(report.scanned, 2);
    // Only the second one's record held a secret: the record is what was rewritten.
    let record = "/data/context/default/records/nested.json";
    assert_eq!(report.rewritten, [CONTENT, record]);
    assert_eq!(report.namespaces, ["default"]);
    assert_eq!(report.counts, [("aws-access-key".to_owned(), 3)]);
    let record = io
        .read("/data/context/default/records/nested.json")
        .unwrap();
    let record = KnowledgeRecord::parse(&record).unwrap();
    assert_eq!(
        record.metadata["env"],
        json!({"keys": ["id [REDACTED:aws-access-key]"]})
    );
    assert_eq!(
        io.read("/data/context/default/artifacts/knowledge/nested.txt")
            .unwrap(),
        "no secret in the text\n"
    );
}

/// An index in memory, by id.
#[derive(Default)]
struct Rows(std::sync::Mutex<std::collections::BTreeMap<String, KnowledgeRecord>>);

impl crate::workspace::RecordIndex for Rows {
    fn changed(&self) -> crate::workspace::IndexFuture<'_, Option<String>> {
        Box::pin(async { Ok(None) })
    }
    fn synced<'a>(&'a self, _: &'a str) -> crate::workspace::IndexFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }
    fn ids(&self) -> crate::workspace::IndexFuture<'_, std::collections::HashSet<String>> {
        let ids = self.0.lock().unwrap().keys().cloned().collect();
        Box::pin(async { Ok(ids) })
    }
    fn insert<'a>(
        &'a self,
        records: &'a [KnowledgeRecord],
    ) -> crate::workspace::IndexFuture<'a, ()> {
        let mut rows = self.0.lock().unwrap();
        for r in records {
            rows.insert(r.id.clone(), r.clone());
        }
        Box::pin(async { Ok(()) })
    }
    fn remove<'a>(&'a self, ids: &'a [String]) -> crate::workspace::IndexFuture<'a, ()> {
        let mut rows = self.0.lock().unwrap();
        ids.iter().for_each(|id| drop(rows.remove(id)));
        Box::pin(async { Ok(()) })
    }
    fn clear(&self) -> crate::workspace::IndexFuture<'_, ()> {
        self.0.lock().unwrap().clear();
        Box::pin(async { Ok(()) })
    }
    fn query<'a>(
        &'a self,
        query: &'a crate::workspace::Query,
    ) -> crate::workspace::IndexFuture<'a, Vec<KnowledgeRecord>> {
        let rows = self.0.lock().unwrap();
        let page = query.select(rows.values()).into_iter().cloned().collect();
        Box::pin(async { Ok(page) })
    }
}

/// Given the namespace's index, the run puts each rewritten record into it: a workspace
/// querying through it, open before the run, gets the record of the redacted content
/// (an index's sync adds and drops ids, it never reads a record it has again).
#[test]
fn the_index_gets_the_rewritten_record() {
    use std::sync::Arc;
    let rows = Arc::new(Rows::default());
    let index: Arc<dyn crate::workspace::RecordIndex> = rows.clone();
    let ws = workspace().with_index(index.clone());
    let io = MemoryWriter::new();
    let text = format!("AWS_ACCESS_KEY_ID={KEY}\n");
    let Value::Object(metadata) = json!({"context_type": "note"}) else {
        unreachable!()
    };
    let input = KnowledgeInput {
        id: "env",
        text: &text,
        kind: KnowledgeType::Text,
        metadata,
        known: Default::default(),
    };
    block_on(ws.add(&input, 0.0, &io)).unwrap();
    let all = crate::workspace::Query::new(Default::default());
    let old = block_on(ws.query(&all, &io)).unwrap();
    assert_eq!(old[0].sha256(), Some(sha256_hex(&text).as_str()));

    let asked = std::sync::Mutex::new(Vec::new());
    let index_of = |namespace: &str| {
        asked.lock().unwrap().push(namespace.to_owned());
        Some(index.clone())
    };
    let redaction = crate::redact::Redaction::builtin();
    let dry = block_on(crate::redact_tree::redact_tree_indexed(
        "/data", &redaction, true, &io, &index_of,
    ));
    assert_eq!(dry.unwrap().namespaces, ["default"]);
    assert_eq!(
        block_on(ws.query(&all, &io)).unwrap(),
        old,
        "a dry run writes nothing"
    );

    block_on(crate::redact_tree::redact_tree_indexed(
        "/data", &redaction, false, &io, &index_of,
    ))
    .unwrap();
    let content = io.read(CONTENT).unwrap();
    let new = block_on(ws.query(&all, &io)).unwrap();
    assert_eq!(new.len(), 1);
    assert_eq!(new[0].sha256(), Some(sha256_hex(&content).as_str()));
    assert_eq!(new[0].metadata["redacted"], json!({"aws-access-key": 1}));
    assert_eq!(
        new[0],
        KnowledgeRecord::parse(&io.read(RECORD).unwrap()).unwrap()
    );
    assert_eq!(
        *asked.lock().unwrap(),
        ["default", "default"],
        "once per run"
    );
}
