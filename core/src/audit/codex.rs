//! Codex rollouts: the outputs Codex truncated before the model saw them, and whether the
//! agent re-ran a narrower command.

use super::session::{Item, Session};
use super::text::short;
use serde_json::Value;

/// Audits a Codex rollout, `lines` its JSON lines (only `response_item` lines count).
///
/// An output is truncated when it holds one of Codex's markers: `…N tokens truncated…` or
/// `…N chars truncated…`, a `Warning: truncated output (original token count: N)` or
/// `Total output lines: N` line, `[... omitted N of M lines ...]`, `[... output truncated
/// to fit N bytes ...]`, `[omitted N text items ...]` (in a JSON output's `output` field
/// too). It counts as read when a later command is a narrower re-run of its own: the same
/// command piped on (`T | …`), a filter (`head`, `tail`, `sed`, `grep`, `rg`, `awk`, `cut`,
/// `jq`, `nl`) of one of its path operands, or the same command with one operand narrowed
/// (`src` → `src/store.rs`, `.` → a path).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::codex;
/// let item = |payload: serde_json::Value| json!({"type": "response_item", "payload": payload});
/// let lines = [
///     item(json!({"type": "function_call", "name": "shell_command", "call_id": "c1",
///                 "arguments": "{\"command\":\"cargo build\"}"})),
///     item(json!({"type": "function_call_output", "call_id": "c1",
///                 "output": "Total output lines: 900\n\nCompiling…"})),
///     item(json!({"type": "function_call", "name": "shell_command", "call_id": "c2",
///                 "arguments": "{\"command\":\"cargo build | grep error\"}"})),
/// ];
/// let session = codex(&lines);
/// assert_eq!((session.partial(), session.read()), (1, 1));
/// assert_eq!(session.items[0].turns_until_read, Some(1));
/// ```
pub fn codex(lines: &[Value]) -> Session {
    let items: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("type").and_then(Value::as_str) == Some("response_item"))
        .filter_map(|l| l.get("payload"))
        .collect();
    // The turn of each item: a run of the model's items is one response.
    let mut turn_of = Vec::with_capacity(items.len());
    let (mut turn, mut in_response) = (0, false);
    for item in &items {
        let model = is_model_item(item);
        if model && !in_response {
            turn += 1;
        }
        in_response = model;
        turn_of.push(turn);
    }
    let calls: Vec<(usize, &str, &str, Option<String>)> = items
        .iter()
        .enumerate()
        .filter_map(|(at, item)| {
            let id = item.get("call_id")?.as_str()?;
            let kind = item.get("type")?.as_str()?;
            matches!(
                kind,
                "function_call" | "custom_tool_call" | "local_shell_call"
            )
            .then(|| (at, id, tool_name(item), command(item)))
        })
        .collect();
    let mut out = Vec::new();
    for (at, item) in items.iter().enumerate() {
        let kind = item.get("type").and_then(Value::as_str);
        if !matches!(
            kind,
            Some("function_call_output" | "custom_tool_call_output")
        ) {
            continue;
        }
        let (Some(id), output) = (
            item.get("call_id").and_then(Value::as_str),
            output_text(item.get("output")),
        ) else {
            continue;
        };
        if !truncated(&output) && !inner_output(&output).is_some_and(|o| truncated(&o)) {
            continue;
        }
        let call = calls.iter().find(|c| c.1 == id);
        let mut entry = Item {
            call_id: id.to_owned(),
            tool: call.map_or("", |c| c.2).to_owned(),
            chars: crate::text::utf16_len(&output),
            read: false,
            turns_until_read: None,
            first_text_after: None,
        };
        if let Some(original) = call.and_then(|c| c.3.as_deref()) {
            let rerun = calls
                .iter()
                .find(|c| c.0 > at && c.3.as_deref().is_some_and(|n| narrower(original, n)));
            if let Some(rerun) = rerun {
                entry.read = true;
                entry.turns_until_read = Some(turn_of[rerun.0] - turn_of[call.map_or(at, |c| c.0)]);
            }
        }
        entry.first_text_after = items[at + 1..].iter().find_map(|i| assistant_text(i));
        out.push(entry);
    }
    Session { items: out }
}

fn is_model_item(item: &Value) -> bool {
    match item.get("type").and_then(Value::as_str) {
        Some("reasoning" | "function_call" | "custom_tool_call" | "local_shell_call")
        | Some("web_search_call") => true,
        Some("message") => item.get("role").and_then(Value::as_str) == Some("assistant"),
        _ => false,
    }
}

fn tool_name(item: &Value) -> &str {
    match item.get("type").and_then(Value::as_str) {
        Some("local_shell_call") => "local_shell",
        _ => item.get("name").and_then(Value::as_str).unwrap_or(""),
    }
}

/// The shell command a call ran: `cmd` (exec_command), `command` as a string
/// (shell_command) or as an argv (shell, local shell; `sh -c X` is X).
fn command(item: &Value) -> Option<String> {
    let args = match item.get("arguments").and_then(Value::as_str) {
        Some(text) => crate::json::parse(text).ok()?,
        None => item.get("action").cloned()?,
    };
    if let Some(cmd) = args.get("cmd").and_then(Value::as_str) {
        return Some(cmd.to_owned());
    }
    match args.get("command")? {
        Value::String(cmd) => Some(cmd.clone()),
        Value::Array(argv) => {
            let argv: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            match argv.as_slice() {
                ["sh" | "bash" | "zsh", "-c" | "-lc", script] => Some((*script).to_owned()),
                _ => Some(argv.join(" ")),
            }
        }
        _ => None,
    }
}

/// An output as text: a string, or the `input_text` items of an array joined with newlines.
fn output_text(output: Option<&Value>) -> String {
    match output {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The `output` field of an output that is itself JSON (`shell`'s `{output, metadata}`).
fn inner_output(text: &str) -> Option<String> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let value = crate::json::parse(text).ok()?;
    value.get("output")?.as_str().map(str::to_owned)
}

/// Whether `text` holds one of Codex's truncation markers.
fn truncated(text: &str) -> bool {
    let between = |prefix: &str, suffixes: &[&str]| {
        let mut from = 0;
        while let Some(at) = crate::search::find(&text[from..], prefix) {
            let rest = &text[from + at + prefix.len()..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && suffixes.iter().any(|s| rest[digits..].starts_with(s)) {
                return true;
            }
            from += at + prefix.len();
        }
        false
    };
    between("…", &[" tokens truncated…", " chars truncated…"])
        || between("Warning: truncated output (original token count: ", &[")"])
        || text.lines().any(|l| {
            l.strip_prefix("Total output lines: ")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        || (between("[... omitted ", &[" of "]) && crate::search::contains(text, " lines ...]"))
        || between("[... output truncated to fit ", &[" bytes ...]"])
        || between("[omitted ", &[" text items ...]"])
}

/// The text of an assistant message item.
fn assistant_text(item: &Value) -> Option<String> {
    if item.get("type").and_then(Value::as_str) != Some("message")
        || item.get("role").and_then(Value::as_str) != Some("assistant")
    {
        return None;
    }
    let text = output_text(item.get("content"));
    short(&text)
}

/// Whether `next` is a narrower re-run of `original`.
fn narrower(original: &str, next: &str) -> bool {
    let (original, next) = (original.trim(), next.trim());
    if original == next {
        return false;
    }
    // (a) piped on.
    if next
        .strip_prefix(original)
        .is_some_and(|rest| rest.trim_start().starts_with('|'))
    {
        return true;
    }
    let t = tokens(original);
    let n = tokens(next);
    // (b) a filter of one of its path operands.
    const FILTERS: &[&str] = &[
        "head", "tail", "sed", "grep", "rg", "awk", "cut", "jq", "nl",
    ];
    let paths: Vec<&str> = t
        .iter()
        .skip(1)
        .copied()
        .filter(|x| !x.starts_with('-') && *x != "." && x.bytes().any(|b| b == b'/' || b == b'.'))
        .collect();
    if n.first().is_some_and(|f| FILTERS.contains(f)) && paths.iter().any(|p| n.contains(p)) {
        return true;
    }
    // (c) the same command with one operand narrowed.
    if t.len() == n.len() && !t.is_empty() && t[0] == n[0] {
        let differ: Vec<(&str, &str)> = t
            .iter()
            .zip(&n)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (*a, *b))
            .collect();
        if let [(x, y)] = differ.as_slice() {
            return y.starts_with(&format!("{x}/")) || (*x == "." && !y.starts_with('/'));
        }
    }
    false
}

/// Whitespace-separated words, one surrounding quote stripped.
fn tokens(command: &str) -> Vec<&str> {
    command
        .split_ascii_whitespace()
        .map(|w| {
            for q in ['\'', '"'] {
                if let Some(inner) = w.strip_prefix(q).and_then(|w| w.strip_suffix(q)) {
                    return inner;
                }
            }
            w
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_need_their_numbers() {
        assert!(truncated("a…5054 tokens truncated…b"));
        assert!(truncated("x\nTotal output lines: 612\n"));
        assert!(truncated("[... omitted 10 of 500 lines ...]"));
        assert!(truncated(
            "Warning: truncated output (original token count: 5120)"
        ));
        assert!(truncated("[... output truncated to fit 10240 bytes ...]"));
        assert!(truncated("[omitted 3 text items ...]"));
        assert!(!truncated("Original token count: 41\nOutput:\nok"));
        assert!(!truncated("Total output lines: many"));
        assert!(!truncated("…tokens truncated…"));
    }

    #[test]
    fn narrower_reruns() {
        assert!(narrower(
            "cargo build 2>&1",
            "cargo build 2>&1 | grep -n error"
        ));
        assert!(narrower("cat src/big.rs", "sed -n 1,80p src/big.rs"));
        assert!(narrower(
            "grep -rn unwrap src",
            "grep -rn unwrap src/store.rs"
        ));
        assert!(narrower("rg TODO .", "rg TODO src"));
        assert!(!narrower("rg TODO .", "rg TODO ."));
        assert!(!narrower("cargo build", "cargo test"));
        assert!(!narrower("cat a.rs", "head b.rs"));
        assert!(!narrower("rg TODO .", "rg TODO /etc"));
    }
}
