//! The model that never read: of the results a conversation shows by reference (a
//! summary naming a `ctx://` ref, a budget pointer, an offload placeholder — each our
//! writers rendered for that call, `shown.rs`), which a later
//! tool call of the model read back, how often, and a reminder naming the unread ones
//! that reported errors. The conversation is the record: a read is a tool call whose
//! input names the ref (`context_read`, `context_tail`, `context_grep`, or a shell
//! reading the placeholder's file), so what the host read for itself does not count as
//! the model having looked.

use super::shown::shown_in_part;
use crate::json::view::{JsonView, Kind, Text};
use crate::message::{tool_results, At};
use serde_json::Map;
use serde_json::Value;

/// A result shown by reference, and how often the model read it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownRef {
    /// The ref (`ctx://…`), or the file a placeholder names (`tool-result-<id>.md`).
    pub reference: String,
    /// The tool call whose result it stands for.
    pub call_id: String,
    /// Later tool calls whose input names it.
    pub reads: usize,
    /// Whether the result reported errors: its summary found error lines, or the result
    /// is marked `is_error`.
    pub errors: bool,
}

/// How a summary with error lines says so.
const ERRORS_HEADER: &str = "\n--- errors: ";

/// Every result of `messages` shown by reference, in order, each once (a ref shown again
/// later keeps its first place), with the later tool calls that read it. Generic over
/// the message view, so the wasm reads JavaScript messages where they are.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::read_stats;
/// let summary = "[Output of bash (call t1) stored as ctx://c1/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: …\n--- errors: 1 line found; likely root cause at line 9 ---\n9| error: boom";
/// let messages = [
///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]}),
///     json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": summary}]}),
///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "context_grep",
///            "input": {"ref": "ctx://c1/tool/t1.txt", "pattern": "error"}}]}),
/// ];
/// let views: Vec<&serde_json::Value> = messages.iter().collect();
/// let stats = read_stats(&views);
/// assert_eq!(stats[0].reference, "ctx://c1/tool/t1.txt");
/// assert_eq!((stats[0].call_id.as_str(), stats[0].reads, stats[0].errors), ("t1", 1, true));
/// ```
pub fn read_stats<V: JsonView>(messages: &[V]) -> Vec<ShownRef> {
    let calls: Vec<Vec<String>> = messages.iter().map(call_texts).collect();
    let mut out: Vec<ShownRef> = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let found = tool_results(message, At::Index(i), 0, &mut Vec::new()).unwrap_or_default();
        for result in found {
            // A summary or pointer is a string content or a text part (beside an image).
            let texts = match &result.content {
                Some(c) if c.kind() == Kind::String => vec![text_of(c)],
                Some(c) if c.kind() == Kind::Array => (0..c.array_len())
                    .filter_map(|k| c.item(k)?.field("text"))
                    .filter(|t| t.kind() == Kind::String)
                    .map(|t| text_of(&t))
                    .collect(),
                _ => Vec::new(),
            };
            let call_id = result.id().unwrap_or_default();
            let Some((text, reference)) = texts.iter().find_map(|t| {
                shown_in_part(t, &call_id).map(|s| (t.as_str(), s.reference.to_owned()))
            }) else {
                continue;
            };
            if out.iter().any(|s| s.reference == reference) {
                continue;
            }
            let flag = match result.slot.block {
                Some(b) => message
                    .field("content")
                    .and_then(|c| c.item(b))
                    .and_then(|h| h.field("is_error")),
                None => message.field("is_error"),
            };
            let is_error = flag.and_then(|v| v.as_bool()) == Some(true);
            let reads = calls[i + 1..]
                .iter()
                .flatten()
                .filter(|v| crate::search::contains(v, &reference))
                .count();
            out.push(ShownRef {
                errors: is_error || crate::search::contains(text, ERRORS_HEADER),
                call_id,
                reference,
                reads,
            });
        }
    }
    out
}

/// A string view's text.
fn text_of<V: JsonView>(value: &V) -> String {
    value
        .text()
        .map(|t| t.to_str().into_owned())
        .unwrap_or_default()
}

/// Where a message's tool calls hold their input, as text: Anthropic `tool_use` inputs and
/// a Responses item's `input` as their `JSON.stringify`, OpenAI Chat
/// `tool_calls[].function.arguments` and a Responses `function_call`'s `arguments` as they
/// are (JSON text: a ref or a file name is written there unescaped, so it is found
/// without parsing — the wasm holds no JSON text parser).
fn call_texts<V: JsonView>(message: &V) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |value: Option<V>| {
        if let Some(v) =
            value.filter(|v| matches!(v.kind(), Kind::String | Kind::Array | Kind::Object))
        {
            out.push(text_of(&v));
        }
    };
    if let Some(blocks) = message.field("content").filter(|c| c.kind() == Kind::Array) {
        for k in 0..blocks.array_len() {
            if let Some(block) = blocks
                .item(k)
                .filter(|b| b.field("type").is_some_and(|t| t.is_str("tool_use")))
            {
                push(block.field("input"));
            }
        }
    }
    if let Some(calls) = message
        .field("tool_calls")
        .filter(|c| c.kind() == Kind::Array)
    {
        for k in 0..calls.array_len() {
            push(
                calls
                    .item(k)
                    .and_then(|c| c.field("function"))
                    .and_then(|f| f.field("arguments")),
            );
        }
    }
    if message.field("type").is_some() {
        push(message.field("arguments"));
        push(message.field("input"));
    }
    out
}

/// The refs of `messages` that no later tool call read, in the order they were shown.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::unread_refs;
/// let messages = [json!({"role": "tool", "tool_call_id": "c1",
///     "content": "[Content offloaded to: ./tool-result-c1.md]"})];
/// let views: Vec<&serde_json::Value> = messages.iter().collect();
/// assert_eq!(unread_refs(&views), ["tool-result-c1.md"]);
/// ```
pub fn unread_refs<V: JsonView>(messages: &[V]) -> Vec<String> {
    read_stats(messages)
        .into_iter()
        .filter(|s| s.reads == 0)
        .map(|s| s.reference)
        .collect()
}

/// How a reminder line begins.
pub const REMINDER_PREFIX: &str = "[Not read yet: ";

/// The line that names the unread results of `messages` that reported errors, or `None`
/// when there is none or a message already holds that very line: the same refs give the
/// same line, so it is said once for a set of unread refs, and again only when the set
/// changes (a ref read since leaves it, a new failure joins it).
///
/// ```
/// use tool_offload_core::audit::unread_reminder;
/// assert_eq!(unread_reminder::<&serde_json::Value>(&[]), None);
/// ```
pub fn unread_reminder<V: JsonView>(messages: &[V]) -> Option<String> {
    let line = reminder_line(messages)?;
    (!messages.iter().any(|m| holds_line(m, &line))).then_some(line)
}

/// Whether `message`'s content (its text, or one of its text parts) holds `line`.
fn holds_line<V: JsonView>(message: &V, line: &str) -> bool {
    let Some(content) = message.field("content") else {
        return false;
    };
    match content.kind() {
        Kind::String => crate::search::contains(&text_of(&content), line),
        Kind::Array => (0..content.array_len())
            .filter_map(|k| content.item(k)?.field("text"))
            .filter(|t| t.kind() == Kind::String)
            .any(|t| crate::search::contains(&text_of(&t), line)),
        _ => false,
    }
}

/// The reminder for the unread results of `messages` that reported errors, said before or
/// not.
fn reminder_line<V: JsonView>(messages: &[V]) -> Option<String> {
    let unread: Vec<String> = read_stats(messages)
        .into_iter()
        .filter(|s| s.reads == 0 && s.errors)
        .map(|s| s.reference)
        .collect();
    if unread.is_empty() {
        return None;
    }
    let (them, it) = if unread.len() == 1 {
        ("output", "it")
    } else {
        ("outputs", "them")
    };
    let mut line = REMINDER_PREFIX.to_owned();
    for (n, reference) in unread.iter().enumerate() {
        if n > 0 {
            line.push_str(", ");
        }
        line.push_str(reference);
    }
    line.push_str(&format!(
        " — {them} with errors, shown only in part. Read {it} (context_read, context_grep) before relying on {it}.]"
    ));
    Some(line)
}

/// `messages` with the [`unread_reminder`] at the end of the last user turn
/// ([`reminder_edit`]). Nothing changes when there is no reminder or the last message
/// already ends with it; earlier messages are never touched. Returns whether it added
/// one.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::remind_unread;
/// let mut messages = vec![
///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]}),
///     json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
///            "content": "[Output of bash (call t1) stored as ctx://c1/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: …\n--- errors: 1 line found; likely root cause at line 9 ---"}]}),
/// ];
/// assert!(remind_unread(&mut messages));
/// assert_eq!(messages[1]["content"][1]["text"], "[Not read yet: ctx://c1/tool/t1.txt — output with errors, shown only in part. Read it (context_read, context_grep) before relying on it.]");
/// assert!(!remind_unread(&mut messages), "once");
/// ```
pub fn remind_unread(messages: &mut Vec<Value>) -> bool {
    let views: Vec<&Value> = messages.iter().collect();
    let Some(line) = unread_reminder(&views) else {
        return false;
    };
    match reminder_edit(messages.last(), &line) {
        Some(Reminded::Replace(last)) => {
            if let Some(slot) = messages.last_mut() {
                *slot = last;
            }
            true
        }
        Some(Reminded::Push(message)) => {
            messages.push(message);
            true
        }
        None => false,
    }
}

/// How a reminder goes into a conversation ([`reminder_edit`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Reminded {
    /// The last message, with the line at its end.
    Replace(Value),
    /// A user message holding the line, to add after the last.
    Push(Value),
}

/// Where `line` goes after `last`, the conversation's last message: into it (a new text
/// part, or after a blank line) when it is the user's, else in a user message of its own
/// (after an OpenAI `tool` message or a Responses item); `None` when `last` already ends
/// with it.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::{reminder_edit, Reminded};
/// let last = json!({"role": "user", "content": "go on"});
/// assert_eq!(
///     reminder_edit(Some(&last), "[Not read yet: …]"),
///     Some(Reminded::Replace(json!({"role": "user", "content": "go on\n\n[Not read yet: …]"})))
/// );
/// ```
pub fn reminder_edit(last: Option<&Value>, line: &str) -> Option<Reminded> {
    let Some(last) = last.filter(|m| m.get("role").and_then(Value::as_str) == Some("user")) else {
        return Some(Reminded::Push(object([
            ("role", "user".into()),
            ("content", line.into()),
        ])));
    };
    if ends_with_reminder(last, line) {
        return None;
    }
    let mut last = last.clone();
    match last.get_mut("content") {
        Some(Value::String(text)) => {
            text.push_str("\n\n");
            text.push_str(line);
        }
        Some(Value::Array(parts)) => {
            parts.push(object([("type", "text".into()), ("text", line.into())]));
        }
        _ => {
            if let Value::Object(map) = &mut last {
                map.insert("content".to_owned(), Value::String(line.to_owned()));
            }
        }
    }
    Some(Reminded::Replace(last))
}

/// An object of `fields`, in order (no `json!`: it would bring serde's serializer into
/// the wasm).
fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in fields {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

/// Whether `message`'s content ends with `line` (as its last text part, or its text's
/// end).
fn ends_with_reminder(message: &Value, line: &str) -> bool {
    match message.get("content") {
        Some(Value::String(text)) => text.ends_with(line),
        Some(Value::Array(parts)) => {
            parts
                .last()
                .and_then(|p| p.get("text"))
                .and_then(Value::as_str)
                == Some(line)
        }
        _ => false,
    }
}

#[cfg(test)]
#[path = "unread_tests.rs"]
mod tests;
