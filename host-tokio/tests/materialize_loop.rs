//! The tokio host's Materializer wired into loops: messages, terminal, registry and
//! read-back tools, export and import — on real files.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{json, Value};
use tool_offload::tools::{ToolDefinition, ToolOutput};
use tool_offload::{
    import_conversation, ErrorCode, Materialized, Materializer, ResultOffload, ToolRegistry,
};

fn log(lines: usize, marker: &str) -> String {
    (1..=lines)
        .map(|i| format!("{marker} line {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn conversation() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "build it"}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"cmd": "make"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": log(800, "make")}]}),
        json!({"role": "assistant", "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "sql", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": log(600, "row")}]}),
        json!({"role": "tool", "tool_call_id": "call_3", "content": "short"}),
    ]
}

#[tokio::test]
async fn materialize_messages_is_idempotent_and_names_tools() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv").unwrap();
    let messages = conversation();
    let first = m.materialize_messages(&messages).await.unwrap();
    let ids: Vec<_> = first.refs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["ctx://conv/tool/toolu_1.txt", "ctx://conv/tool/call_2.txt"]
    );
    assert_eq!(
        (
            first.refs[0].hint.tool_name.as_str(),
            first.refs[1].hint.tool_name.as_str()
        ),
        ("bash", "sql")
    );
    let borrowed: Vec<_> = first
        .messages
        .iter()
        .map(|m| matches!(m, Cow::Borrowed(_)))
        .collect();
    assert_eq!(borrowed, [true, true, false, true, false, true]);
    let summary = first.messages[2]["content"][0]["content"].as_str().unwrap();
    assert!(
        summary.starts_with("[Output of bash (call toolu_1) stored as ctx://conv/tool/toolu_1.txt")
    );
    // Text blocks are stored as the text they hold, with real lines.
    assert_eq!(
        std::fs::read_to_string(&first.paths[1]).unwrap(),
        log(600, "row")
    );

    let again: Vec<Value> = first
        .messages
        .iter()
        .map(|m| m.clone().into_owned())
        .collect();
    let second = m.materialize_messages(&again).await.unwrap();
    assert!(second.refs.is_empty());
    assert!(second
        .messages
        .iter()
        .all(|m| matches!(m, Cow::Borrowed(_))));
    assert_eq!(m.stats().hits, 2);
}

#[tokio::test]
async fn repeated_ids_with_different_content_never_overwrite() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv").unwrap();
    let messages = vec![
        json!({"role": "tool", "tool_call_id": "c", "content": log(900, "a")}),
        json!({"role": "tool", "tool_call_id": "c", "content": log(900, "b")}),
    ];
    let done = m.materialize_messages(&messages).await.unwrap();
    let ids: Vec<_> = done.refs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["ctx://conv/tool/c.txt", "ctx://conv/tool/c-1.txt"]);
    assert_eq!(
        std::fs::read_to_string(&done.paths[0]).unwrap(),
        log(900, "a")
    );
    assert_eq!(
        std::fs::read_to_string(&done.paths[1]).unwrap(),
        log(900, "b")
    );
}

#[tokio::test]
async fn terminal_output_goes_to_a_log_artifact() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv").unwrap();
    let Materialized::Artifact {
        summary,
        reference,
        path,
    } = m
        .materialize_terminal("snip-1", &log(700, "$"))
        .await
        .unwrap()
    else {
        panic!("expected an artifact")
    };
    assert!(path.ends_with("/context/conv/artifacts/terminal/snip-1.log"));
    assert_eq!(reference.id, "ctx://conv/terminal/snip-1.log");
    assert!(summary.starts_with(
        "[Output of terminal (snippet snip-1) stored as ctx://conv/terminal/snip-1.log"
    ));
    assert!(m
        .tail(&reference.id, 1)
        .await
        .unwrap()
        .ends_with("700| $ line 700"));
    assert_eq!(
        m.materialize_terminal("../x", &log(700, "$"))
            .await
            .unwrap_err()
            .code(),
        ErrorCode::InvalidId
    );
}

#[tokio::test]
async fn export_then_import_elsewhere_resolves_every_ref() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let m = Materializer::in_dir(a.path(), "conv").unwrap();
    let messages = conversation();
    let slim: Vec<Value> = m
        .materialize_messages(&messages)
        .await
        .unwrap()
        .messages
        .into_iter()
        .map(Cow::into_owned)
        .collect();
    let bundle = m.export_conversation(&slim).await.unwrap();
    assert_eq!(bundle["artifacts"].as_array().unwrap().len(), 2);
    assert_eq!(bundle["artifacts"][0]["path"], "tool/toolu_1.txt");

    let imported = import_conversation(&bundle, b.path()).await.unwrap();
    assert_eq!(imported.messages, Value::Array(slim.clone()));
    let restored = Materializer::in_dir(b.path(), &imported.conversation_id).unwrap();
    let page = restored
        .read("ctx://conv/tool/toolu_1.txt", 0, 1)
        .await
        .unwrap();
    assert!(page.ends_with("1| make line 1"), "{page}");
    // Importing the same bundle again is a no-op; a different file in the way is refused.
    import_conversation(&bundle, b.path()).await.unwrap();
    std::fs::write(&imported.paths[0], "other").unwrap();
    let err = import_conversation(&bundle, b.path()).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::ArtifactExists);
    assert_eq!(
        std::fs::read_to_string(&imported.paths[0]).unwrap(),
        "other"
    );
}

#[tokio::test]
async fn tampered_or_escaping_bundles_are_refused_before_writing() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let m = Materializer::in_dir(a.path(), "conv").unwrap();
    let slim: Vec<Value> = m
        .materialize_messages(&conversation())
        .await
        .unwrap()
        .messages
        .into_iter()
        .map(Cow::into_owned)
        .collect();
    let bundle = m.export_conversation(&slim).await.unwrap();

    let mut tampered = bundle.clone();
    tampered["artifacts"][1]["content"] = json!("[]");
    let err = import_conversation(&tampered, b.path()).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidBundle);
    assert!(
        err.to_string()
            .contains("artifacts[1] (tool/call_2.txt) fails its SHA-256 check"),
        "{err}"
    );

    let mut escaping = bundle.clone();
    escaping["artifacts"][0]["ref"] = json!("ctx://conv/tool/../../../x.txt");
    escaping["artifacts"][0]["path"] = json!("tool/../../../x.txt");
    let err = import_conversation(&escaping, b.path()).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidBundle);

    let mut missing = bundle.clone();
    missing["artifacts"].as_array_mut().unwrap().pop();
    let err = import_conversation(&missing, b.path()).await.unwrap_err();
    assert!(
        err.to_string()
            .contains("refer to ctx://conv/tool/call_2.txt but the bundle has no artifact"),
        "{err}"
    );

    // Nothing was written by any refused import.
    assert_eq!(std::fs::read_dir(b.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn registry_materializes_results_but_never_the_read_back_tools() {
    let root = tempfile::tempdir().unwrap();
    let m = Arc::new(Materializer::in_dir(root.path(), "conv").unwrap());
    let mut registry = ToolRegistry::with_materializer(m.clone());
    m.register_tools(&mut registry).unwrap();
    registry
        .register(
            ToolDefinition::new("build", "Build.", json!({"type": "object"})),
            |_| async { Ok(ToolOutput::error(log(900, "error: failed"))) },
        )
        .unwrap();
    let result = registry
        .execute_tool("toolu_9", "build", json!({}))
        .await
        .unwrap();
    assert!(result.is_error);
    assert!(result
        .content
        .starts_with("[Output of build (call toolu_9) stored as ctx://conv/tool/toolu_9.txt"));

    let page = registry
        .execute_tool(
            "toolu_10",
            "context_read",
            json!({"ref": "ctx://conv/tool/toolu_9.txt", "limit": 5000}),
        )
        .await
        .unwrap();
    assert!(!page.is_error);
    assert!(
        page.content
            .starts_with("[ctx://conv/tool/toolu_9.txt: lines 1-"),
        "{}",
        &page.content[..80]
    );
    assert!(tool_offload::utf16_len(&page.content) <= 4000);

    let bad = registry
        .execute_tool(
            "toolu_11",
            "context_grep",
            json!({"ref": "ctx://other/tool/x.txt", "pattern": "x"}),
        )
        .await
        .unwrap();
    assert!(bad.is_error);
    assert_eq!(
        bad.content,
        "ref \"ctx://other/tool/x.txt\" is outside this conversation's artifacts"
    );
    let bad = registry
        .execute_tool(
            "toolu_12",
            "context_grep",
            json!({"ref": "ctx://conv/tool/toolu_9.txt", "pattern": "("}),
        )
        .await
        .unwrap();
    assert!(
        bad.is_error && bad.content.starts_with("invalid pattern \"(\""),
        "{}",
        bad.content
    );
    assert_eq!(
        m.register_tools(&mut registry).unwrap_err().to_string(),
        "tool \"context_read\" is already registered"
    );
}

#[tokio::test]
async fn an_offloading_registry_leaves_read_back_pages_alone() {
    let root = tempfile::tempdir().unwrap();
    let m = Arc::new(Materializer::in_dir(root.path(), "conv").unwrap());
    m.materialize_terminal("t", &log(900, "x")).await.unwrap();
    let mut registry = ToolRegistry::with_offload(ResultOffload::at(
        root.path().join("out").to_str().unwrap(),
        "s",
    ))
    .unwrap();
    m.register_tools(&mut registry).unwrap();
    let page = registry
        .execute_tool(
            "toolu_1",
            "context_tail",
            json!({"ref": "ctx://conv/terminal/t.log"}),
        )
        .await
        .unwrap();
    assert!(
        tool_offload::utf16_len(&page.content) > 1000,
        "over the offload threshold"
    );
    assert!(page.content.ends_with("900| x line 900"));
}
