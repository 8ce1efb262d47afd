//! Drop-to-cancel: a writer that never answers cannot hang a caller who bounds the wait,
//! and the Materializer stays usable after a cancelled call.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    CreateOutcome, FileReader, FileWriter, IoError, Materializer, MaterializerOptions,
    MemoryWriter, ToolOutputInput,
};

/// Memory IO whose creates never complete while `stalled` is set.
#[derive(Default)]
struct Stalling {
    inner: MemoryWriter,
    stalled: AtomicBool,
}

impl FileWriter for Stalling {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.inner.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.inner.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        if self.stalled.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        self.inner.create_file(path, data).await
    }
}

impl FileReader for Stalling {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(path, start, end).await
    }
}

#[tokio::test]
async fn a_stalled_write_is_cancelled_by_dropping_the_future() {
    let io = Stalling {
        stalled: AtomicBool::new(true),
        ..Stalling::default()
    };
    let m = Materializer::with_io(MaterializerOptions::at("/data", "conv"), io).unwrap();
    let text = json!("line\n".repeat(10_000));
    let out = ToolOutputInput {
        tool_call_id: "call_1",
        tool_name: "t",
        server_name: None,
        output: &text,
    };
    let waited = tokio::time::timeout(Duration::from_millis(50), m.materialize(&out)).await;
    assert!(waited.is_err(), "the stalled call must still be pending");
    assert_eq!(m.stats().hits, 0, "nothing reported as done");
    assert!(m.io().inner.files().is_empty(), "nothing written");

    // The same materializer works once the writer answers again.
    m.io().stalled.store(false, Ordering::SeqCst);
    let done = m.materialize(&out).await.unwrap();
    assert!(matches!(done, Materialized::Artifact { .. }));
    assert_eq!(m.stats().hits, 1);
}
