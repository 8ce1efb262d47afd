//! The tokio Workspace on disk: the SQLite index agrees with the scan, catches up with
//! other writers, rebuilds itself; the knowledge tools through a registry.

use std::sync::Arc;

use serde_json::{json, Value};
use tool_offload::core::workspace::Query;
use tool_offload::{TokioFileWriter, ToolRegistry, ToolResultCall, Workspace, WorkspaceOptions};

fn options(root: &std::path::Path, task: &str) -> WorkspaceOptions {
    WorkspaceOptions {
        task_id: Some(task.into()),
        ..WorkspaceOptions::at(root.to_str().unwrap())
    }
}

async fn offload(
    ws: &Workspace<impl tool_offload::FileWriter + tool_offload::FileReader + Send + Sync>,
    call: &str,
    tool: &str,
    content: &Value,
) {
    let flag = json!({"offload": true});
    let call = ToolResultCall {
        tool_call_id: call,
        tool_name: tool,
        action_name: None,
        content,
        metadata: flag.as_object(),
    };
    ws.offload_tool_result(&call).await.unwrap();
}

fn ids(records: Vec<tool_offload::core::workspace::KnowledgeRecord>) -> Vec<String> {
    records.into_iter().map(|r| r.id).collect()
}

fn filter(value: Value) -> Query {
    Query::new(value.as_object().unwrap().clone())
}

#[tokio::test]
async fn the_sqlite_index_answers_as_the_scan_does_and_follows_other_writers() {
    let dir = tempfile::tempdir().unwrap();
    let indexed = Workspace::new(options(dir.path(), "t1"))
        .unwrap()
        .with_clock(Arc::new(|| 1000.0));
    let scanning = Workspace::with_io(options(dir.path(), "t2"), TokioFileWriter::new())
        .unwrap()
        .with_clock(Arc::new(|| 2000.0));
    offload(&indexed, "a", "bash", &json!("x".repeat(100))).await;
    offload(&indexed, "b", "grep", &json!({"n": 1})).await;
    assert!(dir.path().join("context/default/index.sqlite").exists());
    // Another writer without the index (as the npm package would be).
    offload(&scanning, "c", "bash", &json!("y")).await;

    for q in [
        filter(json!({})),
        filter(json!({"tool_name": "bash"})),
        filter(json!({"task_id": "t1", "context_type": "tool_result"})),
        filter(json!({"chars": 7})),
        filter(json!({"chars": "7"})),
        Query {
            limit: 1,
            offset: 1,
            ..filter(json!({}))
        },
    ] {
        let from_index = ids(indexed.query_artifacts(&q).await.unwrap());
        let from_scan = ids(scanning.query_artifacts(&q).await.unwrap());
        assert_eq!(from_index, from_scan, "{q:?}");
    }
    assert_eq!(
        ids(indexed.query_artifacts(&filter(json!({}))).await.unwrap()),
        ["tool_result_c", "tool_result_a", "tool_result_b"]
    );
    assert_eq!(
        ids(indexed
            .query_artifacts(&filter(json!({"chars": 7})))
            .await
            .unwrap()),
        ["tool_result_b"]
    );

    // A lost index is rebuilt from the records.
    drop(indexed);
    for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.path().join("context/default").join(name));
    }
    let reopened = Workspace::new(options(dir.path(), "t1"))
        .unwrap()
        .with_clock(Arc::new(|| 3000.0));
    assert_eq!(
        ids(reopened
            .query_artifacts(&filter(json!({"tool_name": "bash"})))
            .await
            .unwrap()),
        ["tool_result_c", "tool_result_a"]
    );
    reopened.rebuild_index().await.unwrap();
    let info = reopened
        .tool_result_offload_info(Some("t1"), None)
        .await
        .unwrap();
    assert_eq!(info.len(), 2);
}

#[tokio::test]
async fn the_knowledge_tools_run_through_a_registry() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(
        Workspace::new(options(dir.path(), "t1"))
            .unwrap()
            .with_clock(Arc::new(|| 0.0)),
    );
    let log: String = (1..=60_000)
        .map(|i| {
            if i == 4242 {
                "FATAL boom\n".to_owned()
            } else {
                format!("ok {i}\n")
            }
        })
        .collect();
    let call = ToolResultCall {
        tool_call_id: "c1",
        tool_name: "bash",
        action_name: Some("run"),
        content: &json!(log),
        metadata: None,
    };
    let done = ws.offload_tool_result(&call).await.unwrap();
    assert!(done.content(&log).starts_with("<knowledge_list>"));
    let mut registry = ToolRegistry::new();
    ws.register_tools(&mut registry).unwrap();
    let out = registry
        .execute_tool(
            "t1",
            "grep_knowledge",
            json!({"id": "tool_result_c1", "pattern": "FATAL", "context": 0}),
        )
        .await
        .unwrap();
    assert!(
        out.content.ends_with("\n4242| FATAL boom"),
        "{}",
        out.content
    );
    let out = registry
        .execute_tool(
            "t2",
            "query_artifacts",
            json!({"filter": {"action_name": "run"}}),
        )
        .await
        .unwrap();
    assert!(
        out.content.contains("\"id\":\"tool_result_c1\""),
        "{}",
        out.content
    );
    let out = registry
        .execute_tool("t3", "get_knowledge_by_id", json!({"id": "nope"}))
        .await
        .unwrap();
    assert!(out.is_error);
}
