//! Retention under load (issue 48): a read that a concurrent gc overtakes — the reader
//! found the artifact (`size`), then gc marked and removed it before a `read_range` —
//! says the artifact was removed by retention, never `READ_FAILED`. Each interleaving is
//! made deterministic by a reader that runs the gc inside its `n`th `read_range`.

use std::cell::Cell;

use futures_executor::block_on;
use tool_offload_core::gc::{gc, GcOptions};
use tool_offload_core::materialize::{
    compile_pattern, BinaryOutputRef, Materialized, Materializer, MaterializerOptions,
    ToolOutputRef,
};
use tool_offload_core::{
    CreateOutcome, ErrorCode, FileLifecycle, FileReader, FileStat, FileWriter, IoError,
    MemoryWriter, OffloadError,
};

/// A reader over `fs` that collects everything under `/data` just before its
/// `gc_at`th `read_range` (1-based) goes through.
struct GcBetween<'a> {
    fs: &'a MemoryWriter,
    ranges: Cell<usize>,
    gc_at: usize,
}

impl<'a> GcBetween<'a> {
    fn new(fs: &'a MemoryWriter, gc_at: usize) -> Self {
        GcBetween {
            fs,
            ranges: Cell::new(0),
            gc_at,
        }
    }

    /// Whether the gc ran (the read raced it, as wanted).
    fn raced(&self) -> bool {
        self.ranges.get() >= self.gc_at
    }
}

impl FileReader for GcBetween<'_> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.fs.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.fs.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.fs.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.ranges.set(self.ranges.get() + 1);
        if self.ranges.get() == self.gc_at {
            let options = GcOptions {
                older_than_ms: Some(0),
                now_ms: u64::MAX / 2,
                ..GcOptions::default()
            };
            let report = gc("/data", &options, self.fs).await.unwrap();
            assert!(!report.removed.is_empty());
        }
        self.fs.read_range(path, start, end).await
    }
}

/// Materializing through it (reusing a name holding the same bytes reads them back).
impl FileWriter for GcBetween<'_> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.fs.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.fs.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.fs.create_file(path, data).await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        self.fs.create_bytes(path, data).await
    }
}

/// `grep_all` lists artifacts through the lifecycle.
impl FileLifecycle for GcBetween<'_> {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        self.fs.stat(path).await
    }
    async fn remove(&self, path: &str) -> Result<(), IoError> {
        self.fs.remove(path).await
    }
}

fn setup(text: &str) -> (MemoryWriter, Materializer, String) {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "c", "/")).unwrap();
    let out = ToolOutputRef {
        tool_call_id: "call_1",
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    };
    let reference = match block_on(m.materialize(&out, &fs)).unwrap() {
        Materialized::Artifact { reference, .. } => reference.id,
        other => unreachable!("over the limits: {other:?}"),
    };
    (fs, m, reference)
}

fn assert_removed<T: std::fmt::Debug>(result: Result<T, OffloadError>, what: &str) {
    let err = result.expect_err(what);
    assert_eq!(err.code(), ErrorCode::RefNotFound, "{what}: {err}");
    assert!(
        matches!(err, OffloadError::RefRemoved(_)),
        "{what}: {err:?}"
    );
}

/// A small artifact is read whole: `size`, then one `read_range` that gc overtakes.
#[test]
fn a_small_artifact_removed_between_size_and_read_reads_as_removed() {
    let text = "line of output\n".repeat(2000);
    let pattern = compile_pattern("output", false).unwrap();
    for op in ["read", "tail", "grep", "grep_all"] {
        let (fs, m, reference) = setup(&text);
        let io = GcBetween::new(&fs, 1);
        let result = block_on(async {
            match op {
                "read" => m.read(&reference, 0, 10, &io).await,
                "tail" => m.tail(&reference, 10, &io).await,
                "grep" => m.grep(&reference, &pattern, 0, 5, &io).await,
                _ => m.grep_all(&pattern, 0, 5, &io).await,
            }
        });
        assert!(io.raced(), "{op}");
        if op == "grep_all" {
            // Removed since it was listed: nothing to find in it, not a failure.
            let page = result.unwrap();
            assert!(!page.contains("line of output"), "{page}");
        } else {
            assert_removed(result, op);
        }
    }
}

/// A JSON path reads the artifact in one range after its size.
#[test]
fn a_json_artifact_removed_between_size_and_read_reads_as_removed() {
    let items: Vec<String> = (0..2000).map(|i| format!("{{\"n\": {i}}}")).collect();
    let (fs, m, reference) = setup(&format!("[{}]", items.join(",\n")));
    let io = GcBetween::new(&fs, 1);
    let result = block_on(m.read_json(&reference, "$[3]", 0, 1, 10, &io));
    assert!(io.raced());
    assert_removed(result, "read_json");
}

/// A large artifact is read a chunk at a time: gc overtakes the scan between two of its
/// ranges. The page is then removed by retention, or, when every byte it shows was read
/// already (the range gc overtook was only reading ahead), the page in full.
#[test]
fn a_large_artifact_removed_between_two_ranges_reads_as_removed_or_whole() {
    // 3.6 MB: two scan chunks, several marks of the line index.
    let text: String = (0..120_000)
        .map(|i| format!("row {i:>8} of the log\n"))
        .collect();
    let pattern = compile_pattern("row +119999 ", false).unwrap();
    let mut removed = 0;
    for gc_at in [1, 2, 3] {
        for op in ["read", "tail", "grep"] {
            let (fs, m, reference) = setup(&text);
            let page = |io: &GcBetween| {
                block_on(async {
                    match op {
                        "read" => m.read(&reference, 90_000, 10, io).await,
                        "tail" => m.tail(&reference, 10, io).await,
                        _ => m.grep(&reference, &pattern, 0, 5, io).await,
                    }
                })
            };
            let whole = page(&GcBetween::new(&fs, usize::MAX)).unwrap();
            let io = GcBetween::new(&fs, gc_at);
            let result = page(&io);
            let what = format!("{op}, gc at range {gc_at}");
            match result {
                Ok(page) => assert_eq!(page, whole, "{what}"),
                Err(_) => {
                    assert!(io.raced(), "{what}");
                    assert_removed(result, &what);
                    removed += 1;
                }
            }
        }
    }
    // The race is made, not hoped for: most of these reads lost it.
    assert!(removed >= 5, "{removed}");
}

/// A line index kept in memory from an earlier read does not outlive its artifact: the
/// next read, overtaken by the gc, says it was removed.
#[test]
fn a_cached_line_index_does_not_outlive_its_removed_artifact() {
    let text: String = (0..120_000)
        .map(|i| format!("row {i:>8} of the log\n"))
        .collect();
    let (fs, m, reference) = setup(&text);
    // The index beside it is lost: the first read builds one and keeps it.
    block_on(fs.remove("/data/context/c/index/tool/call_1.txt.lines")).unwrap();
    let first = block_on(m.tail(&reference, 3, &fs)).unwrap();
    assert!(first.contains("row   119999"), "{first}");
    let io = GcBetween::new(&fs, 1);
    assert_removed(block_on(m.tail(&reference, 3, &io)), "tail after gc");
    assert!(io.raced());
    // And once more, without a race: the marker says so at once.
    assert_removed(block_on(m.read(&reference, 0, 3, &fs)), "read after gc");
}

/// A read whose artifact vanished without a marker (removed by hand, not retention) is
/// a ref with no artifact, still not a read failure; a read that fails while the file is
/// still there stays `READ_FAILED`.
#[test]
fn only_a_vanished_artifact_reads_as_missing() {
    struct Vanishing<'a>(&'a MemoryWriter, Option<&'a str>);
    impl FileReader for Vanishing<'_> {
        async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
            self.0.read_file(path).await
        }
        async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
            self.0.list_dir(dir).await
        }
        async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
            self.0.size(path).await
        }
        async fn read_range(&self, path: &str, _: u64, _: u64) -> Result<Vec<u8>, IoError> {
            if let Some(vanish) = self.1 {
                self.0.remove(vanish).await?;
            }
            Err(IoError::new(format!("EIO: i/o error, read '{path}'")))
        }
    }
    let text = "line of output\n".repeat(2000);
    let (fs, m, reference) = setup(&text);
    let path = "/data/context/c/artifacts/tool/call_1.txt";
    let err = block_on(m.read(&reference, 0, 3, &Vanishing(&fs, None))).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ReadFailed, "{err}");
    let err = block_on(m.read(&reference, 0, 3, &Vanishing(&fs, Some(path)))).unwrap_err();
    assert!(matches!(err, OffloadError::RefNotFound(_)), "{err:?}");
}

/// Materializing a binary output whose name holds a file already compares its bytes by
/// `size`, then `read_range`: a gc removing that file between the two leaves the name
/// taken (marked), and the output goes to the next name, not `READ_FAILED`.
#[test]
fn a_binary_name_removed_while_its_bytes_are_compared_is_taken() {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "c", "/")).unwrap();
    let png = b"\x89PNG\r\n\x1a\n0123456789";
    let shot = BinaryOutputRef {
        tool_call_id: "shot",
        tool_name: "screenshot",
        server_name: None,
        bytes: png,
    };
    let first = block_on(m.materialize_binary(&shot, &fs)).unwrap();
    assert!(
        matches!(first, Materialized::Artifact { ref reference, .. } if reference.id == "ctx://c/tool/shot.bin")
    );
    let io = GcBetween::new(&fs, 1);
    let again = block_on(m.materialize_binary(&shot, &io)).unwrap();
    assert!(io.raced());
    let Materialized::Artifact { reference, .. } = again else {
        panic!("an artifact")
    };
    assert_eq!(reference.id, "ctx://c/tool/shot-1.bin");
    assert_eq!(
        fs.read_bytes("/data/context/c/artifacts/tool/shot-1.bin")
            .as_deref(),
        Some(&png[..])
    );
}

/// Exporting a conversation reads a binary artifact by `size`, then `read_range`: one
/// removed between the two is missing (`REF_NOT_FOUND`, as when gc finished first).
#[test]
fn a_binary_artifact_removed_while_exported_is_missing() {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "c", "/")).unwrap();
    let shot = BinaryOutputRef {
        tool_call_id: "shot",
        tool_name: "screenshot",
        server_name: None,
        bytes: b"\x89PNG\r\n\x1a\n0123456789",
    };
    let Materialized::Artifact { summary, .. } =
        block_on(m.materialize_binary(&shot, &fs)).unwrap()
    else {
        panic!("an artifact")
    };
    let messages =
        serde_json::json!([{"role": "tool", "tool_call_id": "shot", "content": summary}]);
    let io = GcBetween::new(&fs, 1);
    let err = block_on(m.export_conversation(&messages, &io)).unwrap_err();
    assert!(io.raced());
    assert_eq!(err.code(), ErrorCode::RefNotFound, "{err}");
}
