//! Stores of one id racing each other: a record and its content are one unit, a reused
//! tool-call id gets `-1`, and nothing is ever overwritten.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use super::*;
use crate::sha256::sha256_hex;
use crate::{
    error::ErrorCode, io::CreateOutcome, io::FileReader, io::FileWriter, io::IoError,
    memory::MemoryWriter,
};
use futures_executor::block_on;

const NOW: f64 = 1_795_000_000_000.0;

/// A [`MemoryWriter`] whose every operation first yields once, so that stores polled
/// side by side interleave at each IO step as concurrent calls on a real disk do.
struct Yielding(MemoryWriter);

/// Pending once, then ready: one turn of the scheduler.
struct YieldOnce(bool);
impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

impl FileWriter for Yielding {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        YieldOnce(false).await;
        self.0.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        YieldOnce(false).await;
        self.0.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        YieldOnce(false).await;
        self.0.create_file(path, data).await
    }
}

impl FileReader for Yielding {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        YieldOnce(false).await;
        self.0.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.0.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.0.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.0.read_range(path, start, end).await
    }
}

/// Poll every future in turn until all are done: calls running side by side.
fn join_all<T>(mut futures: Vec<Pin<Box<dyn Future<Output = T> + '_>>>) -> Vec<T> {
    let mut done: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    let mut cx = Context::from_waker(Waker::noop());
    while done.iter().any(Option::is_none) {
        for (future, slot) in futures.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
                    *slot = Some(value);
                }
            }
        }
    }
    done.into_iter().map(Option::unwrap).collect()
}

fn workspace() -> Workspace {
    Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap()
}

/// 20 results, 4 different ones under each of 5 ids.
fn colliding_results() -> Vec<(String, String)> {
    (0..20)
        .map(|i| {
            let id = format!("call_{}", i % 5);
            (id, format!("output {i}\n").repeat(5_000))
        })
        .collect()
}

/// Each stored result reads back as itself, and every record's SHA-256 is its content's.
fn assert_each_reads_back_its_own(
    ws: &Workspace,
    io: &MemoryWriter,
    results: &[(String, String)],
    done: &[ToolResultOffload],
) {
    let mut ids = std::collections::HashSet::new();
    for ((_, text), done) in results.iter().zip(done) {
        let id = done.artifact_id.clone().unwrap();
        let knowledge = block_on(ws.get_by_id(&id, io)).unwrap();
        assert_eq!(
            &knowledge.content, text,
            "{id} reads back another call's output"
        );
        assert_eq!(knowledge.record.sha256(), Some(sha256_hex(text).as_str()));
        assert!(ids.insert(id), "two different outputs share an artifact");
    }
    for name in block_on(io.list_dir("/data/context/default/records")).unwrap() {
        let id = name.strip_suffix(".json").unwrap();
        let record = block_on(ws.get_by_id(id, io)).unwrap();
        assert_eq!(
            record.record.sha256(),
            Some(sha256_hex(&record.content).as_str())
        );
    }
}

#[test]
fn racing_stores_of_one_tool_call_id_each_keep_their_own_output() {
    let (ws, io) = (workspace(), Yielding(MemoryWriter::new()));
    let results = colliding_results();
    let calls = results
        .iter()
        .map(|(id, text)| {
            let input = ToolResultInput::text(id, "bash", text);
            let (ws, io) = (&ws, &io);
            Box::pin(async move { ws.offload_tool_result(&input, None, NOW, io).await })
                as Pin<Box<dyn Future<Output = _>>>
        })
        .collect();
    let done: Vec<ToolResultOffload> = join_all(calls).into_iter().map(Result::unwrap).collect();
    let mut ids: Vec<_> = done.iter().filter_map(|d| d.artifact_id.clone()).collect();
    ids.sort();
    assert_eq!(
        ids[..4],
        [
            "tool_result_call_0",
            "tool_result_call_0-1",
            "tool_result_call_0-2",
            "tool_result_call_0-3"
        ]
    );
    assert_each_reads_back_its_own(&ws, &io.0, &results, &done);
}

#[test]
fn racing_workspaces_like_processes_each_keep_their_own_output() {
    // One workspace per call: no shared record cache, as across processes.
    let io = Yielding(MemoryWriter::new());
    let results = colliding_results();
    let spaces: Vec<_> = results.iter().map(|_| workspace()).collect();
    let calls = results
        .iter()
        .zip(&spaces)
        .map(|((id, text), ws)| {
            let input = ToolResultInput::text(id, "bash", text);
            let io = &io;
            Box::pin(async move { ws.offload_tool_result(&input, None, NOW, io).await })
                as Pin<Box<dyn Future<Output = _>>>
        })
        .collect();
    let done: Vec<ToolResultOffload> = join_all(calls).into_iter().map(Result::unwrap).collect();
    assert_each_reads_back_its_own(&workspace(), &io.0, &results, &done);
}

#[test]
fn the_same_output_again_shares_its_artifact_whichever_store_wins() {
    let (ws, io) = (workspace(), Yielding(MemoryWriter::new()));
    let text = "same\n".repeat(10_000);
    let calls = (0..4)
        .map(|_| {
            let input = ToolResultInput::text("c", "bash", &text);
            let (ws, io) = (&ws, &io);
            Box::pin(async move { ws.offload_tool_result(&input, None, NOW, io).await })
                as Pin<Box<dyn Future<Output = _>>>
        })
        .collect();
    let done: Vec<ToolResultOffload> = join_all(calls).into_iter().map(Result::unwrap).collect();
    assert!(done
        .iter()
        .all(|d| d.artifact_id.as_deref() == Some("tool_result_c")));
    assert_eq!(
        done.iter()
            .filter(|d| !d.stored.as_ref().unwrap().reused)
            .count(),
        1
    );
}

#[test]
fn a_content_left_without_its_record_is_adopted_by_the_same_output_only() {
    let (ws, io) = (workspace(), MemoryWriter::new());
    let dir = "/data/context/default/artifacts/knowledge";
    block_on(io.mkdir(dir)).unwrap();
    let text = "q".repeat(45_000);
    // What a crash between the content and its record leaves.
    block_on(io.write_file(&format!("{dir}/tool_result_c1.txt"), &text)).unwrap();
    block_on(io.write_file(&format!("{dir}/tool_result_c2.txt"), "half-done")).unwrap();
    let offload = |call: &str| {
        let input = ToolResultInput::text(call, "bash", &text);
        block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap()
    };
    assert_eq!(offload("c1").artifact_id.as_deref(), Some("tool_result_c1"));
    // Never overwritten: it may be a store still in flight.
    assert_eq!(
        offload("c2").artifact_id.as_deref(),
        Some("tool_result_c2-1")
    );
    assert_eq!(
        io.read(&format!("{dir}/tool_result_c2.txt")).as_deref(),
        Some("half-done")
    );
    // `add` keeps the id it is given: a taken one is refused, not renamed.
    let input = KnowledgeInput {
        id: "tool_result_c2",
        text: &text,
        kind: KnowledgeType::Text,
        metadata: serde_json::json!({"context_type": "plan"})
            .as_object()
            .unwrap()
            .clone(),
        known: Default::default(),
    };
    let err = block_on(ws.add(&input, NOW, &io)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ArtifactExists);
}

#[test]
fn a_reused_id_with_another_output_is_numbered_and_the_first_is_untouched() {
    let (ws, io) = (workspace(), MemoryWriter::new());
    let first = "a\n".repeat(30_000);
    let second = "b\n".repeat(30_000);
    let store = |text: &str| {
        let input = ToolResultInput::text("c", "bash", text);
        block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap()
    };
    assert_eq!(store(&first).artifact_id.as_deref(), Some("tool_result_c"));
    let again = store(&second);
    assert_eq!(again.artifact_id.as_deref(), Some("tool_result_c-1"));
    assert!(again
        .replacement
        .unwrap()
        .contains("id=\"tool_result_c-1\""));
    // The same second output again finds its own artifact.
    assert_eq!(
        store(&second).artifact_id.as_deref(),
        Some("tool_result_c-1")
    );
    assert_eq!(
        block_on(ws.get_by_id("tool_result_c", &io))
            .unwrap()
            .content,
        first
    );
}
