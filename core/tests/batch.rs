//! Batch offload writing into a directory that already holds files: identical content is
//! reused, different content moves to the next free name, and names keep their limit.

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::{BatchOptions, BatchPlan, FileWriter, MemoryWriter, Value};

fn tool(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

/// Plan `messages` into `/w/out` and write them through `fs`: whether a result moved,
/// and the placeholders.
fn run(messages: &[Value], fs: &MemoryWriter) -> (bool, Vec<String>) {
    let views: Vec<&Value> = messages.iter().collect();
    let options = BatchOptions {
        threshold: 1,
        ..BatchOptions::new("out", "/w")
    };
    let mut plan = BatchPlan::new(&views, &options).unwrap();
    let moved = block_on(plan.write(fs)).unwrap();
    let placeholders = plan
        .edits()
        .changed
        .into_iter()
        .flat_map(|(_, edits)| edits.into_iter().map(|(_, text)| text))
        .collect();
    (moved, placeholders)
}

#[test]
fn a_rerun_reuses_identical_files_and_moves_different_content() {
    let fs = MemoryWriter::new();
    let first = run(&[tool("c1", "one")], &fs);
    assert_eq!(
        first,
        (
            false,
            vec!["[Content offloaded to: ./tool-result-c1.md]".into()]
        )
    );
    assert_eq!(run(&[tool("c1", "one")], &fs), first, "identical: reused");
    let (moved, placeholders) = run(&[tool("c1", "two"), tool("c2", "x")], &fs);
    assert!(moved, "the first result moved, the second did not");
    assert_eq!(
        placeholders,
        [
            "[Content offloaded to: ./tool-result-c1-1.md]",
            "[Content offloaded to: ./tool-result-c2.md]"
        ]
    );
    assert_eq!(fs.read("/w/out/tool-result-c1.md").as_deref(), Some("one"));
    assert_eq!(
        fs.read("/w/out/tool-result-c1-1.md").as_deref(),
        Some("two")
    );
    // Again: the planned name still holds "one", the moved-to name already holds "two",
    // so the result is reused there (still reported as moved) and nothing new is written.
    let before = fs.files();
    let again = run(&[tool("c1", "two")], &fs);
    assert_eq!(
        again,
        (
            true,
            vec!["[Content offloaded to: ./tool-result-c1-1.md]".into()]
        )
    );
    assert_eq!(fs.files(), before);
}

#[test]
fn a_moved_result_skips_names_the_batch_gave_out() {
    let fs = MemoryWriter::new();
    run(&[tool("c1", "old")], &fs);
    // c1 is taken on disk, so the first c1 moves on; -1 is already the plan's name for
    // the second, so the first takes -2 and the second keeps -1. Nothing overwritten.
    let (moved, placeholders) = run(&[tool("c1", "a"), tool("c1", "b")], &fs);
    assert!(moved);
    assert_eq!(
        placeholders,
        [
            "[Content offloaded to: ./tool-result-c1-2.md]",
            "[Content offloaded to: ./tool-result-c1-1.md]"
        ]
    );
    let files = fs.files();
    let contents: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    assert_eq!(
        contents,
        [
            ("/w/out/tool-result-c1-1.md", "b"),
            ("/w/out/tool-result-c1-2.md", "a"),
            ("/w/out/tool-result-c1.md", "old")
        ]
    );
}

#[test]
fn a_file_name_of_exactly_255_bytes_is_allowed_and_256_is_not() {
    let fs = MemoryWriter::new();
    let at_limit = "i".repeat(255 - "tool-result-.md".len());
    let (_, placeholders) = run(&[tool(&at_limit, "x")], &fs);
    assert_eq!(placeholders.len(), 1);
    let over = format!("{at_limit}i");
    let views = [&tool(&over, "x")];
    let options = BatchOptions {
        threshold: 1,
        ..BatchOptions::new("out", "/w")
    };
    let err = BatchPlan::new(&views, &options).unwrap_err();
    assert_eq!(err.code().as_str(), "INVALID_ID");
}

/// A writer over `MemoryWriter` whose creates each wait one poll, counting how many are
/// in flight at once.
struct Yielding {
    fs: MemoryWriter,
    in_flight: std::cell::Cell<usize>,
    most: std::cell::Cell<usize>,
}

impl tool_offload_core::FileWriter for Yielding {
    async fn mkdir(&self, dir: &str) -> Result<(), tool_offload_core::IoError> {
        self.fs.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), tool_offload_core::IoError> {
        self.fs.write_file(path, data).await
    }
    async fn create_file(
        &self,
        path: &str,
        data: &str,
    ) -> Result<tool_offload_core::CreateOutcome, tool_offload_core::IoError> {
        self.in_flight.set(self.in_flight.get() + 1);
        self.most.set(self.most.get().max(self.in_flight.get()));
        let mut waited = false;
        std::future::poll_fn(|cx| {
            if waited {
                std::task::Poll::Ready(())
            } else {
                waited = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        self.in_flight.set(self.in_flight.get() - 1);
        self.fs.create_file(path, data).await
    }
}

impl tool_offload_core::FileReader for Yielding {
    async fn read_file(&self, path: &str) -> Result<Option<String>, tool_offload_core::IoError> {
        self.fs.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, tool_offload_core::IoError> {
        self.fs.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, tool_offload_core::IoError> {
        self.fs.size(path).await
    }
    async fn read_range(
        &self,
        path: &str,
        start: u64,
        end: u64,
    ) -> Result<Vec<u8>, tool_offload_core::IoError> {
        self.fs.read_range(path, start, end).await
    }
}

#[test]
fn writes_run_sixteen_at_a_time_and_taken_names_still_move_in_walk_order() {
    let fs = MemoryWriter::new();
    block_on(fs.mkdir("/w/out")).unwrap();
    // Earlier content at two planned names: both results move, the first to -1.
    block_on(fs.create_file("/w/out/tool-result-c3.md", "other")).unwrap();
    block_on(fs.create_file("/w/out/tool-result-c3-1.md", "other too")).unwrap();
    let messages: Vec<Value> = (0..40)
        .map(|i| tool(&format!("c{}", i % 20), &format!("result {i}")))
        .collect();
    let writer = Yielding {
        fs,
        in_flight: 0.into(),
        most: 0.into(),
    };
    let views: Vec<&Value> = messages.iter().collect();
    let options = BatchOptions {
        threshold: 1,
        ..BatchOptions::new("out", "/w")
    };
    let mut plan = BatchPlan::new(&views, &options).unwrap();
    assert!(block_on(plan.write(&writer)).unwrap());
    assert_eq!(writer.most.get(), 16);
    let files = plan.edits().files;
    assert_eq!(files.len(), 40);
    // c3's results: the first planned tool-result-c3.md (taken), the second -1; the
    // first moves to the next free name after every planned one, -2, the second to -3.
    assert_eq!(files[3], "/w/out/tool-result-c3-2.md");
    assert_eq!(files[23], "/w/out/tool-result-c3-3.md");
    assert_eq!(
        writer.fs.read("/w/out/tool-result-c3-2.md").as_deref(),
        Some("result 3")
    );
    assert_eq!(
        writer.fs.read("/w/out/tool-result-c3-3.md").as_deref(),
        Some("result 23")
    );
    assert_eq!(
        writer.fs.read("/w/out/tool-result-c3.md").as_deref(),
        Some("other")
    );
}

#[test]
fn no_write_starts_once_one_has_failed() {
    let fs = MemoryWriter::new().fail_on("/w/out/tool-result-c1.md");
    let messages = [tool("c0", "a"), tool("c1", "b"), tool("c2", "c")];
    let views: Vec<&Value> = messages.iter().collect();
    let options = BatchOptions {
        threshold: 1,
        ..BatchOptions::new("out", "/w")
    };
    let mut plan = BatchPlan::new(&views, &options).unwrap();
    let err = block_on(plan.write(&fs)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to write /w/out/tool-result-c1.md: injected failure: /w/out/tool-result-c1.md"
    );
    // This writer finishes each create at once, so c2's had not started: it never does.
    assert_eq!(
        fs.calls(),
        [
            "mkdir /w/out",
            "create /w/out/tool-result-c0.md",
            "create /w/out/tool-result-c1.md"
        ]
    );
}

#[test]
fn counts_cover_every_tool_result_offloaded_or_not() {
    let messages = [
        tool("c1", "abcdé"),
        json!({"role": "user", "content": "hi"}),
        tool("c2", "x"),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "😀😀"},
        ]}),
    ];
    let options = BatchOptions {
        threshold: 3,
        ..BatchOptions::new("out", "/w")
    };
    let views: Vec<&Value> = messages.iter().collect();
    let plan = BatchPlan::new(&views, &options).unwrap();
    let borrowed = plan.edits();
    assert_eq!(plan.into_edits(), borrowed);

    let done = block_on(tool_offload_core::offload_tool_results(
        &messages,
        &options,
        &MemoryWriter::new(),
    ))
    .unwrap();
    // UTF-16 units: "abcdé" 5, "x" 1, two astral characters 4.
    assert_eq!((done.tool_results, done.tool_result_chars), (3, 10));
    assert_eq!((done.offloaded_count, done.freed_chars), (2, 9));
    assert_eq!(
        done.files,
        ["/w/out/tool-result-c1.md", "/w/out/tool-result-t1.md"]
    );
    assert_eq!(borrowed.changed.len(), 2);
    assert_eq!(borrowed.changed[1].0, 3);
}
