//! The knowledge tools and listings the model reads, in memory.

use super::tests::{object, workspace, NOW};
use super::*;
use crate::text::utf16_len;
use crate::{error::ErrorCode, memory::MemoryWriter};
use futures_executor::block_on;
use serde_json::json;
use serde_json::Value;

#[test]
fn the_knowledge_tools_answer_the_model_within_the_limit() {
    let io = MemoryWriter::new();
    let ws = workspace(|o| o.inline_limit = MIN_INLINE_LIMIT);
    let run = |name: &str, input: Value| block_on(ws.run_knowledge_tool(name, &input, &io));
    let small = "alpha\nbeta ERROR\n";
    let mut input = ToolResultInput::text("s1", "bash", small);
    input.metadata = object(json!({"offload": true}));
    block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();
    let big: String = (1..=400).map(|i| format!("row {i}\n")).collect();
    let mut input = ToolResultInput::text("b1", "bash", &big);
    input.metadata = object(json!({"offload": true}));
    block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();

    let out = run(GET_KNOWLEDGE_BY_ID, json!({"id": "tool_result_s1"}));
    assert!(!out.is_error);
    assert!(
        out.content.starts_with(
            "[tool_result_s1: text; metadata {\"context_type\":\"tool_result\",\"biz_id\":\"s1\""
        ),
        "{}",
        out.content
    );
    assert!(
        out.content.ends_with("]\nalpha\nbeta ERROR\n"),
        "{}",
        out.content
    );
    let out = run(GET_KNOWLEDGE_BY_ID, json!({"id": "tool_result_b1"}));
    assert!(out.content.ends_with("}]\n[Content: 3,092 characters, 400 lines; too long to show here: read it with get_knowledge_by_lines(\"tool_result_b1\", 1, 200) or search it with grep_knowledge(\"tool_result_b1\", \"<pattern>\").]"), "{}", out.content);
    assert!(utf16_len(&out.content) < MIN_INLINE_LIMIT);

    let out = run(
        GET_KNOWLEDGE_BY_LINES,
        json!({"id": "tool_result_b1", "start_line": 399}),
    );
    assert_eq!(
        out.content,
        "[tool_result_b1: lines 399-400 of 400, the end.]\n399| row 399\n400| row 400"
    );
    let out = run(GET_KNOWLEDGE_BY_LINES, json!({"id": "tool_result_b1"}));
    assert_eq!(
        (out.is_error, out.content.as_str()),
        (true, "start_line is required")
    );
    let out = run(
        GREP_KNOWLEDGE,
        json!({"id": "tool_result_s1", "pattern": "error", "ignore_case": true, "context": 0}),
    );
    assert!(out.content.ends_with("\n2| beta ERROR"), "{}", out.content);
    let out = run(
        GREP_KNOWLEDGE,
        json!({"id": "tool_result_s1", "pattern": "(?=x)"}),
    );
    assert!(out.is_error);

    let out = run(QUERY_ARTIFACTS, json!({"filter": {"biz_id": "s1"}}));
    assert!(out.content.starts_with("[1 artifact, newest first, from offset 0.]\n{\"id\":\"tool_result_s1\",\"type\":\"text\",\"metadata\":{"), "{}", out.content);
    let out = run(QUERY_ARTIFACTS, json!({"filter": {"tool_name": "nope"}}));
    assert_eq!(out.content, "[No artifacts match.]");
    let out = run(QUERY_ARTIFACTS, json!({"filter": "bash"}));
    assert_eq!(
        (out.is_error, out.content.as_str()),
        (true, "filter must be an object, got \"bash\"")
    );

    let out = run(GET_TOOL_RESULT_OFFLOAD_INFO, Value::Null);
    assert_eq!(
        out.content.lines().next(),
        Some("[2 tool results stored in namespace \"default\", newest first.]")
    );
    let out = run(GET_TOOL_RESULT_OFFLOAD_INFO, json!({"task_id": "other"}));
    assert_eq!(
        out.content,
        "[No tool results stored in namespace \"default\".]"
    );

    let out = run(GET_KNOWLEDGE_BY_ID, json!({"id": "../x"}));
    assert_eq!(
        (out.is_error, out.content.as_str()),
        (true, "invalid id \"../x\": contains \"/\"")
    );
    assert!(run("context_read", json!({})).is_error);
    assert!(run(QUERY_ARTIFACTS, json!([1])).is_error);
}

#[test]
fn long_listings_are_cut_with_a_way_to_the_rest() {
    let io = MemoryWriter::new();
    let ws = workspace(|o| o.inline_limit = MIN_INLINE_LIMIT);
    for i in 0..40 {
        let call = format!("c{i:02}");
        let mut input = ToolResultInput::text(&call, "bash", "x");
        input.metadata = object(json!({"offload": true}));
        block_on(ws.offload_tool_result(&input, None, NOW + f64::from(i), &io)).unwrap();
    }
    let out = block_on(ws.run_knowledge_tool(QUERY_ARTIFACTS, &json!({}), &io));
    let header = out.content.lines().next().unwrap();
    assert!(
        header.starts_with("[")
            && header.contains(
                " of 40 artifacts shown, newest first. More: query_artifacts with offset "
            ),
        "{header}"
    );
    assert!(utf16_len(&out.content) < MIN_INLINE_LIMIT);
    assert!(out
        .content
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("{\"id\":\"tool_result_c39\""));
    let out = block_on(ws.run_knowledge_tool(GET_TOOL_RESULT_OFFLOAD_INFO, &json!({}), &io));
    assert!(utf16_len(&out.content) < MIN_INLINE_LIMIT);
    assert!(
        out.content.starts_with("[") && out.content.contains(" of 40 tool results stored"),
        "{}",
        out.content
    );
}

#[test]
fn the_workspace_says_where_it_lives() {
    let ws = workspace(|o| o.namespace = "team-a".into());
    assert_eq!(ws.dir(), "/data/context/team-a");
    assert_eq!(ws.records_dir(), "/data/context/team-a/records");
    // Namespaces named like the directories inside one stay one directory.
    for name in ["artifacts", "records"] {
        let ws = workspace(|o| o.namespace = name.into());
        assert_eq!(ws.dir(), format!("/data/context/{name}"));
        assert_eq!(ws.records_dir(), format!("/data/context/{name}/records"));
    }
    let shown = format!("{ws:?}");
    assert!(
        shown.starts_with("Workspace {") && shown.contains("indexed: false"),
        "{shown}"
    );
}

#[test]
fn line_ranges_must_be_ordered_and_parts_start_at_one() {
    let io = MemoryWriter::new();
    let ws = workspace(|_| {});
    let text: String = (1..=300).map(|i| format!("r{i}\n")).collect();
    let mut input = ToolResultInput::text("p", "cat", &text);
    input.metadata = object(json!({"offload": true}));
    block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();
    for (start, part, end) in [(5, 1, 3), (5, 0, 9), (0, 1, 3)] {
        let err =
            block_on(ws.get_by_lines_from("tool_result_p", (start, part), end, &io)).unwrap_err();
        assert_eq!(
            err.code(),
            ErrorCode::InvalidArgument,
            "{start} {part} {end}"
        );
    }
}

#[test]
fn a_listing_fills_the_page_exactly_up_to_the_limit() {
    let ws = workspace(|o| o.inline_limit = MIN_INLINE_LIMIT);
    // A header of 21 units: the budget is 1999 - 21 = 1978 = 23 lines of 85 + newline.
    let header = |shown: usize, total: usize| format!("[{shown:>4} of {total:>4} lines.]");
    assert_eq!(utf16_len(&header(1, 2)), 21);
    let lines = || (0..50).map(|i| format!("{i:0>85}"));
    let page = ws.bounded(lines(), header);
    assert_eq!(page.lines().count(), 1 + 23, "{page}");
    assert!(page.starts_with("[  23 of   50 lines.]\n"));
    assert!(utf16_len(&page) < MIN_INLINE_LIMIT);
    // One-character lines: 1978 / 2 = 989 of them, to the unit.
    let page = ws.bounded((0..2000).map(|i| (i % 10).to_string()), header);
    assert_eq!(page.lines().count(), 1 + 989);
    assert_eq!(utf16_len(&page), MIN_INLINE_LIMIT - 1);
}

#[test]
fn get_knowledge_by_id_shows_content_only_strictly_under_the_limit() {
    let io = MemoryWriter::new();
    let ws = workspace(|o| o.inline_limit = MIN_INLINE_LIMIT);
    let head = |id: &str| {
        let record = block_on(ws.record(id, &io)).unwrap().unwrap();
        let metadata = crate::json::stringify(&Value::Object(record.metadata));
        utf16_len(&format!("[{id}: text; metadata {metadata}]\n"))
    };
    let store = |call: &str, len: usize| {
        let text = "z".repeat(len);
        let mut input = ToolResultInput::text(call, "cat", &text);
        input.metadata = object(json!({"offload": true}));
        block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();
    };
    // Lengths of four digits keep the head's length fixed.
    store("q1", 1500);
    let exact = MIN_INLINE_LIMIT - head("tool_result_q1");
    assert_eq!(exact.to_string().len(), 4);
    store("q2", exact);
    assert_eq!(head("tool_result_q2") + exact, MIN_INLINE_LIMIT);
    let out =
        block_on(ws.run_knowledge_tool(GET_KNOWLEDGE_BY_ID, &json!({"id": "tool_result_q2"}), &io));
    assert!(
        out.content.contains("[Content: "),
        "at the limit: where to read it"
    );
    store("q3", exact - 1);
    let out =
        block_on(ws.run_knowledge_tool(GET_KNOWLEDGE_BY_ID, &json!({"id": "tool_result_q3"}), &io));
    assert!(
        out.content.ends_with(&"z".repeat(exact - 1)),
        "one under: the content"
    );
    // Metadata longer than half the limit is cut in the head.
    let big = "m".repeat(3_000);
    let mut input = ToolResultInput::text("q4", "cat", "small");
    input.metadata = object(json!({"offload": true, "note": big}));
    block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();
    let out =
        block_on(ws.run_knowledge_tool(GET_KNOWLEDGE_BY_ID, &json!({"id": "tool_result_q4"}), &io));
    assert!(
        utf16_len(&out.content) < MIN_INLINE_LIMIT,
        "{}",
        out.content.len()
    );
    assert!(
        out.content.ends_with("small"),
        "the cut head, then the content"
    );
}

#[test]
fn the_knowledge_tools_register_all_or_none() {
    let mut registry = crate::tools::ToolRegistry::new();
    register_knowledge_tools(&mut registry, |name| name.to_owned()).unwrap();
    let names: Vec<_> = registry.definitions().map(|d| d.name.clone()).collect();
    assert_eq!(names.len(), 5);
    assert!(registry.is_passthrough(GREP_KNOWLEDGE));
    let mut taken = crate::tools::ToolRegistry::new();
    let grep = knowledge_tool_definitions()[2].clone();
    taken.register(grep, "mine".to_owned()).unwrap();
    assert!(register_knowledge_tools(&mut taken, |name| name.to_owned()).is_err());
    assert!(taken.get(GET_KNOWLEDGE_BY_ID).is_none(), "none registered");
}
