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

use tool_offload::core::materialize::summary_ref;
use tool_offload::{
    import_conversation, json, utf16_len, GrepOptions, Materializer, ToolRegistry, Value,
};

#[path = "common/scripted_loop.rs"]
mod scripted_loop;
use scripted_loop::{
    chars, print_files, register_build_tool, result_content, run_loop, size, text, Error,
    ScriptedModel,
};

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
    let materializer = Arc::new(Materializer::in_dir(&user_data, conversation_id)?);
    let mut registry = ToolRegistry::with_materializer(materializer.clone());
    materializer.register_tools(&mut registry)?; // context_read, context_tail, context_grep

    // The build fails, so the result reports is_error (materializing keeps the flag).
    register_build_tool(&mut registry, &script["build"])?;

    // ── The loop ───────────────────────────────────────────────────────────────────
    // `full_history` is the conversation with every materialized result inline in full
    // (read back from its artifact).
    let mut model = ScriptedModel::new(&script["assistant"], fill_ref)?;
    let title = "Materialize loop — tokio host (tool-offload crate)";
    // The core maps a ref to its file (refs percent-encode ids; docs/materializer.md "Refs").
    let full_copy = |content: &str| {
        summary_ref(content).and_then(|reference| materializer.core().resolve_ref(reference).ok())
    };
    let print_call = |call: scripted_loop::Call| {
        let place = match call.file {
            Some(_) => {
                let n = utf16_len(&call.full.content);
                format!("summary; the output ({n} chars) is in the artifact")
            }
            None => "inline".to_owned(),
        };
        let (name, id, size) = (call.name, call.id, utf16_len(&call.result.content));
        println!(
            "    {name:<12} {id:<15} {size:>5} chars  {place}{}",
            call.flag()
        );
        println!("      {}", call.result.content.lines().next().unwrap_or(""));
        Ok(())
    };
    let prompt = text(&script, "prompt")?;
    let done = run_loop(title, &registry, &mut model, prompt, full_copy, print_call).await?;
    let history = &done.history;

    done.print_size_heading();
    let (with, without) = (chars(size(history)), chars(size(&done.full_history)));
    println!("  without materialization  {without}   every result inline in full");
    println!("  with materialization     {with}   oversized results replaced by their summary");
    done.print_sent("materialization");
    let stats = materializer.stats();
    let (hits, inlined, saved) = (stats.hits, stats.inlined, stats.saved_chars);
    let avg = stats.avg_saved_chars();
    println!("stats(): hits {hits}, inlined {inlined}, savedChars {saved}, avgSavedChars {avg}");
    let again = materializer.materialize_messages(history).await?;
    let n = again.refs.len();
    println!("materializeMessages(history) again: {n} new artifacts (summaries are left alone)");

    // ── Export, then import into a second directory ────────────────────────────────
    let bundle = materializer.export_conversation(history).await?;
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
    let restored = Materializer::in_dir(&import_dir, &imported.conversation_id)?;
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

    let heading = "Files written (relative to the output directory):";
    let written = done
        .files
        .iter()
        .chain([&bundle_file])
        .chain(&imported.paths);
    print_files(heading, &user_data, written, 58).await?;
    Ok(())
}

// ── Helpers ──────────────────────────────────────────────────────────────────────

/// A script string as the model says it: `{{ref:<id>}}` becomes the ref on the first
/// line of that result's summary, as a real model would copy it.
fn fill_ref(s: &str, history: &[Value]) -> Result<String, String> {
    let Some(id) = s.strip_prefix("{{ref:").and_then(|s| s.strip_suffix("}}")) else {
        return Ok(s.to_owned());
    };
    result_content(history, id)
        .and_then(summary_ref)
        .map(str::to_owned)
        .ok_or(format!("the script expects {id} to have been materialized"))
}
