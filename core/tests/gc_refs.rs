//! A ref never changes meaning: a name retention removed is never given to another
//! output (Materializer and batch offload), and `gc --keep` keeps every artifact a kept
//! conversation names, wherever it names it (legacy records, MCP structured content).

use futures_executor::block_on;
use serde_json::{json, Value};
use tool_offload_core::gc::{gc, referenced, GcOptions};
use tool_offload_core::materialize::{
    format_legacy_tool_record, LegacyToolRecord, Materialized, Materializer, MaterializerOptions,
    ToolOutputRef,
};
use tool_offload_core::{BatchOptions, BatchPlan, ErrorCode, MemoryWriter};

const DAY: u64 = 86_400_000;

fn materialize(m: &Materializer, fs: &MemoryWriter, id: &str, text: &str) -> String {
    let out = ToolOutputRef {
        tool_call_id: id,
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    };
    match block_on(m.materialize(&out, fs)).unwrap() {
        Materialized::Artifact { reference, .. } => reference.id,
        other => unreachable!("over the limits: {other:?}"),
    }
}

fn collect_all(fs: &MemoryWriter, root: &str, keep: std::collections::HashSet<String>) {
    block_on(gc(
        root,
        &GcOptions {
            older_than_ms: Some(0),
            keep,
            now_ms: DAY,
            ..GcOptions::default()
        },
        fs,
    ))
    .unwrap();
}

#[test]
fn a_removed_ref_is_never_given_to_another_output() {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "c", "/")).unwrap();
    let old = materialize(&m, &fs, "call_1", &"old line\n".repeat(2000));
    assert_eq!(old, "ctx://c/tool/call_1.txt");
    collect_all(&fs, "/data", Default::default());
    // The same call id again, as a new conversation turn or a replay would bring it.
    let new = materialize(&m, &fs, "call_1", &"new line\n".repeat(2000));
    assert_eq!(new, "ctx://c/tool/call_1-1.txt");
    let err = block_on(m.tail(&old, 5, &fs)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert!(err.to_string().contains("removed by retention"), "{err}");
    // Even the very output that was removed comes back under a new name, not the old.
    let again = materialize(&m, &fs, "call_1", &"old line\n".repeat(2000));
    assert_eq!(again, "ctx://c/tool/call_1-2.txt");
}

#[test]
fn a_removed_batch_file_name_is_never_given_to_another_output() {
    let fs = MemoryWriter::new();
    let run = |content: &str| {
        let messages = [json!({"role": "tool", "tool_call_id": "c1", "content": content})];
        let views: Vec<&Value> = messages.iter().collect();
        let options = BatchOptions {
            threshold: 1,
            ..BatchOptions::new("out", "/w")
        };
        let mut plan = BatchPlan::new(&views, &options).unwrap();
        block_on(plan.write(&fs)).unwrap();
        plan.edits().changed[0].1[0].1.clone()
    };
    assert_eq!(run("one"), "[Content offloaded to: ./tool-result-c1.md]");
    collect_all(&fs, "/w/out", Default::default());
    assert_eq!(run("two"), "[Content offloaded to: ./tool-result-c1-1.md]");
    assert_eq!(fs.read("/w/out/tool-result-c1.md"), None);
}

#[test]
fn keep_covers_refs_in_legacy_records_and_structured_content_notes() {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "c", "/")).unwrap();
    let big = "row\n".repeat(3000);
    let legacy = materialize(&m, &fs, "legacy", &big);
    let structured = materialize(&m, &fs, "r-structured", &big);
    let dropped = materialize(&m, &fs, "dropped", &big);
    let record = format_legacy_tool_record(&LegacyToolRecord {
        tool_name: "bash",
        tool_call_id: Some("legacy"),
        arguments: &json!({"cmd": "make"}),
        response: &json!(format!(
            "[Output of bash (call legacy) stored as {legacy} and not shown in full: 3,000 lines]"
        )),
    });
    let note = format!(
        "[structuredContent of rows (12,000 bytes) stored as {structured} and left out of this result: read it with context_read, context_tail or context_grep.]"
    );
    let messages = json!([
        {"role": "assistant", "content": record},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "r", "content": [{"type": "text", "text": note}]}]},
        {"role": "user", "content": "and a batch one: <function_call>{\"response\":\"[Content offloaded to: ./tool-result-b.md]\"}</function_call>"},
    ]);
    let keep = referenced(&messages);
    assert!(
        keep.contains(&legacy) && keep.contains(&structured),
        "{keep:?}"
    );
    assert!(keep.contains("tool-result-b.md"), "{keep:?}");
    collect_all(&fs, "/data", keep);
    assert!(block_on(m.tail(&legacy, 1, &fs)).is_ok());
    assert!(block_on(m.tail(&structured, 1, &fs)).is_ok());
    assert!(block_on(m.tail(&dropped, 1, &fs)).is_err());
}
