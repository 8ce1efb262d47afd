//! The text the model was shown for a tool result, rebuilt from the `toolUseResult` Claude
//! Code keeps beside it in a session log, in each form Claude Code writes where the full
//! text is recoverable; and the preview a `<persisted-output>` block shows, to check a
//! rebuilt text against.
//!
//! The forms, as Claude Code 2.1 writes and renders them (checked on real logs: every
//! tool result of these forms in the shared corpus rebuilds exactly):
//!
//! | tool | `toolUseResult` | the text |
//! | --- | --- | --- |
//! | any | a string | the string |
//! | Read | `{type: "text", file: {content, startLine}}` | each line as `cat -n` numbers it (`%6d→`), then Claude Code's `<system-reminder>` |
//! | Bash | `{stdout, stderr, interrupted, isImage: false}` | stdout, then stderr on a line of its own |
//! | Grep | `{mode: "content", content}` | the matches (`No matches found` when none) |
//! | Grep | `{mode: "files_with_matches", filenames, numFiles}` | `Found N files` and the names |
//! | Glob | `{filenames, truncated, durationMs}` | the names, one a line |
//! | Task | `{content: [text blocks], agentId}` | the texts, then `agentId: …` |
//! | WebFetch | `{result, url, code}` | `result` |
//! | MCP tools | `[{type: "text", text}, …]` | the texts, one a line |
//!
//! Not recoverable, so never rebuilt: images and PDFs read, Grep's `count` mode, Edit,
//! Write and MultiEdit (their text quotes a snippet of the file not kept), TodoWrite,
//! WebSearch, Skill.

use serde_json::Value;

/// What Claude Code 2.1 appends to every text a `Read` returns.
pub const READ_REMINDER: &str = "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n";

/// The full text of a tool result, from the `toolUseResult` Claude Code kept; `None` for a
/// form whose text cannot be rebuilt.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::transcript::result_text;
/// let bash = json!({"stdout": "built", "stderr": "warning: x", "interrupted": false, "isImage": false});
/// assert_eq!(result_text(&bash).as_deref(), Some("built\nwarning: x"));
/// let read = json!({"type": "text", "file": {"filePath": "/a", "content": "a\nb", "startLine": 9}});
/// assert!(result_text(&read).unwrap().starts_with("     9→a\n    10→b\n\n<system-reminder>"));
/// assert_eq!(result_text(&json!({"oldString": "a", "newString": "b"})), None);
/// ```
pub fn result_text(full: &Value) -> Option<String> {
    match full {
        Value::String(text) => Some(text.clone()),
        Value::Array(blocks) => texts(blocks),
        Value::Object(_) => object_text(full),
        _ => None,
    }
}

fn object_text(full: &Value) -> Option<String> {
    let str_of = |key: &str| full.get(key).and_then(Value::as_str);
    if str_of("type") == Some("text") {
        return read_text(full.get("file")?);
    }
    if let Some(stdout) = str_of("stdout") {
        return bash_text(full, stdout);
    }
    match str_of("mode") {
        Some("content") => {
            let content = str_of("content")?;
            let text = if content.is_empty() {
                "No matches found"
            } else {
                content
            };
            return Some(format!("{text}{}", pagination(full)));
        }
        Some("files_with_matches") => {
            let names = names(full)?;
            if names.is_empty() {
                return Some("No files found".into());
            }
            let n = full
                .get("numFiles")
                .and_then(Value::as_u64)
                .unwrap_or(names.len() as u64);
            let noun = if n == 1 { "file" } else { "files" };
            return Some(format!(
                "Found {n} {noun}\n{}{}",
                names.join("\n"),
                pagination(full)
            ));
        }
        Some(_) => return None,
        None => {}
    }
    if full.get("truncated").is_some() && full.get("durationMs").is_some() {
        let names = names(full)?;
        if names.is_empty() {
            return Some("No files found".into());
        }
        let mut text = names.join("\n");
        if full.get("truncated") == Some(&Value::Bool(true)) {
            text.push_str(
                "\n(Results are truncated. Consider using a more specific path or pattern.)",
            );
        }
        return Some(text);
    }
    if let (Some(Value::Array(blocks)), Some(agent)) = (full.get("content"), str_of("agentId")) {
        let mut text = texts(blocks)?;
        text.push_str(&format!(
            "\nagentId: {agent} (for resuming to continue this agent's work if needed)"
        ));
        return Some(text);
    }
    if let (Some(result), Some(_)) = (str_of("result"), str_of("url")) {
        return Some(result.to_owned());
    }
    None
}

/// Read's text: each line numbered as `cat -n` does, from `startLine`, then the reminder.
fn read_text(file: &Value) -> Option<String> {
    let content = file.get("content")?.as_str()?;
    let start = file.get("startLine").and_then(Value::as_u64).unwrap_or(1);
    let mut text = String::with_capacity(content.len() + content.len() / 8 + 400);
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&format!("{:>6}→{line}", start + i as u64));
    }
    text.push_str(READ_REMINDER);
    Some(text)
}

/// Bash's text: stdout, then stderr on a line of its own; nothing for an image.
fn bash_text(full: &Value, stdout: &str) -> Option<String> {
    if full.get("isImage") == Some(&Value::Bool(true)) {
        return None;
    }
    let stderr = full.get("stderr").and_then(Value::as_str).unwrap_or("");
    let mut text = stdout.to_owned();
    if !stderr.is_empty() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(stderr);
    }
    Some(text)
}

/// Grep's note when a limit or an offset applied.
fn pagination(full: &Value) -> String {
    let limit = full.get("appliedLimit").and_then(Value::as_u64);
    let offset = full.get("appliedOffset").and_then(Value::as_u64);
    match (limit, offset) {
        (None, None) => String::new(),
        (Some(limit), offset) => format!(
            "\n\n[Showing results with pagination = limit: {limit}, offset: {}]",
            offset.unwrap_or(0)
        ),
        (None, Some(offset)) => format!("\n\n[Showing results with pagination = offset: {offset}]"),
    }
}

fn names(full: &Value) -> Option<Vec<&str>> {
    full.get("filenames")?
        .as_array()?
        .iter()
        .map(Value::as_str)
        .collect()
}

/// The texts of content blocks, one a line; `None` when a block is not text.
fn texts(blocks: &[Value]) -> Option<String> {
    let texts: Option<Vec<&str>> = blocks
        .iter()
        .map(|b| match b.get("type").and_then(Value::as_str) {
            Some("text") => b.get("text").and_then(Value::as_str),
            _ => None,
        })
        .collect();
    texts.filter(|t| !t.is_empty()).map(|t| t.join("\n"))
}

/// The start of the output a `<persisted-output>` block shows (`Preview (first 2KB):`
/// up to the closing `...`), when it has one.
///
/// ```
/// use tool_offload_core::transcript::preview_of;
/// let block = "<persisted-output>\nOutput too large (4.8MB). Full output saved to: /s/tool-results/t1.txt\n\nPreview (first 2KB):\nab\ncd\n...\n</persisted-output>";
/// assert_eq!(preview_of(block), Some("ab\ncd"));
/// assert_eq!(preview_of("<persisted-output>Tool result saved to: /p\n\nUse Read to view</persisted-output>"), None);
/// ```
pub fn preview_of(block: &str) -> Option<&str> {
    const START: &str = "Preview (first 2KB):\n";
    let at = block.find(START)? + START.len();
    let rest = block[at..].trim_end();
    let rest = rest
        .strip_suffix("</persisted-output>")?
        .trim_end_matches('\n');
    Some(rest.strip_suffix("\n...").unwrap_or(rest))
}
