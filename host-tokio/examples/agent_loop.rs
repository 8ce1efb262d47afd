//! Demo: a complete agent loop whose tool results go through a `ToolRegistry` with
//! offloading on, then a batch offload of the whole history. The model is scripted
//! (`examples/agent-loop/script.json`): no network, no API key.
//!
//! `cargo run -p tool-offload --example agent_loop [-- OUTPUT_DIR]`
//!
//! `examples/agent-loop.mjs` replays the same script with the npm package; both print
//! the same numbers and write byte-identical files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use tool_offload::tools::{ToolDefinition, ToolOutput, ToolResult};
use tool_offload::{
    json, offload_tool_results_to_files, register_todo_tools, utf16_len, OffloadOptions,
    RegistryOffload, ToolRegistry, Value,
};

type Error = Box<dyn std::error::Error + Send + Sync>;

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
    let mut registry = ToolRegistry::with_offload(RegistryOffload {
        output_dir: output_dir.clone().into(),
        session_id: text(&script, "sessionId")?.to_owned(),
        threshold_chars: registry_threshold,
    })?;
    register_todo_tools(&mut registry)?;

    let build_log: Arc<str> = generate_build_log(&script["build"])?.into();
    let run_build = ToolDefinition::new(
        "run_build",
        "Run a build command in the repository and return its full output.",
        json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
    );
    // The build fails, so the result reports is_error (offloading keeps the flag).
    registry.register(run_build, move |_| {
        let log = build_log.clone();
        async move { Ok(ToolOutput::error(log.to_string())) }
    })?;

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
    // `history` is what the loop sends; `full_history` is the same conversation with
    // every tool result kept whole (read back from its file), to show what offloading saved.
    let tools = registry.get_tool_definitions(); // what a real loop passes as `tools`
    let mut model = ScriptedModel::new(&script["assistant"])?;
    let prompt = json!({"role": "user", "content": text(&script, "prompt")?});
    let mut history = vec![prompt.clone()];
    let mut full_history = vec![prompt];
    let mut registry_files = Vec::new();
    let (mut sent, mut sent_full) = (0, 0);

    println!("Agent loop — tokio host (tool-offload crate), scripted model:");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    println!("  {} tools: {}", tools.len(), names.join(", "));
    println!("  user: {}", text(&script, "prompt")?);
    for turn in 1.. {
        sent += size(&history);
        sent_full += size(&full_history);
        let reply = model.reply(&history)?;
        history.push(reply.clone());
        full_history.push(reply.clone());
        let blocks = reply["content"]
            .as_array()
            .ok_or("a turn without content")?;
        let said = blocks
            .iter()
            .find(|b| b["type"] == "text")
            .and_then(|b| b["text"].as_str())
            .unwrap_or_default();
        let mut lines = said.split('\n');
        println!(
            "  turn {turn} assistant: {}",
            lines.next().unwrap_or_default()
        );
        for line in lines {
            println!("{}", format!("  | {line}").trim_end());
        }
        let calls: Vec<&Value> = blocks.iter().filter(|b| b["type"] == "tool_use").collect();
        if calls.is_empty() {
            break; // end_turn: no tool_use, the model has answered
        }

        let mut results = Vec::new();
        let mut full_results = Vec::new();
        for call in calls {
            let (id, name) = (text(call, "id")?, text(call, "name")?);
            let result = registry
                .execute_tool(id, name, call["input"].clone())
                .await?;
            let file = offloaded_path(&result.content).map(str::to_owned);
            let full = match &file {
                Some(file) => ToolResult {
                    content: tokio::fs::read_to_string(file).await?,
                    ..result.clone()
                },
                None => result.clone(),
            };
            let place = match &file {
                Some(file) => format!("offloaded → {}", relative(&output_dir, file)?),
                None => "inline".into(),
            };
            let flag = if result.is_error { " (is_error)" } else { "" };
            println!(
                "    {name:<12} {id:<18} {:>6} chars  {place}{flag}",
                utf16_len(&full.content)
            );
            registry_files.extend(file);
            results.push(result.to_value());
            full_results.push(full.to_value());
        }
        history.push(json!({"role": "user", "content": results}));
        full_history.push(json!({"role": "user", "content": full_results}));
    }

    // ── Batch offload of the finished history ──────────────────────────────────────
    let options = OffloadOptions {
        threshold: batch_threshold,
        ..OffloadOptions::new(format!("{output_dir}/history"))
    };
    let batch = offload_tool_results_to_files(&history, &options).await?;

    let calls = history.iter().filter(|m| m["role"] == "assistant").count();
    println!(
        "\nConversation size ({} messages; JSON characters, ~4 per token):",
        history.len()
    );
    println!("  without offloading    {}", chars(size(&full_history)));
    println!(
        "  with the registry     {}   results of ≥ {registry_threshold} chars offloaded as they arrived",
        chars(size(&history))
    );
    println!(
        "  after the batch step  {}   {} more results of ≥ {batch_threshold} chars offloaded ({} chars)",
        chars(size(batch.messages.iter().map(|m| &**m))),
        batch.offloaded_count,
        batch.freed_chars
    );
    println!(
        "Sent to the model over {calls} calls: {sent} chars (~{} tokens); without offloading {sent_full} chars (~{} tokens)",
        tokens(sent),
        tokens(sent_full)
    );

    println!("\nFiles written:");
    for file in registry_files.iter().chain(&batch.files) {
        let bytes = tokio::fs::metadata(file).await?.len();
        println!("  {:<40} {bytes:>6} bytes", relative(&output_dir, file)?);
    }

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

/// Size of a conversation as the API receives it: UTF-16 length of its JSON.
fn size<'a>(messages: impl IntoIterator<Item = &'a Value>) -> usize {
    let array = Value::Array(messages.into_iter().cloned().collect());
    utf16_len(&json::stringify(&array))
}

/// A rough token estimate: about four characters per token.
fn tokens(chars: usize) -> usize {
    (chars as f64 / 4.0).round() as usize
}

fn chars(n: usize) -> String {
    format!("{n:>6} chars ≈ {:>5} tokens", tokens(n))
}

/// The absolute path in a registry placeholder, or `None` for a result kept inline.
fn offloaded_path(content: &str) -> Option<&str> {
    content
        .strip_prefix("[Tool result offloaded to file: ")?
        .strip_suffix(']')
}

/// `file` relative to `output_dir` (which may itself be relative to the working directory).
fn relative(output_dir: &str, file: &str) -> Result<String, Error> {
    let base = std::env::current_dir()?.join(output_dir);
    Ok(Path::new(file).strip_prefix(&base)?.display().to_string())
}

/// A string field of a script value.
fn text<'a>(value: &'a Value, key: &str) -> Result<&'a str, String> {
    value[key]
        .as_str()
        .ok_or_else(|| format!("script.json: `{key}` must be a string"))
}

/// A non-negative integer field of a script value.
fn number(value: &Value, key: &str) -> Result<usize, String> {
    value[key]
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("script.json: `{key}` must be a non-negative integer"))
}

/// A model that replies with the script's assistant turns in order. Like a real model it
/// reads earlier results: `{{offloaded:<id>}}` becomes the path from that result's placeholder.
struct ScriptedModel {
    turns: Vec<Value>,
    next: usize,
}

impl ScriptedModel {
    fn new(turns: &Value) -> Result<Self, String> {
        let turns = turns
            .as_array()
            .ok_or("script.json: `assistant` must be an array")?;
        Ok(ScriptedModel {
            turns: turns.clone(),
            next: 0,
        })
    }

    fn reply(&mut self, history: &[Value]) -> Result<Value, String> {
        let turn = self
            .turns
            .get(self.next)
            .ok_or("the script has no more turns")?;
        self.next += 1;
        fill(turn, history)
    }
}

fn fill(value: &Value, history: &[Value]) -> Result<Value, String> {
    Ok(match value {
        Value::String(s) => Value::String(fill_text(s, history)?),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| fill(v, history))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), fill(v, history)?)))
                .collect::<Result<_, String>>()?,
        ),
        other => other.clone(),
    })
}

fn fill_text(s: &str, history: &[Value]) -> Result<String, String> {
    const OPEN: &str = "{{offloaded:";
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find(OPEN) {
        let tail = &rest[start + OPEN.len()..];
        let Some(end) = tail.find("}}") else { break };
        let id = &tail[..end];
        let path = history
            .iter()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == id)
            .and_then(|b| offloaded_path(b["content"].as_str()?))
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

/// A deterministic cargo-style build log of about `targetChars` characters: compile
/// lines with a warning every 89th line, then `tail` (`{warnings}` filled in). The
/// random numbers are a Park–Miller generator (exact in both JavaScript and Rust integers).
fn generate_build_log(build: &Value) -> Result<String, String> {
    let mut state = number(build, "seed")? as u64;
    let mut next = |n: usize| {
        state = state * 48271 % 2_147_483_647;
        (state % n as u64) as usize
    };
    let target = number(build, "targetChars")?;
    let strings = |key: &str| -> Vec<&str> {
        build[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    };
    let crates = strings("crates");
    if crates.is_empty() {
        return Err("script.json: `build.crates` must list crate names".into());
    }
    let mut lines = Vec::new();
    let (mut total, mut warnings) = (0, 0);
    for i in 1.. {
        if total >= target {
            break;
        }
        let krate = crates[next(crates.len())];
        let version = format!("0.{}.{}", next(30), next(20));
        let ms = next(3000);
        let line = if i % 89 == 0 {
            warnings += 1;
            format!(
                "warning: unused variable: `tmp_{i}` — src/worker_{}.rs:{}:9",
                i % 9,
                ms % 400 + 1
            )
        } else if i % 37 == 0 {
            format!("  Downloaded {krate} v{version} ({} KB)", ms % 900 + 20)
        } else {
            format!("   Compiling {krate} v{version} (build #{i}, {ms} ms)")
        };
        total += utf16_len(&line) + 1;
        lines.push(line);
    }
    for line in strings("tail") {
        lines.push(line.replace("{warnings}", &warnings.to_string()));
    }
    Ok(lines.join("\n"))
}
