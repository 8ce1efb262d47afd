//! Finding tool results in the message shapes agent loops send.
//!
//! - Anthropic Messages: `{ role, content: [ { type: "tool_result", tool_use_id, content }, … ] }`
//! - OpenAI Chat Completions: `{ role: "tool", tool_call_id, content }`
//!
//! Everything else in a message is opaque and preserved.

use std::borrow::Cow;

use crate::path::unsafe_component;
use crate::{json, utf16_len, Map, OffloadError, Value};

/// Where a tool result's content lives inside its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// `message.content[i]` is a `tool_result` block (Anthropic).
    Block(usize),
    /// The message itself is a `role: "tool"` message (OpenAI Chat).
    Message,
}

/// One tool result found in a message, borrowed from it.
#[derive(Debug)]
pub(crate) struct ToolResult<'a> {
    pub slot: Slot,
    /// The tool-call id, validated as a safe file-name stem.
    pub id: &'a str,
    /// The content to write: a string as is, an array as its `JSON.stringify`.
    pub text: Cow<'a, str>,
}

impl ToolResult<'_> {
    /// The content's size in UTF-16 code units.
    pub fn chars(&self) -> usize {
        utf16_len(&self.text)
    }
}

/// Every tool result in `message`, in order, with ids validated for use as
/// `<id><suffix>` file names. Errors name the offending field.
pub(crate) fn tool_results<'a>(
    message: &'a Value,
    suffix: &str,
) -> Result<Vec<ToolResult<'a>>, OffloadError> {
    let Value::Object(fields) = message else {
        return Err(OffloadError::InvalidMessage(format!(
            "a message must be a JSON object, got {}",
            kind(message)
        )));
    };
    if fields.get("role").and_then(Value::as_str) == Some("tool") {
        let id = checked_id(fields.get("tool_call_id"), "tool_call_id".into(), suffix)?;
        let text = content_text(fields.get("content"), "content")?;
        return Ok(vec![ToolResult {
            slot: Slot::Message,
            id,
            text,
        }]);
    }
    let Some(Value::Array(blocks)) = fields.get("content") else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("tool_result") {
            continue;
        }
        let id = checked_id(
            block.get("tool_use_id"),
            format!("content[{i}].tool_use_id"),
            suffix,
        )?;
        let text = content_text(block.get("content"), &format!("content[{i}].content"))?;
        found.push(ToolResult {
            slot: Slot::Block(i),
            id,
            text,
        });
    }
    Ok(found)
}

/// A deep copy of `message` in which the content at each slot is replaced, without
/// copying the content being replaced (it may be megabytes). Key order is preserved.
pub(crate) fn with_contents(message: &Value, replacements: &[(Slot, String)]) -> Value {
    let Value::Object(fields) = message else {
        return message.clone();
    };
    let replacement = |slot: Slot| {
        replacements
            .iter()
            .rev()
            .find(|(s, _)| *s == slot)
            .map(|(_, r)| r)
    };
    let copy = fields
        .iter()
        .map(|(key, value)| {
            let value = match (key.as_str(), value) {
                ("content", _) if replacement(Slot::Message).is_some() => {
                    Value::String(replacement(Slot::Message).cloned().unwrap_or_default())
                }
                ("content", Value::Array(blocks)) => Value::Array(
                    blocks
                        .iter()
                        .enumerate()
                        .map(|(i, block)| match replacement(Slot::Block(i)) {
                            Some(text) => replace_field(block, "content", text),
                            None => block.clone(),
                        })
                        .collect(),
                ),
                _ => value.clone(),
            };
            (key.clone(), value)
        })
        .collect::<Map<String, Value>>();
    let mut copy = copy;
    if let (Some(text), false) = (replacement(Slot::Message), fields.contains_key("content")) {
        // A tool message without content still gets its placeholder, appended.
        copy.insert("content".to_owned(), Value::String(text.clone()));
    }
    Value::Object(copy)
}

/// A copy of the object `value` with `key` set to the string `text` (kept in place if
/// present, appended if not), the old value of `key` not copied.
fn replace_field(value: &Value, key: &str, text: &str) -> Value {
    let Value::Object(fields) = value else {
        return value.clone();
    };
    let mut copy: Map<String, Value> = fields
        .iter()
        .map(|(k, v)| {
            let v = if k == key { Value::Null } else { v.clone() };
            (k.clone(), v)
        })
        .collect();
    copy.insert(key.to_owned(), Value::String(text.to_owned()));
    Value::Object(copy)
}

/// Validate a session id for use as a directory name.
pub(crate) fn check_session_id(session_id: &str) -> Result<(), OffloadError> {
    match unsafe_component(session_id, "") {
        None => Ok(()),
        Some(reason) => Err(OffloadError::InvalidId {
            field: "sessionId".into(),
            value: Some(session_id.into()),
            reason,
        }),
    }
}

fn checked_id<'a>(
    value: Option<&'a Value>,
    field: String,
    suffix: &str,
) -> Result<&'a str, OffloadError> {
    let id = match value {
        Some(Value::String(id)) => id.as_str(),
        None => {
            return Err(OffloadError::InvalidId {
                field,
                value: None,
                reason: "is missing",
            })
        }
        Some(_) => {
            return Err(OffloadError::InvalidId {
                field,
                value: None,
                reason: "must be a string",
            })
        }
    };
    match unsafe_component(id, suffix) {
        None => Ok(id),
        Some(reason) => Err(OffloadError::InvalidId {
            field,
            value: Some(id.into()),
            reason,
        }),
    }
}

fn content_text<'a>(content: Option<&'a Value>, field: &str) -> Result<Cow<'a, str>, OffloadError> {
    match content {
        // The API allows omitting a tool result's content; it counts as empty.
        None => Ok(Cow::Borrowed("")),
        Some(Value::String(s)) => Ok(Cow::Borrowed(s)),
        Some(array @ Value::Array(_)) => Ok(Cow::Owned(json::stringify(array))),
        Some(other) => Err(OffloadError::InvalidMessage(format!(
            "{field} must be a string or an array of content blocks, got {}",
            kind(other)
        ))),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
