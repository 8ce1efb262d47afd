//! Demo: a `Workspace` shared by two tasks. Each tool result goes through
//! `offload_tool_result`: small ones stay in the conversation, larger ones are stored with
//! who produced them, and the largest come back as a `<knowledge_list>` reference. Then
//! the platform queries the store, and the model reads back with the knowledge tools.
//! Scripted (`examples/workspace-loop/script.json`): no network, no API key.
//!
//! `cargo run -p tool-offload --example workspace_loop [-- ROOT_DIR]`
//!
//! `examples/workspace-loop.mjs` replays the same script with the npm package; both print
//! the same report and write byte-identical files (this one also keeps its SQLite index).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::json;
use tool_offload::core::workspace::Query;
use tool_offload::{json, ToolRegistry, ToolResultCall, Value, Workspace, WorkspaceOptions};

type Error = Box<dyn std::error::Error>;

/// A call's output: a log of `lines` lines (errors where asked), or JSON rows.
fn output(call: &Value) -> Value {
    if let Some(rows) = call["rows"].as_u64() {
        let rows: Vec<Value> = (1..=rows)
            .map(|i| json!({"id": i, "name": format!("item {i}"), "ok": (i - 1) % 7 != 0}))
            .collect();
        return json!({ "rows": rows });
    }
    let log = &call["log"];
    let text = log["text"].as_str().unwrap_or_default();
    let errors: Vec<u64> = log["errorAt"]
        .as_array()
        .map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_u64).collect());
    let lines: Vec<String> = (1..=log["lines"].as_u64().unwrap_or(0))
        .map(|i| {
            if errors.contains(&i) {
                format!("error[E0{i}]: something failed at line {i}")
            } else {
                format!("{text}{i}")
            }
        })
        .collect();
    Value::String(lines.join("\n"))
}

/// Length in UTF-16 units of a string, or of a value's `JSON.stringify`.
fn size(content: &Value) -> usize {
    match content {
        Value::String(s) => tool_offload::utf16_len(s),
        other => tool_offload::utf16_len(&json::stringify(other)),
    }
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_default()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/workspace-loop");
    let script = json::parse(&std::fs::read_to_string(fixtures.join("script.json"))?)?;
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "out/workspace-loop/rust".into());
    match tokio::fs::remove_dir_all(&root).await {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
        _ => {}
    }
    let namespace = text(&script, "namespace");
    let offload_tools: Vec<String> = script["offloadTools"]
        .as_array()
        .map_or_else(Vec::new, |a| {
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect()
        });
    let clock = Arc::new(AtomicU64::new(script["start"].as_u64().unwrap_or(0)));

    println!("Workspace loop — Rust crate (tool-offload, native core, SQLite index)");
    let (mut before, mut after) = (0, 0);
    for task in script["tasks"].as_array().into_iter().flatten() {
        let now = clock.clone();
        let ws = Workspace::new(WorkspaceOptions {
            namespace: namespace.into(),
            agent_id: Some(text(task, "agentId").into()),
            task_id: Some(text(task, "taskId").into()),
            session_id: Some(text(task, "sessionId").into()),
            offload_tools: offload_tools.clone(),
            ..WorkspaceOptions::at(&root)
        })?
        .with_clock(Arc::new(move || now.load(Ordering::SeqCst) as f64));
        println!(
            "\n{} (agent {}, session {})",
            text(task, "taskId"),
            text(task, "agentId"),
            text(task, "sessionId")
        );
        for call in task["calls"].as_array().into_iter().flatten() {
            clock.fetch_add(1000, Ordering::SeqCst);
            let content = output(call);
            let done = ws
                .offload_tool_result(&ToolResultCall {
                    tool_call_id: text(call, "id"),
                    tool_name: text(call, "tool"),
                    action_name: call["action"].as_str(),
                    content: &content,
                    metadata: None,
                })
                .await?;
            let shown = done
                .replacement
                .as_deref()
                .map_or_else(|| size(&content), tool_offload::utf16_len);
            before += size(&content);
            after += shown;
            let what = match (&done.replacement, done.offloaded) {
                (Some(_), _) => "<knowledge_list>",
                (None, true) => "stored, inline",
                (None, false) => "inline",
            };
            let reason = done.decision.map(|d| d.reason.as_str()).unwrap_or_default();
            println!(
                "  {:<12} {:<10} {:>6} → {:>6} chars  {what} ({reason})",
                text(call, "id"),
                text(call, "tool"),
                size(&content),
                shown
            );
        }
    }
    println!(
        "\nTool results: {before} characters; the model sees {after} ({}% moved out).",
        ((100 * (before - after)) as f64 / before as f64).round()
    );

    let ws = Arc::new(Workspace::new(WorkspaceOptions {
        namespace: namespace.into(),
        ..WorkspaceOptions::at(root)
    })?);
    println!("\nqueryArtifacts({{ tool_name: \"bash\" }}):");
    let bash = json!({"tool_name": "bash"})
        .as_object()
        .cloned()
        .unwrap_or_default();
    for r in ws.query_artifacts(&Query::new(bash)).await? {
        println!(
            "  {}  task {}  {} lines  {}",
            r.id,
            r.str_field("task_id").unwrap_or_default(),
            r.metadata["lines"],
            r.created_at()
        );
    }
    println!("getToolResultOffloadInfo({{ taskId: \"task-report\" }}):");
    for info in ws
        .tool_result_offload_info(Some("task-report"), None)
        .await?
    {
        let action = info.action_name.unwrap_or_default();
        println!(
            "  {}  {}/{action}  {} chars",
            info.artifact_id, info.tool_name, info.chars
        );
    }

    let mut registry = ToolRegistry::new();
    ws.register_tools(&mut registry)?;
    let grep = &script["grep"];
    let (id, pattern) = (text(grep, "id"), text(grep, "pattern"));
    println!(
        "\nThe model calls grep_knowledge({}, {}):",
        json::stringify(&id.into()),
        json::stringify(&pattern.into())
    );
    let params = json!({"id": id, "pattern": pattern, "context": grep["context"]});
    let found = registry
        .execute_tool("toolu_g", "grep_knowledge", params)
        .await?;
    for line in found.content.split('\n') {
        println!("  {line}");
    }
    println!("and get_knowledge_by_lines around the match:");
    let params = json!({"id": id, "start_line": 1788, "end_line": 1790});
    let page = registry
        .execute_tool("toolu_l", "get_knowledge_by_lines", params)
        .await?;
    for line in page.content.split('\n') {
        println!("  {line}");
    }
    Ok(())
}
