//! The workspace end to end, in memory.

use super::*;
use crate::grep::pattern::compile_pattern;
use crate::{error::ErrorCode, memory::MemoryWriter};
use futures_executor::block_on;
use serde_json::json;
use serde_json::{Map, Value};

pub(super) const NOW: f64 = 1_795_000_000_000.0;

pub(super) fn workspace(configure: impl FnOnce(&mut WorkspaceOptions)) -> Workspace {
    let mut options = WorkspaceOptions::new("/data", "/");
    options.agent_id = Some("agent-1".into());
    options.task_id = Some("task-1".into());
    configure(&mut options);
    Workspace::new(options).unwrap()
}

pub(super) fn object(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

pub(super) fn offload(
    ws: &Workspace,
    io: &MemoryWriter,
    call: &str,
    text: &str,
) -> ToolResultOffload {
    let input = ToolResultInput::text(call, "bash", text);
    block_on(ws.offload_tool_result(&input, None, NOW, io)).unwrap()
}

#[test]
fn stores_one_artifact_and_record_per_call_and_replaces_from_the_inline_limit() {
    let (ws, io) = (workspace(|_| {}), MemoryWriter::new());
    let at = "x".repeat(DEFAULT_INLINE_LIMIT);
    let under = "y".repeat(DEFAULT_INLINE_LIMIT - 1);
    let done = offload(&ws, &io, "c1", &at);
    assert!(done.offloaded && done.replacement.is_some());
    assert_eq!(done.artifact_id.as_deref(), Some("tool_result_c1"));
    let kept = offload(&ws, &io, "c2", &under);
    assert!(kept.offloaded, "stored, still inline");
    assert_eq!(kept.replacement, None);
    assert_eq!(kept.content(&under), under);
    assert_eq!(
        io.read("/data/context/default/artifacts/knowledge/tool_result_c1.txt")
            .as_deref(),
        Some(at.as_str())
    );
    let record = io
        .read("/data/context/default/records/tool_result_c2.json")
        .unwrap();
    assert_eq!(
        record,
        format!(
            r#"{{"id":"tool_result_c2","type":"text","metadata":{{"context_type":"tool_result","biz_id":"c2","agent_id":"agent-1","task_id":"task-1","tool_name":"bash","chars":39999,"bytes":39999,"lines":1,"sha256":"{}","created_at":"2026-11-18T11:06:40.000Z"}}}}"#,
            crate::sha256::sha256_hex(&under)
        )
    );
}

#[test]
fn the_knowledge_list_parses_as_xml_and_stays_under_the_limit() {
    let (ws, io) = (
        workspace(|o| o.session_id = Some("s\"<&>".into())),
        MemoryWriter::new(),
    );
    let text: String = (1..=5000)
        .map(|i| {
            format!(
                "row {i} \u{1b}[31m{}\n",
                if i % 700 == 0 {
                    "ERROR <x> & \"y\""
                } else {
                    "ok"
                }
            )
        })
        .collect();
    let mut input = ToolResultInput::text("call_9", "bash", &text);
    input.action_name = Some("run");
    input.metadata = object(json!({"offload": true, "retry": 2, "my key": "hidden"}));
    let done = block_on(ws.offload_tool_result(&input, None, NOW, &io)).unwrap();
    let list = done.replacement.unwrap();
    assert!(crate::text::utf16_len(&list) < DEFAULT_INLINE_LIMIT);
    let doc = roxmltree::Document::parse(&list).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "knowledge_list");
    let entry = root.children().find(|n| n.is_element()).unwrap();
    assert_eq!(entry.attribute("id"), Some("tool_result_call_9"));
    assert_eq!(entry.attribute("session_id"), Some("s\"<&>"));
    assert_eq!(entry.attribute("action_name"), Some("run"));
    assert_eq!(entry.attribute("retry"), Some("2"));
    assert_eq!(entry.attribute("offload"), None, "the flag is not metadata");
    assert_eq!(entry.attribute("lines"), Some("5000"));
    let body = entry.text().unwrap();
    assert!(body.contains("700| row 700 ERROR <x> & \"y\""), "{body}");
    let tail = root.children().next_back().unwrap().text().unwrap();
    assert!(tail.contains("get_knowledge_by_lines(\"tool_result_call_9\", 1, 200)"));
    // The record keeps what the list could not show.
    let record = block_on(ws.record("tool_result_call_9", &io))
        .unwrap()
        .unwrap();
    assert_eq!(record.metadata["my key"], "hidden");
}

#[test]
fn decisions_follow_flags_list_and_threshold_with_a_custom_counter() {
    let ws = workspace(|o| {
        o.offload_tools = vec!["web_fetch".into()];
        o.token_threshold = 10;
    });
    let io = MemoryWriter::new();
    let decide =
        |tool: &str, text: &str, metadata: Value, counter: Option<&io_types::TokenCounter<'_>>| {
            let mut input = ToolResultInput::text("c", tool, text);
            input.metadata = object(metadata);
            let done = block_on(ws.offload_tool_result(&input, counter, NOW, &io)).unwrap();
            done.decision.unwrap().reason
        };
    use DecisionReason::*;
    // 35 letters are 10 estimated tokens, 36 are 11.
    assert_eq!(
        decide("ls", &"a".repeat(35), json!({}), None),
        UnderThreshold
    );
    assert_eq!(
        decide("ls", &"a".repeat(36), json!({}), None),
        OverThreshold
    );
    assert_eq!(
        decide("ls", &"a".repeat(41), json!({"offload": false}), None),
        FlagFalse
    );
    let words: &io_types::TokenCounter<'_> = &|t| Ok(t.split(' ').count());
    assert_eq!(
        decide("ls", "a b c", json!({}), Some(words)),
        UnderThreshold
    );
    let io2 = MemoryWriter::new();
    let mut input = ToolResultInput::text("c2", "ls", "a b c d e f g h i j k");
    let done = block_on(ws.offload_tool_result(&input, Some(words), NOW, &io2)).unwrap();
    assert_eq!(done.decision.unwrap().tokens, Some(11));
    assert!(done.offloaded);
    input.tool_call_id = "c3";
    input.tool_name = "web_fetch";
    input.text = "tiny";
    let failing: &io_types::TokenCounter<'_> = &|_| {
        Err(crate::error::OffloadError::InvalidArgument(
            "counter".into(),
        ))
    };
    let done = block_on(ws.offload_tool_result(&input, Some(failing), NOW, &io2)).unwrap();
    assert_eq!(
        done.decision.unwrap().reason,
        ListedTool,
        "the counter is not needed"
    );
    input.tool_name = "ls";
    let done = block_on(ws.offload_tool_result(&input, Some(failing), NOW, &io2)).unwrap();
    assert_eq!(
        (done.offloaded, done.decision.unwrap().tokens),
        (false, None),
        "4 bytes cannot hold 11 tokens: not counted"
    );
    input.text = "more than ten bytes";
    let err = block_on(ws.offload_tool_result(&input, Some(failing), NOW, &io2)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
}

#[test]
fn offloading_again_is_idempotent_and_a_different_content_is_numbered() {
    let (ws, io) = (workspace(|_| {}), MemoryWriter::new());
    let text = "z".repeat(50_000);
    let first = offload(&ws, &io, "c1", &text);
    let list = first.replacement.clone().unwrap();
    let again = offload(&ws, &io, "c1", &text);
    assert_eq!(again.replacement, first.replacement);
    assert!(again.stored.unwrap().reused);
    let noop = offload(&ws, &io, "c1", &list);
    assert_eq!((noop.offloaded, noop.decision), (false, None));
    // A fresh workspace (another process) sees the record on disk.
    let other = workspace(|_| {});
    let input = ToolResultInput::text("c1", "bash", "different");
    let mut input = input;
    input.metadata = object(json!({"offload": true}));
    let done = block_on(other.offload_tool_result(&input, None, NOW, &io)).unwrap();
    assert_eq!(done.artifact_id.as_deref(), Some("tool_result_c1-1"));
}

#[test]
fn add_stores_any_knowledge_and_needs_a_context_type() {
    let (ws, io) = (workspace(|_| {}), MemoryWriter::new());
    let input = KnowledgeInput {
        id: "plan-1",
        text: "{\"steps\":[1,2]}",
        kind: KnowledgeType::Json,
        metadata: object(json!({"context_type": "plan", "task_id": "task-9"})),
        known: Default::default(),
    };
    let stored = block_on(ws.add(&input, NOW, &io)).unwrap();
    assert_eq!(
        stored.path,
        "/data/context/default/artifacts/knowledge/plan-1.json"
    );
    let keys: Vec<_> = stored.record.metadata.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "context_type",
            "task_id",
            "agent_id",
            "chars",
            "bytes",
            "lines",
            "sha256",
            "created_at"
        ]
    );
    assert_eq!(
        stored.record.metadata["task_id"], "task-9",
        "the caller's wins"
    );
    let mut missing = input.clone();
    missing.metadata = object(json!({"context_type": 1}));
    let err = block_on(ws.add(&missing, NOW, &io)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    let mut bad = input.clone();
    bad.id = "../escape";
    assert_eq!(
        block_on(ws.add(&bad, NOW, &io)).unwrap_err().code(),
        ErrorCode::InvalidId
    );
    bad.id = "bell\u{7}";
    let err = block_on(ws.add(&bad, NOW, &io)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid id \"bell\\u{7}\": contains a control character, which a <knowledge_list> cannot carry"
    );
    bad.id = "tab\tok";
    assert!(
        block_on(ws.add(&bad, NOW, &io)).is_ok(),
        "XML carries a tab as &#9;"
    );
}

#[test]
fn queries_and_the_overview_see_every_process_newest_first() {
    let io = MemoryWriter::new();
    let a = workspace(|_| {});
    let b = workspace(|o| o.task_id = Some("task-2".into()));
    let big = "b".repeat(50_000);
    let input = |call: &'static str| ToolResultInput::text(call, "grep", &big);
    block_on(a.offload_tool_result(&input("c1"), None, NOW, &io)).unwrap();
    block_on(b.offload_tool_result(&input("c2"), None, NOW + 1.0, &io)).unwrap();
    block_on(a.offload_tool_result(&input("c3"), None, NOW + 2.0, &io)).unwrap();
    let ids = |ws: &Workspace, filter: Value| -> Vec<String> {
        let q = Query::new(object(filter));
        block_on(ws.query(&q, &io))
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect()
    };
    assert_eq!(
        ids(&a, json!({"context_type": "tool_result"})),
        ["tool_result_c3", "tool_result_c2", "tool_result_c1"]
    );
    assert_eq!(ids(&a, json!({"task_id": "task-2"})), ["tool_result_c2"]);
    assert_eq!(ids(&b, json!({"biz_id": "c1"})), ["tool_result_c1"]);
    let info = block_on(a.tool_result_offload_info(Some("task-1"), None, &io)).unwrap();
    let listed: Vec<_> = info.iter().map(|i| i.artifact_id.as_str()).collect();
    assert_eq!(listed, ["tool_result_c3", "tool_result_c1"]);
    assert_eq!(info[0].chars, 50_000);
}

#[test]
fn reads_page_and_grep_through_the_materializer_in_its_own_namespace() {
    let io = MemoryWriter::new();
    let ws = workspace(|_| {});
    let text: String = (1..=3000).map(|i| format!("line {i}\n")).collect();
    offload(&ws, &io, "c1", &text);
    let page = block_on(ws.get_by_lines("tool_result_c1", 2, 3, &io)).unwrap();
    assert_eq!(
        page,
        "[tool_result_c1: lines 2-3 of 3,000. More: get_knowledge_by_lines(\"tool_result_c1\", 4, 5)]\n2| line 2\n3| line 3"
    );
    let long = "w".repeat(100_000);
    offload(&ws, &io, "wide", &long);
    let first = block_on(ws.get_by_lines("tool_result_wide", 1, 1, &io)).unwrap();
    let header = first.lines().next().unwrap();
    assert!(
        header.ends_with("More: get_knowledge_by_lines(\"tool_result_wide\", 1, 1, part=20)]"),
        "{header}"
    );
    let next = block_on(ws.get_by_lines_from("tool_result_wide", (1, 20), 1, &io)).unwrap();
    assert!(
        next.lines().nth(1).unwrap().starts_with("1.20| w"),
        "{next}"
    );
    let pattern = compile_pattern("line 2999$", false).unwrap();
    let found = block_on(ws.grep("tool_result_c1", &pattern, 0, 10, &io)).unwrap();
    assert!(found.contains("2999| line 2999"), "{found}");
    assert_eq!(
        block_on(ws.get_by_id("tool_result_c1", &io))
            .unwrap()
            .content,
        text
    );
    let bad = block_on(ws.get_by_lines("tool_result_c1", 0, 3, &io)).unwrap_err();
    assert_eq!(bad.code(), ErrorCode::InvalidArgument);
    // Another namespace under the same root does not see it.
    let other = workspace(|o| o.namespace = "team-b".into());
    let err = block_on(other.get_by_id("tool_result_c1", &io)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert_eq!(
        err.to_string(),
        "no knowledge artifact \"tool_result_c1\" in namespace \"team-b\""
    );
    assert!(block_on(other.query(&Query::new(Map::new()), &io))
        .unwrap()
        .is_empty());
}

#[test]
fn bad_options_are_refused() {
    let mut options = WorkspaceOptions::new("/data", "/");
    options.namespace = "a/b".into();
    let err = Workspace::new(options.clone()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert!(
        err.to_string().starts_with("invalid namespace \"a/b\""),
        "{err}"
    );
    options.namespace = "ok".into();
    options.inline_limit = MIN_INLINE_LIMIT - 1;
    assert_eq!(
        Workspace::new(options).unwrap_err().code(),
        ErrorCode::InvalidArgument
    );
}
