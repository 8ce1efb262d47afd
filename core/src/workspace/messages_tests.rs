//! The workspace over whole conversations, and its index kept in step, in memory.

use super::tests::{object, workspace, NOW};
use super::*;
use crate::memory::MemoryWriter;
use futures_executor::block_on;
use serde_json::json;
use serde_json::{Map, Value};

#[test]
fn offload_messages_covers_every_shape_and_is_idempotent() {
    let io = MemoryWriter::new();
    let ws = workspace(|o| o.offload_tools = vec!["read_file".into()]);
    let big = "log line\n".repeat(5_000);
    let messages = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "tu_1", "name": "read_file", "input": {}}]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "tu_1", "content": "short but listed"},
            {"type": "text", "text": "thanks"}
        ]}),
        json!({"type": "function_call", "call_id": "fc_1", "name": "search", "arguments": "{}"}),
        json!({"type": "function_call_output", "call_id": "fc_1", "output": big}),
        json!({"role": "tool", "tool_call_id": "small", "content": "ok"}),
    ];
    let views: Vec<_> = messages.iter().collect();
    let done = block_on(ws.offload_messages(&views, None, NOW, &io)).unwrap();
    let stored: Vec<_> = done
        .results
        .iter()
        .filter_map(|(i, r)| Some((*i, r.artifact_id.clone()?, r.replacement.is_some())))
        .collect();
    assert_eq!(
        done.results.len(),
        3,
        "the small one was considered, not stored"
    );
    assert_eq!(
        stored,
        [
            (1, "tool_result_tu_1".into(), false),
            (3, "tool_result_fc_1".into(), true)
        ]
    );
    assert_eq!(done.changed.len(), 1);
    assert_eq!(done.changed[0].0, 3);
    let record = block_on(ws.record("tool_result_fc_1", &io))
        .unwrap()
        .unwrap();
    assert_eq!(record.metadata["tool_name"], "search");
    let record = block_on(ws.record("tool_result_tu_1", &io))
        .unwrap()
        .unwrap();
    assert_eq!(record.metadata["tool_name"], "read_file");

    // The next turn: the replaced result is skipped, the inline one reused.
    let edited: Vec<Value> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let edits: Vec<_> = done
                .changed
                .iter()
                .filter(|(at, _)| *at == i)
                .flat_map(|(_, e)| e.iter().cloned())
                .collect();
            let mut m = m.clone();
            crate::message::apply_edits(&mut m, edits);
            m
        })
        .collect();
    let views: Vec<_> = edited.iter().collect();
    let again = block_on(ws.offload_messages(&views, None, NOW + 5.0, &io)).unwrap();
    assert!(again.changed.is_empty());
    assert_eq!(again.results.len(), 2);
    assert!(again.results[0].1.stored.as_ref().unwrap().reused);
}

/// A record another worker writes and indexes while `ids` runs: its IO, its path, itself.
type Foreign = (std::sync::Arc<MemoryWriter>, String, KnowledgeRecord);

/// An index in memory whose directory "changes" when told to.
#[derive(Default)]
struct MemoryIndex {
    records: std::sync::Mutex<std::collections::BTreeMap<String, KnowledgeRecord>>,
    dirty: std::sync::atomic::AtomicBool,
    /// Stored and indexed by "another worker" at the next `ids`.
    foreign: std::sync::Mutex<Option<Foreign>>,
}

impl RecordIndex for MemoryIndex {
    fn changed(&self) -> IndexFuture<'_, Option<String>> {
        let dirty = self.dirty.load(std::sync::atomic::Ordering::SeqCst);
        Box::pin(async move { Ok(dirty.then(|| "t".into())) })
    }
    fn synced<'a>(&'a self, _: &'a str) -> IndexFuture<'a, ()> {
        self.dirty.store(false, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async { Ok(()) })
    }
    fn ids(&self) -> IndexFuture<'_, std::collections::HashSet<String>> {
        let foreign = self.foreign.lock().unwrap().take();
        Box::pin(async move {
            if let Some((io, path, record)) = foreign {
                let dir = path.rsplit_once('/').map_or("/", |(dir, _)| dir);
                crate::io::FileWriter::mkdir(&*io, dir).await.unwrap();
                let created =
                    crate::io::FileWriter::create_file(&*io, &path, &record.to_json()).await;
                assert_eq!(created.unwrap(), crate::io::CreateOutcome::Created);
                self.records
                    .lock()
                    .unwrap()
                    .insert(record.id.clone(), record);
            }
            Ok(self.records.lock().unwrap().keys().cloned().collect())
        })
    }
    fn insert<'a>(&'a self, records: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()> {
        let mut map = self.records.lock().unwrap();
        for r in records {
            map.insert(r.id.clone(), r.clone());
        }
        Box::pin(async { Ok(()) })
    }
    fn remove<'a>(&'a self, ids: &'a [String]) -> IndexFuture<'a, ()> {
        let mut map = self.records.lock().unwrap();
        for id in ids {
            map.remove(id);
        }
        Box::pin(async { Ok(()) })
    }
    fn clear(&self) -> IndexFuture<'_, ()> {
        self.records.lock().unwrap().clear();
        Box::pin(async { Ok(()) })
    }
    fn query<'a>(&'a self, query: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>> {
        let map = self.records.lock().unwrap();
        let page = query.select(map.values()).into_iter().cloned().collect();
        Box::pin(async { Ok(page) })
    }
}

#[test]
fn an_index_gets_every_store_and_catches_up_with_other_writers() {
    let io = MemoryWriter::new();
    let index = std::sync::Arc::new(MemoryIndex::default());
    let indexed = workspace(|_| {}).with_index(index.clone());
    let other = workspace(|_| {});
    let big = "i".repeat(50_000);
    block_on(indexed.offload_tool_result(
        &ToolResultInput::text("mine", "bash", &big),
        None,
        NOW,
        &io,
    ))
    .unwrap();
    assert_eq!(
        block_on(index.ids()).unwrap().len(),
        1,
        "stored and indexed at once"
    );
    block_on(other.offload_tool_result(
        &ToolResultInput::text("theirs", "bash", &big),
        None,
        NOW + 1.0,
        &io,
    ))
    .unwrap();
    let all = Query::new(Map::new());
    let ids = |ws: &Workspace| -> Vec<String> {
        block_on(ws.query(&all, &io))
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect()
    };
    assert_eq!(
        ids(&indexed),
        ["tool_result_mine"],
        "the index was not told"
    );
    index.dirty.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(ids(&indexed), ["tool_result_theirs", "tool_result_mine"]);
    assert_eq!(ids(&indexed), ids(&other), "index and scan agree");
    index.records.lock().unwrap().insert(
        "ghost".into(),
        KnowledgeRecord {
            id: "ghost".into(),
            kind: KnowledgeType::Text,
            metadata: Map::new(),
        },
    );
    block_on(indexed.rebuild_index(&io)).unwrap();
    assert_eq!(
        ids(&indexed).len(),
        2,
        "a rebuild keeps only what is on disk"
    );
    let info = block_on(indexed.tool_result_offload_info(None, None, &io)).unwrap();
    assert_eq!(info.len(), 2);
}

#[test]
fn a_catch_up_never_drops_a_record_another_worker_indexes_meanwhile() {
    let io = std::sync::Arc::new(MemoryWriter::new());
    let index = std::sync::Arc::new(MemoryIndex::default());
    let ws = workspace(|_| {}).with_index(index.clone());
    let theirs = KnowledgeRecord {
        id: "theirs".into(),
        kind: KnowledgeType::Text,
        metadata: object(json!({"context_type": "note", "created_at": "2026-01-01T00:00:00.000Z"})),
    };
    *index.foreign.lock().unwrap() = Some((io.clone(), ws.record_path("theirs"), theirs));
    index.dirty.store(true, std::sync::atomic::Ordering::SeqCst);
    let found = block_on(ws.query(&Query::new(Map::new()), &*io)).unwrap();
    let ids: Vec<&str> = found.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["theirs"],
        "stored and indexed during the catch-up: kept"
    );
}

#[test]
fn every_replaced_result_lands_in_its_own_message() {
    let io = MemoryWriter::new();
    let ws = workspace(|_| {});
    let big = |c: &str| c.repeat(41_000);
    let messages = [
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "a1", "content": big("a")},
            {"type": "tool_result", "tool_use_id": "a2", "content": big("b")},
        ]}),
        json!({"role": "tool", "tool_call_id": "c3", "content": big("c")}),
    ];
    let views: Vec<_> = messages.iter().collect();
    let done = block_on(ws.offload_messages(&views, None, NOW, &io)).unwrap();
    let shape: Vec<(usize, usize)> = done.changed.iter().map(|(i, e)| (*i, e.len())).collect();
    assert_eq!(shape, [(0, 2), (1, 1)]);
}
