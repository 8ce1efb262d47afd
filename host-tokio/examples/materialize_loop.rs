//! Demo: an agent loop whose tool results go through a `Materializer`: an oversized
//! result is stored as an artifact and the model gets a summary with a ref, which it
//! reads back with the `context_grep` / `context_read` tools. Then the conversation is
//! exported to one bundle file and imported elsewhere. The model is scripted
//! (`examples/materialize-loop/script.json`): no network, no API key.
//!
//! `cargo run -p tool-offload --example materialize_loop [-- USER_DATA_DIR]`
//!
//! `examples/materialize-loop.mjs` replays the same script with the npm package; both
//! print the same report and write byte-identical files.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tool_offload::core::materialize::summary_ref;
use tool_offload::tools::{ToolDefinition, ToolOutput};
use tool_offload::{
    import_conversation, json, utf16_len, GrepOptions, Materializer, MaterializerOptions,
    ToolRegistry, Value,
};

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/materialize-loop");
    let script = json::parse(&std::fs::read_to_string(fixtures.join("script.json"))?)?;
    let default_dir = "out/materialize-loop/rust".to_owned();
    let user_data = std::env::args().nth(1).unwrap_or(default_dir);
    let conversation_id = text(&script, "conversationId")?;
    match tokio::fs::remove_dir_all(&user_data).await {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
        _ => {}
    }

    // ── Tools: the Materializer's read-back tools and a build that prints a lot ────
    let options = MaterializerOptions::new(&user_data, conversation_id);
    let materializer = Arc::new(Materializer::new(options)?);
    let mut registry = ToolRegistry::with_materializer(materializer.clone());
    materializer.register_tools(&mut registry)?; // context_read, context_tail, context_grep

    let build_log: Arc<str> = generate_build_log(&script["build"])?.into();
    let run_build = ToolDefinition::new(
        "run_build",
        "Run a build command in the repository and return its full output.",
        json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
    );
    // The build fails, so the result reports is_error (materializing keeps the flag).
    registry.register(run_build, move |_| {
        let log = build_log.clone();
        async move { Ok(ToolOutput::error(log.to_string())) }
    })?;

    // ── The loop ───────────────────────────────────────────────────────────────────
    // `history` is what the loop sends; `full_history` is the same conversation with
    // every materialized result inline in full (read back from its artifact).
    let prefix = format!("ctx://{conversation_id}/");
    let artifact_path = |reference: &str| {
        let file = &reference[prefix.len()..];
        format!("{user_data}/context/{conversation_id}/artifacts/{file}")
    };
    let tools = registry.get_tool_definitions(); // what a real loop passes as `tools`
    let mut turns = script["assistant"].as_array().into_iter().flatten();
    let prompt = json!({"role": "user", "content": text(&script, "prompt")?});
    let (mut history, mut full_history) = (vec![prompt.clone()], vec![prompt]);
    let (mut artifacts, mut sent, mut sent_full) = (Vec::new(), 0, 0);

    println!("Materialize loop — tokio host (tool-offload crate), scripted model:");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    println!("  {} tools: {}", tools.len(), names.join(", "));
    println!("  user: {}", text(&script, "prompt")?);
    for turn in 1.. {
        sent += size(&history);
        sent_full += size(&full_history);
        // The scripted model: its next turn, with refs copied from earlier summaries.
        let next = turns.next().ok_or("the script has no more turns")?;
        let reply = fill(next, &history)?;
        history.push(reply.clone());
        full_history.push(reply.clone());
        let blocks = reply["content"]
            .as_array()
            .ok_or("a turn without content")?;
        let said = blocks.iter().find(|b| b["type"] == "text");
        let mut lines = said
            .and_then(|b| b["text"].as_str())
            .unwrap_or("")
            .split('\n');
        println!("  turn {turn} assistant: {}", lines.next().unwrap_or(""));
        for line in lines {
            println!("{}", format!("  | {line}").trim_end());
        }
        let calls: Vec<&Value> = blocks.iter().filter(|b| b["type"] == "tool_use").collect();
        if calls.is_empty() {
            break; // end_turn: no tool_use, the model has answered
        }

        let (mut results, mut full_results) = (Vec::new(), Vec::new());
        for call in calls {
            let (id, name) = (text(call, "id")?, text(call, "name")?);
            let result = registry
                .execute_tool(id, name, call["input"].clone())
                .await?;
            let path = summary_ref(&result.content).map(artifact_path);
            let mut full = result.clone();
            let mut place = "inline".to_owned();
            if let Some(path) = &path {
                full.content = tokio::fs::read_to_string(path).await?;
                let n = utf16_len(&full.content);
                place = format!("summary; the output ({n} chars) is in the artifact");
            }
            let flag = if result.is_error { " (is_error)" } else { "" };
            let size = utf16_len(&result.content);
            println!("    {name:<12} {id:<15} {size:>5} chars  {place}{flag}");
            println!("      {}", result.content.lines().next().unwrap_or(""));
            artifacts.extend(path);
            results.push(result.to_value());
            full_results.push(full.to_value());
        }
        history.push(json!({"role": "user", "content": results}));
        full_history.push(json!({"role": "user", "content": full_results}));
    }

    let calls = history.iter().filter(|m| m["role"] == "assistant").count();
    let (with, without, n) = (size(&history), size(&full_history), history.len());
    println!("\nConversation size ({n} messages; JSON characters, ~4 per token):");
    let (with, without) = (chars(with), chars(without));
    println!("  without materialization  {without}   every result inline in full");
    println!("  with materialization     {with}   oversized results replaced by their summary");
    let (t, t_full) = (tokens(sent), tokens(sent_full));
    println!(
        "Sent to the model over {calls} calls: {sent} chars (~{t} tokens); \
         without materialization {sent_full} chars (~{t_full} tokens)"
    );
    let stats = materializer.stats();
    let (hits, inlined, saved) = (stats.hits, stats.inlined, stats.saved_chars);
    let avg = stats.avg_saved_chars();
    println!("stats(): hits {hits}, inlined {inlined}, savedChars {saved}, avgSavedChars {avg}");
    let again = materializer.materialize_messages(&history).await?;
    let n = again.refs.len();
    println!("materializeMessages(history) again: {n} new artifacts (summaries are left alone)");

    // ── Export, then import into a second directory ────────────────────────────────
    let bundle = materializer.export_conversation(&history).await?;
    let bundle_file = format!("{user_data}/bundle.json");
    tokio::fs::write(&bundle_file, json::stringify(&bundle)).await?;
    let import_dir = format!("{user_data}/imported");
    let bundle = json::parse(&tokio::fs::read_to_string(&bundle_file).await?)?;
    let imported = import_conversation(&bundle, &import_dir).await?;
    let count = |key: &str| bundle[key].as_array().map_or(0, Vec::len);
    let (messages, n) = (count("messages"), count("artifacts"));
    let s = if n == 1 { "" } else { "s" };
    println!(
        "\nExported {messages} messages and {n} artifact{s} (with SHA-256) to bundle.json; \
         imported it into imported/"
    );
    let options = MaterializerOptions::new(&import_dir, &imported.conversation_id);
    let restored = Materializer::new(options)?;
    let reference = text(&bundle["artifacts"][0], "ref")?;
    let quoted = json::stringify(&reference.into());
    println!("  grep({quoted}, \"error\", first match) in imported/:");
    let mut first_match = GrepOptions::default();
    (first_match.context, first_match.max_matches) = (0, 1);
    for line in restored
        .grep(reference, "error", first_match)
        .await?
        .split('\n')
    {
        println!("    {line}");
    }

    println!("\nFiles written (relative to the output directory):");
    let base = std::env::current_dir()?.join(&user_data);
    let written = artifacts
        .iter()
        .chain([&bundle_file])
        .chain(&imported.paths);
    for file in written.map(Path::new) {
        let shown = file.strip_prefix(&base).or(file.strip_prefix(&user_data))?;
        let bytes = tokio::fs::metadata(file).await?.len();
        println!("  {:<58} {bytes:>6} bytes", shown.display().to_string());
    }
    Ok(())
}

// ── Helpers ──────────────────────────────────────────────────────────────────────

/// Size of a conversation as the API receives it: UTF-16 length of its JSON.
fn size(messages: &[Value]) -> usize {
    utf16_len(&json::stringify(&Value::Array(messages.to_vec())))
}

/// A rough token estimate: about four characters per token.
fn tokens(chars: usize) -> usize {
    (chars as f64 / 4.0).round() as usize
}

fn chars(n: usize) -> String {
    format!("{n:>6} chars ≈ {:>5} tokens", tokens(n))
}

/// A string field of a script value.
fn text<'a>(value: &'a Value, key: &str) -> Result<&'a str, String> {
    value[key]
        .as_str()
        .ok_or_else(|| format!("script.json: `{key}` must be a string"))
}

/// A script turn as the model says it: a string `{{ref:<id>}}` becomes the ref on the
/// first line of that result's summary, as a real model would copy it.
fn fill(value: &Value, history: &[Value]) -> Result<Value, String> {
    Ok(match value {
        Value::String(s) => match s.strip_prefix("{{ref:").and_then(|s| s.strip_suffix("}}")) {
            Some(id) => history
                .iter()
                .filter_map(|m| m["content"].as_array())
                .flatten()
                .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == id)
                .and_then(|b| summary_ref(b["content"].as_str()?))
                .ok_or(format!("the script expects {id} to have been materialized"))?
                .into(),
            None => value.clone(),
        },
        Value::Array(items) => items
            .iter()
            .map(|v| fill(v, history))
            .collect::<Result<_, _>>()?,
        Value::Object(map) => (map.iter())
            .map(|(k, v)| Ok((k.clone(), fill(v, history)?)))
            .collect::<Result<_, String>>()?,
        other => other.clone(),
    })
}

/// A deterministic cargo-style build log of about `targetChars` characters: compile
/// lines with a warning every 89th line, `buried[i]` inserted after line i, then `tail`
/// (`{warnings}` filled in). The random numbers are a Park–Miller generator (exact in
/// both JavaScript and Rust integers).
fn generate_build_log(build: &Value) -> Result<String, String> {
    let strings = |list: &Value| -> Vec<String> {
        let items = list.as_array().into_iter().flatten();
        items.filter_map(Value::as_str).map(str::to_owned).collect()
    };
    let mut state = build["seed"]
        .as_u64()
        .ok_or("script.json: `build.seed` must be a number")?;
    let target = build["targetChars"].as_u64().unwrap_or(0) as usize;
    let mut next = |n: usize| {
        state = state * 48271 % 2_147_483_647;
        (state % n as u64) as usize
    };
    let crates = strings(&build["crates"]);
    if crates.is_empty() {
        return Err("script.json: `build.crates` must list crate names".into());
    }
    let (mut lines, mut total, mut warnings) = (Vec::new(), 0, 0);
    let mut i = 0;
    while total < target {
        i += 1;
        let krate = &crates[next(crates.len())];
        let version = format!("0.{}.{}", next(30), next(20));
        let ms = next(3000);
        let line = if i % 89 == 0 {
            warnings += 1;
            let at = format!("src/worker_{}.rs:{}:9", i % 9, ms % 400 + 1);
            format!("warning: unused variable: `tmp_{i}` — {at}")
        } else if i % 37 == 0 {
            format!("  Downloaded {krate} v{version} ({} KB)", ms % 900 + 20)
        } else {
            format!("   Compiling {krate} v{version} (build #{i}, {ms} ms)")
        };
        let buried = strings(&build["buried"][i.to_string()]);
        for added in std::iter::once(line).chain(buried) {
            total += utf16_len(&added) + 1;
            lines.push(added);
        }
    }
    for line in strings(&build["tail"]) {
        lines.push(line.replace("{warnings}", &warnings.to_string()));
    }
    Ok(lines.join("\n"))
}
