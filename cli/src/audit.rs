//! `tool-offload audit`: for each session, the tool outputs the model was shown only in
//! part, and whether it read them later (core's `audit` module decides; this reads the
//! logs and the files beside them, and prints).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use tool_offload::core::audit::{self, Session};
use tool_offload::core::transcript::Format;
use tool_offload::Value;

use crate::error::CliError;
use crate::input::Input;
use crate::inputs::expand_tree;
use crate::read::read_raw;
use crate::skipped::Skips;

/// Arguments of `tool-offload audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Claude Code session logs (their `<session>/tool-results/` read beside them), Codex
    /// rollouts, or message arrays offloaded or materialized by tool-offload; a directory
    /// means every *.json and *.jsonl in it (and below it, with -r).
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read bytes that are not UTF-8 as U+FFFD instead of refusing the input.
    #[arg(long)]
    pub lossy: bool,
}

/// Run `audit` with `args`: the report on stdout; exit 0 whatever it finds (3 when some
/// inputs were skipped).
pub fn audit(args: &AuditArgs) -> Result<(), CliError> {
    let inputs = expand_tree(&args.inputs, args.recursive)?;
    let mut sessions = Vec::new();
    let mut skips = Skips::new(&args.inputs, &inputs);
    for path in &inputs {
        let input = Input::new(path);
        let Some((format, values)) = skips.read(input.name(), read_raw(&input, args.lossy))? else {
            continue;
        };
        let session = match format {
            Format::ClaudeCode => audit::claude_code(&values, &persisted_beside(path)),
            Format::Codex => audit::codex(&values),
            Format::Messages => audit::ours(&values),
        };
        sessions.push((input.name().to_owned(), session));
    }
    let text = if args.json {
        tool_offload::json::stringify(&to_json(&sessions)) + "\n"
    } else {
        to_text(&sessions)
    };
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write the report: {e}")))?;
    skips.finish()
}

/// The files of `<log without .jsonl>/tool-results/`, by name, with their lengths in
/// UTF-16 code units (none when there is no such folder).
fn persisted_beside(log: &Path) -> BTreeMap<String, usize> {
    let dir = log.with_extension("").join("tool-results");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return BTreeMap::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let bytes = std::fs::read(e.path()).ok()?;
            let chars = String::from_utf8_lossy(&bytes).encode_utf16().count();
            Some((e.file_name().to_string_lossy().into_owned(), chars))
        })
        .collect()
}

fn to_json(sessions: &[(String, Session)]) -> Value {
    let (mut partial, mut read) = (0, 0);
    let list: Vec<Value> = sessions
        .iter()
        .map(|(input, s)| {
            partial += s.partial();
            read += s.read();
            let items: Vec<Value> = s
                .items
                .iter()
                .map(|i| {
                    json!({
                        "callId": i.call_id, "tool": i.tool, "chars": i.chars,
                        "read": i.read, "turnsUntilRead": i.turns_until_read,
                        "firstTextAfter": i.first_text_after,
                    })
                })
                .collect();
            json!({
                "input": input, "partial": s.partial(), "read": s.read(),
                "unread": s.unread(), "items": items,
            })
        })
        .collect();
    json!({
        "sessions": list,
        "totals": { "partial": partial, "read": read, "unread": partial - read },
    })
}

fn to_text(sessions: &[(String, Session)]) -> String {
    let mut out = String::new();
    let (mut partial, mut read) = (0, 0);
    for (input, s) in sessions {
        partial += s.partial();
        read += s.read();
        out.push_str(&format!(
            "{input}: {} shown in part, {} read later, {} never read\n",
            s.partial(),
            s.read(),
            s.unread()
        ));
        for item in &s.items {
            let tool = if item.tool.is_empty() {
                "?"
            } else {
                &item.tool
            };
            let what = match item.turns_until_read {
                Some(1) => "read 1 turn later".to_owned(),
                Some(n) => format!("read {n} turns later"),
                None => "never read".to_owned(),
            };
            out.push_str(&format!(
                "  {tool} {} ({} chars): {what}",
                item.call_id, item.chars
            ));
            if let (false, Some(next)) = (item.read, &item.first_text_after) {
                out.push_str(&format!("; next the model said: {next:?}"));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "total: {partial} shown in part, {read} read later, {} never read\n",
        partial - read
    ));
    out
}
