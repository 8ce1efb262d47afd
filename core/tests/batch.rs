//! Batch offload writing into a directory that already holds files: identical content is
//! reused, different content moves to the next free name, and names keep their limit.

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::{BatchOptions, BatchPlan, MemoryWriter, Value};

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
