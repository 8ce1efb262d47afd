//! Concurrent stores of one tool-call id, on a real disk from many tasks and from
//! workspaces that share nothing (as processes do): each call reads back its own output,
//! and every record's SHA-256 is its artifact's.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{json, Value};
use tool_offload::core::materialize::sha256_hex;
use tool_offload::core::workspace::Query;
use tool_offload::{TokioFileWriter, ToolResultCall, Workspace};

/// 20 outputs, 4 different ones under each of 5 ids.
fn outputs() -> Vec<(String, Value)> {
    (0..20)
        .map(|i| {
            let text = format!("output {i}: {}\n", "x".repeat(80)).repeat(600);
            (format!("call_{}", i % 5), Value::String(text))
        })
        .collect()
}

async fn store(ws: &Workspace<TokioFileWriter>, id: &str, content: &Value) -> String {
    let flag = json!({"offload": true});
    let call = ToolResultCall {
        tool_call_id: id,
        tool_name: "bash",
        action_name: None,
        content,
        metadata: flag.as_object(),
    };
    let done = ws.offload_tool_result(&call).await.unwrap();
    done.artifact_id.expect("stored")
}

async fn check(ws: &Workspace<TokioFileWriter>, stored: &[(String, Value)], ids: &[String]) {
    let mut distinct = HashSet::new();
    for ((_, content), id) in stored.iter().zip(ids) {
        let back = ws.get_by_id(id).await.unwrap();
        assert_eq!(
            back.content,
            content.as_str().unwrap(),
            "{id}: another call's output"
        );
        assert!(distinct.insert(id.clone()), "{id} holds two outputs");
    }
    let mut every = Query::new(Default::default());
    every.limit = 100;
    let records = ws.query_artifacts(&every).await.unwrap();
    assert_eq!(records.len(), stored.len());
    for record in records {
        let back = ws.get_by_id(&record.id).await.unwrap();
        assert_eq!(record.sha256(), Some(sha256_hex(&back.content).as_str()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_sharing_a_workspace_each_read_back_their_own_output() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(Workspace::in_dir(dir.path()).unwrap());
    let stored = outputs();
    let tasks: Vec<_> = stored
        .iter()
        .cloned()
        .map(|(id, content)| {
            let ws = ws.clone();
            tokio::spawn(async move { store(&ws, &id, &content).await })
        })
        .collect();
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap());
    }
    check(&ws, &stored, &ids).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn workspaces_sharing_nothing_but_the_disk_each_read_back_their_own_output() {
    let dir = tempfile::tempdir().unwrap();
    let stored = outputs();
    let tasks: Vec<_> = stored
        .iter()
        .cloned()
        .map(|(id, content)| {
            let root = dir.path().to_owned();
            tokio::spawn(async move {
                let ws = Workspace::in_dir(root).unwrap();
                store(&ws, &id, &content).await
            })
        })
        .collect();
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap());
    }
    let ws = Workspace::in_dir(dir.path()).unwrap();
    check(&ws, &stored, &ids).await;
}

#[test]
fn the_workspace_futures_can_be_spawned() {
    fn spawnable<T: Send>(_: T) {}
    let dir = tempfile::tempdir().unwrap();
    // A counter makes no difference: it is not held across an await.
    let ws = Workspace::in_dir(dir.path())
        .unwrap()
        .with_token_counter(Arc::new(|text: &str| text.len() / 4));
    let content = json!("output");
    let call = ToolResultCall {
        tool_call_id: "c",
        tool_name: "bash",
        action_name: None,
        content: &content,
        metadata: None,
    };
    spawnable(ws.offload_tool_result(&call));
    spawnable(ws.offload_messages(&[]));
    spawnable(ws.get_by_id("c"));
}
