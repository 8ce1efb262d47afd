//! Claude Code session logs: the outputs persisted under `<session>/tool-results/`.
//!
//! Claude Code keeps an oversized output in `tool-results/<tool_use_id>.txt` (Bash: a
//! random name, given as `toolUseResult.persistedOutputPath`) and shows the model a
//! `<persisted-output>` preview, at once or later when it microcompacts the context (a
//! `microcompact_boundary` event lists the ids). The log itself often keeps the full
//! output, so the folder is the evidence.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::session::{Item, Session};
use super::text::{content_chars, short, strings};
use crate::replay::content_text;
use serde_json::Value;

/// Audits a Claude Code log: `events` its lines, `persisted` the files of the session's
/// `tool-results/` folder (name → length in UTF-16 code units). Side-chain (sub-agent)
/// events are left out: a sub-agent reading a file is not the model reading it.
///
/// ```
/// use std::collections::BTreeMap;
/// use serde_json::json;
/// use tool_offload_core::audit::claude_code;
/// let events = [
///     json!({"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [
///         {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]}}),
///     json!({"type": "user", "message": {"role": "user", "content": [
///         {"type": "tool_result", "tool_use_id": "t1", "content": "<persisted-output>…"}]}}),
///     json!({"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [
///         {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/s/tool-results/t1.txt"}}]}}),
/// ];
/// let persisted = BTreeMap::from([("t1.txt".to_owned(), 48_211)]);
/// let session = claude_code(&events, &persisted);
/// assert_eq!((session.partial(), session.read()), (1, 1));
/// assert_eq!(session.items[0].turns_until_read, Some(1));
/// assert_eq!(session.items[0].chars, 48_211);
/// ```
pub fn claude_code(events: &[Value], persisted: &BTreeMap<String, usize>) -> Session {
    let compacted: HashSet<&str> = events
        .iter()
        .filter(|e| e.get("subtype").and_then(Value::as_str) == Some("microcompact_boundary"))
        .filter_map(|e| e.pointer("/microcompactMetadata/compactedToolIds"))
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let main: Vec<&Value> = events.iter().filter(|e| is_main_chain(e)).collect();
    let mut tools: HashMap<&str, &str> = HashMap::new();
    let mut found = Vec::new();
    for (at, event) in main.iter().enumerate() {
        for block in blocks(event) {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    if let (Some(id), Some(name)) = (str_of(block, "id"), str_of(block, "name")) {
                        tools.insert(id, name);
                    }
                }
                Some("tool_result") => {
                    let Some(id) = str_of(block, "tool_use_id") else {
                        continue;
                    };
                    if let Some(item) = persisted_item(event, block, id, persisted, &compacted) {
                        found.push((at, item));
                    }
                }
                _ => {}
            }
        }
    }
    let items = found
        .into_iter()
        .map(|(at, (mut item, file))| {
            item.tool = tools.get(item.call_id.as_str()).unwrap_or(&"").to_string();
            follow(&main[at + 1..], &file, &mut item);
            item
        })
        .collect();
    Session { items }
}

/// A user or assistant event of the main chain.
fn is_main_chain(event: &Value) -> bool {
    matches!(
        event.get("type").and_then(Value::as_str),
        Some("user" | "assistant")
    ) && event.get("isSidechain").and_then(Value::as_bool) != Some(true)
}

fn blocks(event: &Value) -> &[Value] {
    event
        .pointer("/message/content")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn str_of<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// The item of the result `block` when it was persisted, and the file name a reader would
/// name (the id itself when no file is known).
fn persisted_item(
    event: &Value,
    block: &Value,
    id: &str,
    persisted: &BTreeMap<String, usize>,
    compacted: &HashSet<&str>,
) -> Option<(Item, String)> {
    let text = content_text(block.get("content"));
    let by_id = format!("{id}.txt");
    let declared = event
        .pointer("/toolUseResult/persistedOutputPath")
        .and_then(Value::as_str);
    let pointed = saved_to(&text);
    let marked = text.trim_start().starts_with("<persisted-output>");
    let file = if persisted.contains_key(&by_id) {
        Some(by_id)
    } else {
        declared.or(pointed).map(|p| basename(p).to_owned())
    };
    let known = file.as_ref().is_some_and(|f| persisted.contains_key(f));
    if !(known || marked || declared.is_some() || compacted.contains(id)) {
        return None;
    }
    let chars = file
        .as_ref()
        .and_then(|f| persisted.get(f).copied())
        .unwrap_or_else(|| content_chars(block.get("content")));
    let item = Item {
        call_id: id.to_owned(),
        tool: String::new(),
        chars,
        read: false,
        turns_until_read: None,
        first_text_after: None,
    };
    Some((item, file.unwrap_or_else(|| id.to_owned())))
}

/// The path a `<persisted-output>` text says the output was saved to.
fn saved_to(text: &str) -> Option<&str> {
    ["Full output saved to:", "Tool result saved to:"]
        .iter()
        .find_map(|marker| {
            let at = crate::search::find(text, marker)? + marker.len();
            text[at..].split_ascii_whitespace().next()
        })
}

fn basename(path: &str) -> &str {
    let start = path.bytes().rposition(|b| b == b'/' || b == b'\\');
    &path[start.map_or(0, |i| i + 1)..]
}

/// Marks `item` read when one of the events `after` it calls a tool whose input names
/// `file`, counting the assistant turns (distinct message ids) up to it; notes the first
/// text the assistant wrote after it.
fn follow(after: &[&Value], file: &str, item: &mut Item) {
    let mut turns: Vec<&str> = Vec::new();
    for event in after {
        if event.get("type").and_then(Value::as_str) != Some("assistant") {
            continue;
        }
        let id = event
            .pointer("/message/id")
            .or_else(|| event.get("uuid"))
            .and_then(Value::as_str)
            .unwrap_or("");
        if !turns.contains(&id) {
            turns.push(id);
        }
        for block in blocks(event) {
            match block.get("type").and_then(Value::as_str) {
                Some("text") if item.first_text_after.is_none() => {
                    item.first_text_after = str_of(block, "text").and_then(short);
                }
                Some("tool_use") if !item.read => {
                    let mut input = Vec::new();
                    strings(block.get("input").unwrap_or(&Value::Null), &mut input);
                    if input.iter().any(|s| crate::search::contains(s, file)) {
                        item.read = true;
                        item.turns_until_read = Some(turns.len());
                    }
                }
                _ => {}
            }
        }
        if item.read && item.first_text_after.is_some() {
            return;
        }
    }
}
