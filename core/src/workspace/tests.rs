//! The workspace end to end, in memory.

use super::*;
use crate::materialize::compile_pattern;
use crate::utf16_len;
use crate::{ErrorCode, Map, MemoryWriter, Value};
use futures_executor::block_on;
use serde_json::json;

const NOW: f64 = 1_795_000_000_000.0;

fn workspace(configure: impl FnOnce(&mut WorkspaceOptions)) -> Workspace {
    let mut options = WorkspaceOptions::new("/data", "/");
    options.agent_id = Some("agent-1".into());
    options.task_id = Some("task-1".into());
    configure(&mut options);
    Workspace::new(options).unwrap()
}

fn object(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

fn offload(ws: &Workspace, io: &MemoryWriter, call: &str, text: &str) -> ToolResultOffload {
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
            crate::materialize::sha256_hex(&under)
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
    assert!(crate::utf16_len(&list) < DEFAULT_INLINE_LIMIT);
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
    let failing: &io_types::TokenCounter<'_> =
        &|_| Err(crate::OffloadError::InvalidArgument("counter".into()));
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
            crate::apply_edits(&mut m, edits);
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
                crate::FileWriter::mkdir(&*io, dir).await.unwrap();
                let created = crate::FileWriter::create_file(&*io, &path, &record.to_json()).await;
                assert_eq!(created.unwrap(), crate::CreateOutcome::Created);
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
