//! Demo: a complete agent loop whose tool results go through a `ToolRegistry` with
//! offloading on, then a batch offload of the whole history. The model is scripted
//! (`examples/agent-loop/script.json`): no network, no API key.
//!
//! `cargo run -p tool-offload --example agent_loop [-- OUTPUT_DIR]`
//!
//! `examples/agent-loop.mjs` replays the same script with the npm package; both print
//! the same numbers and write byte-identical files.

use std::path::{Path, PathBuf};

use serde_json::json;
use tool_offload::tools::{ToolDefinition, ToolOutput};
use tool_offload::{
    json, offload_tool_results_to_files, register_todo_tools, utf16_len, BatchOptions,
    ResultOffload, ToolRegistry, Value,
};

#[path = "common/scripted_loop.rs"]
mod scripted_loop;
use scripted_loop::{
    chars, number, print_files, register_build_tool, relative, result_content, run_loop, size,
    text, Error, ScriptedModel,
};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/agent-loop");
    let script = json::parse(&std::fs::read_to_string(fixtures.join("script.json"))?)?;
    let output_dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "out/agent-loop/rust".into());
    match tokio::fs::remove_dir_all(&output_dir).await {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
        _ => {}
    }
    let registry_threshold = number(&script, "registryThreshold")?;
    let batch_threshold = number(&script, "batchThreshold")?;

    // ── Tools ──────────────────────────────────────────────────────────────────────
    let mut registry = ToolRegistry::with_offload(ResultOffload {
        threshold_chars: registry_threshold,
        ..ResultOffload::at(output_dir.clone(), text(&script, "sessionId")?)
    })?;
    register_todo_tools(&mut registry)?;

    // The build fails, so the result reports is_error (offloading keeps the flag).
    register_build_tool(&mut registry, &script["build"])?;

    let search_file = ToolDefinition::new(
        "search_file",
        "Print the lines of a file that contain `pattern` (numbered like grep -n), each followed by `after` lines.",
        json!({
            "type": "object",
            "properties": {"path": {"type": "string"}, "pattern": {"type": "string"}, "after": {"type": "integer", "minimum": 0}},
            "required": ["path", "pattern"]
        }),
    );
    registry.register(search_file, |params| async move {
        let path = params["path"].as_str().unwrap_or_default();
        let pattern = params["pattern"].as_str().unwrap_or_default();
        let after = params["after"].as_u64().unwrap_or(0) as usize;
        Ok(match tokio::fs::read_to_string(path).await {
            Ok(text) => ToolOutput::ok(search_lines(&text, pattern, after)),
            Err(_) => ToolOutput::error(format!("cannot read {path}")),
        })
    })?;

    let read_file = ToolDefinition::new(
        "read_file",
        "Read lines of a file in the repository, numbered like cat -n.",
        json!({
            "type": "object",
            "properties": {"path": {"type": "string"}, "offset": {"type": "integer", "minimum": 1}, "limit": {"type": "integer", "minimum": 1}},
            "required": ["path"]
        }),
    );
    let project = fixtures.join("project");
    registry.register(read_file, move |params| {
        let project = project.clone();
        async move { Ok(read_lines(&project, &params).await) }
    })?;

    // ── The loop ───────────────────────────────────────────────────────────────────
    // `full_history` is the conversation with every tool result kept whole (read back
    // from its file), to show what offloading saved.
    let mut model = ScriptedModel::new(&script["assistant"], fill_offloaded)?;
    let title = "Agent loop — tokio host (tool-offload crate)";
    let full_copy = |content: &str| offloaded_path(content).map(str::to_owned);
    let done = run_loop(
        title,
        &registry,
        &mut model,
        text(&script, "prompt")?,
        full_copy,
        |call| {
            let place = match call.file {
                Some(file) => format!("offloaded → {}", relative(&output_dir, file)?),
                None => "inline".into(),
            };
            let (name, id, n) = (call.name, call.id, utf16_len(&call.full.content));
            println!(
                "    {name:<12} {id:<18} {n:>6} chars  {place}{}",
                call.flag()
            );
            Ok(())
        },
    )
    .await?;
    let (history, full_history) = (&done.history, &done.full_history);

    // ── Batch offload of the finished history ──────────────────────────────────────
    let history_dir = format!("{output_dir}/history");
    let options = BatchOptions {
        threshold: batch_threshold,
        ..BatchOptions::at(&history_dir)
    };
    let batch = offload_tool_results_to_files(history, &options).await?;

    done.print_size_heading();
    println!("  without offloading    {}", chars(size(full_history)));
    println!(
        "  with the registry     {}   results of ≥ {registry_threshold} chars offloaded as they arrived",
        chars(size(history))
    );
    println!(
        "  after the batch step  {}   {} more results of ≥ {batch_threshold} chars offloaded ({} chars)",
        chars(size(batch.messages.iter().map(|m| &**m))),
        batch.offloaded_count,
        batch.freed_chars
    );
    done.print_sent("offloading");

    let files = done.files.iter().chain(&batch.files);
    print_files("Files written:", &output_dir, files, 40).await?;

    println!("\nFinal todo list:");
    let (_, todo_read) = registry.get_tool("TodoRead").ok_or("TodoRead is missing")?;
    let todos = json::parse(&todo_read(json!({})).await?.content)?;
    for todo in todos["todos"].as_array().into_iter().flatten() {
        let mark = match todo["status"].as_str() {
            Some("completed") => "[x]",
            Some("in_progress") => "[~]",
            _ => "[ ]",
        };
        println!("  {mark} {}", text(todo, "content")?);
    }
    Ok(())
}

// ── Helpers ──────────────────────────────────────────────────────────────────────

/// The absolute path in a registry placeholder, or `None` for a result kept inline.
fn offloaded_path(content: &str) -> Option<&str> {
    content
        .strip_prefix("[Tool result offloaded to file: ")?
        .strip_suffix(']')
}

/// A script string as the model says it: `{{offloaded:<id>}}` becomes the path from
/// that result's placeholder.
fn fill_offloaded(s: &str, history: &[Value]) -> Result<String, String> {
    const OPEN: &str = "{{offloaded:";
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find(OPEN) {
        let tail = &rest[start + OPEN.len()..];
        let Some(end) = tail.find("}}") else { break };
        let id = &tail[..end];
        let path = result_content(history, id)
            .and_then(offloaded_path)
            .ok_or_else(|| format!("the script expects {id} to have been offloaded"))?;
        out.push_str(&rest[..start]);
        out.push_str(path);
        rest = &tail[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `grep -n -A<after>`: matching lines and the `after` lines following each, numbered from 1.
fn search_lines(text: &str, pattern: &str, after: usize) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut next_unshown = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.contains(pattern) {
            continue;
        }
        for (j, shown) in lines
            .iter()
            .enumerate()
            .take(i + after + 1)
            .skip(i.max(next_unshown))
        {
            let mark = if shown.contains(pattern) { ':' } else { '-' };
            out.push(format!("{}{mark}{shown}", j + 1));
            next_unshown = j + 1;
        }
    }
    if out.is_empty() {
        format!("no lines contain {}", json::stringify(&pattern.into()))
    } else {
        out.join("\n")
    }
}

/// `read_file`: lines `offset..offset + limit` (1-based) of a file under `project`.
async fn read_lines(project: &Path, params: &Value) -> ToolOutput {
    let path = params["path"].as_str().unwrap_or_default();
    if path.starts_with('/') || path.split('/').any(|c| c == "..") {
        return ToolOutput::error(format!("not in the repository: {path}"));
    }
    let offset = params["offset"].as_u64().unwrap_or(1).max(1) as usize;
    let limit = params["limit"].as_u64().unwrap_or(2000) as usize;
    let file: PathBuf = project.join(path);
    let Ok(text) = tokio::fs::read_to_string(&file).await else {
        return ToolOutput::error(format!("no such file: {path}"));
    };
    let lines: Vec<String> = text
        .split('\n')
        .enumerate()
        .skip(offset - 1)
        .take(limit)
        .map(|(i, line)| format!("{:>6}\t{line}", i + 1))
        .collect();
    ToolOutput::ok(lines.join("\n"))
}
