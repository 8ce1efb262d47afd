//! The read tools' argument checks and dispatch.
use super::ReadCall;
use crate::read::tool_args::count;
use serde_json::json;

/// `context_grep` without a ref (absent or null) searches every artifact; the
/// model's tool call reaches the same page as `grep_all`.
#[test]
fn grep_without_a_ref_searches_every_artifact() {
    use crate::materialize::{compile_pattern, Materializer, MaterializerOptions, ToolOutputRef};
    use futures_executor::block_on;
    for input in [
        json!({"pattern": "E"}),
        json!({"ref": null, "pattern": "E"}),
    ] {
        let call = ReadCall::parse("context_grep", &input).unwrap();
        assert!(matches!(call, Some(ReadCall::GrepAll { .. })), "{call:?}");
    }
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let io = crate::memory::MemoryWriter::new();
    let text = format!("E1\n{}", "x\n".repeat(3000));
    let output = ToolOutputRef {
        tool_call_id: "a",
        tool_name: "bash",
        server_name: None,
        text: &text,
        was_value: false,
    };
    block_on(m.materialize(&output, &io)).unwrap();
    let tool = block_on(m.run_read_tool("context_grep", &json!({"pattern": "E\\d"}), &io));
    assert!(!tool.is_error, "{}", tool.content);
    let method =
        block_on(m.grep_all(&compile_pattern("E\\d", false).unwrap(), 2, 50, &io)).unwrap();
    assert_eq!(tool.content, method);
    assert!(
        method.contains("ctx://c/tool/a.txt: 1 matching row"),
        "{method}"
    );
    // A ref of the wrong type is still an error, not a search of everything.
    let bad = block_on(m.run_read_tool("context_grep", &json!({"ref": 3, "pattern": "E"}), &io));
    assert!(
        bad.is_error && bad.content.starts_with("ref must be a string"),
        "{}",
        bad.content
    );
}

/// A count past 2^32 was read as `n as usize`: on a 32-bit wasm, 4294967297 became 1
/// (`start_line` read line 1). Every host now refuses it alike.
#[test]
fn counts_past_the_common_range_are_refused_not_wrapped() {
    let input = json!({"a": 4_294_967_297u64, "b": 4_294_967_295u64, "c": -1, "d": 1.5});
    assert_eq!(
        count(&input, "a", 0),
        Err("a must be at most 4294967295, got 4294967297".to_owned())
    );
    assert_eq!(count(&input, "b", 0), Ok(4_294_967_295));
    assert_eq!(
        count(&input, "c", 0),
        Err("c must be a non-negative integer, got -1".to_owned())
    );
    assert!(count(&input, "d", 0).is_err());
    assert_eq!(count(&input, "missing", 7), Ok(7));
}
