//! Finding tool results in the message shapes agent loops send, wherever they live.
//!
//! - Anthropic Messages: `{ role, content: [ { type: "tool_result", tool_use_id, content }, … ] }`
//! - OpenAI Chat Completions: `{ role: "tool", tool_call_id, content }`
//! - OpenAI Responses input items: `{ type: "function_call_output", call_id, output }`
//!
//! Everything else in a message is opaque and preserved.

use crate::path::{unsafe_component, LONE_SURROGATE};
use crate::view::{JsonView, Kind, Text};
use crate::{Map, OffloadError, Value};

/// Where a tool result's content lives inside one message (or input item).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// `Some(i)`: in the block `content[i]` (Anthropic); `None`: in the message itself.
    pub block: Option<usize>,
    /// The field holding the content: `"content"`, or `"output"` (OpenAI Responses).
    pub field: &'static str,
}

/// One tool result found in a message.
pub(crate) struct Found<V: JsonView> {
    pub slot: Slot,
    /// The tool-call id, or why it cannot name a file (missing, not a string, unsafe).
    /// Callers decide whether that matters: only offloaded results need a usable id.
    pub id: Result<String, OffloadError>,
    /// The content to write: a string as is, an array as its `JSON.stringify`.
    pub text: V::Text,
    /// Whether the content is an array of blocks (so `text` is JSON).
    pub is_array: bool,
}

impl<V: JsonView> Found<V> {
    /// The content's size in UTF-16 code units.
    pub fn chars(&self) -> usize {
        self.text.utf16_len()
    }
}

/// Where a message sits, for error messages: alone (direct offload) or in a batch.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At {
    Alone,
    Index(usize),
}

/// Where the id of the tool result at `slot` is read, for error messages:
/// `content[0].tool_use_id`, `messages[3].tool_call_id`, `messages[5].call_id`.
pub(crate) fn id_path(at: At, slot: Slot) -> String {
    match (slot.block, slot.field) {
        (Some(i), _) => at.path(&format!("content[{i}].tool_use_id")),
        (None, "output") => at.path("call_id"),
        (None, _) => at.path("tool_call_id"),
    }
}

impl At {
    /// `rest` located in this message: `content[0].tool_use_id` or `messages[3].content[0].tool_use_id`.
    fn path(self, rest: &str) -> String {
        match self {
            At::Alone => rest.to_owned(),
            At::Index(i) => format!("messages[{i}].{rest}"),
        }
    }
}

/// Every tool result in `message`, in order. Ids are checked to be safe file-name parts
/// when `name_bytes` more bytes surround them in the file name.
pub(crate) fn tool_results<V: JsonView>(
    message: &V,
    at: At,
    name_bytes: usize,
) -> Result<Vec<Found<V>>, OffloadError> {
    if message.kind() != Kind::Object {
        let what = match at {
            At::Alone => "a message".to_owned(),
            At::Index(i) => format!("messages[{i}]"),
        };
        return Err(OffloadError::InvalidMessage(format!(
            "{what} must be a JSON object, got {}",
            message.kind().described()
        )));
    }
    // Every field is read through `try_field`, so a JavaScript getter or Proxy that
    // throws is an error naming its path, never a tool result silently skipped.
    let get = |view: &V, key: &'static str, path: &dyn Fn() -> String| {
        view.try_field(key)
            .map_err(|reason| unreadable(path(), &reason))
    };
    let whole =
        |id_key: &'static str, field: &'static str| -> Result<Vec<Found<V>>, OffloadError> {
            let slot = Slot { block: None, field };
            let id_field = get(message, id_key, &|| at.path(id_key))?;
            let id = checked_id(id_field, || id_path(at, slot), name_bytes);
            let content = get(message, field, &|| at.path(field))?;
            let is_array = content.as_ref().is_some_and(|c| c.kind() == Kind::Array);
            let text = content_text(content, || at.path(field))?;
            Ok(vec![Found {
                slot,
                id,
                text,
                is_array,
            }])
        };
    if get(message, "role", &|| at.path("role"))?.is_some_and(|r| r.is_str("tool")) {
        return whole("tool_call_id", "content");
    }
    if get(message, "type", &|| at.path("type"))?.is_some_and(|t| t.is_str("function_call_output"))
    {
        return whole("call_id", "output");
    }
    let Some(blocks) =
        get(message, "content", &|| at.path("content"))?.filter(|c| c.kind() == Kind::Array)
    else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for i in 0..blocks.array_len() {
        let block_path = || at.path(&format!("content[{i}]"));
        let Some(block) = blocks
            .try_item(i)
            .map_err(|reason| unreadable(block_path(), &reason))?
        else {
            continue;
        };
        let in_block = |key: &str| at.path(&format!("content[{i}].{key}"));
        if !get(&block, "type", &|| in_block("type"))?.is_some_and(|t| t.is_str("tool_result")) {
            continue;
        }
        let slot = Slot {
            block: Some(i),
            field: "content",
        };
        let id_field = get(&block, "tool_use_id", &|| in_block("tool_use_id"))?;
        let id = checked_id(id_field, || id_path(at, slot), name_bytes);
        let content = get(&block, "content", &|| in_block("content"))?;
        let is_array = content.as_ref().is_some_and(|c| c.kind() == Kind::Array);
        let text = content_text(content, || in_block("content"))?;
        found.push(Found {
            slot,
            id,
            text,
            is_array,
        });
    }
    Ok(found)
}

/// `INVALID_MESSAGE` for a value at `path` that could not be read at all.
fn unreadable(path: String, reason: &str) -> OffloadError {
    OffloadError::InvalidMessage(format!("{path} cannot be read: {reason}"))
}

/// Put each edit's text at its slot in `message`, in place: a replaced field keeps its
/// position among the keys; a missing one is appended.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{apply_edits, Slot};
/// let mut message = json!({"role": "tool", "tool_call_id": "c1", "content": "long", "name": "sql"});
/// apply_edits(&mut message, vec![(Slot { block: None, field: "content" }, "[moved]".into())]);
/// assert_eq!(tool_offload_core::json::stringify(&message), r#"{"role":"tool","tool_call_id":"c1","content":"[moved]","name":"sql"}"#);
/// ```
pub fn apply_edits(message: &mut Value, edits: Vec<(Slot, String)>) {
    for (slot, text) in edits {
        let target = match slot.block {
            None => Some(&mut *message),
            Some(i) => message.get_mut("content").and_then(|c| c.get_mut(i)),
        };
        if let Some(Value::Object(fields)) = target {
            fields.insert(slot.field.to_owned(), Value::String(text));
        }
    }
}

/// A deep copy of `message` with `edits` applied, made without copying the content
/// being replaced (it may be megabytes).
pub(crate) fn with_contents(message: &Value, edits: &[(Slot, String)]) -> Value {
    let replaced = |block: Option<usize>, field: &str| {
        edits
            .iter()
            .any(|(s, _)| s.block == block && s.field == field)
    };
    let copy_block = |i: usize, block: &Value| match block {
        Value::Object(fields) if edits.iter().any(|(s, _)| s.block == Some(i)) => {
            Value::Object(copy_fields(fields, |key| replaced(Some(i), key)))
        }
        other => other.clone(),
    };
    let mut copy = match message {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, value)| {
                    let value = match (replaced(None, key), key.as_str(), value) {
                        (true, _, _) => Value::Null,
                        (false, "content", Value::Array(blocks)) => Value::Array(
                            blocks
                                .iter()
                                .enumerate()
                                .map(|(i, b)| copy_block(i, b))
                                .collect(),
                        ),
                        _ => value.clone(),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        other => other.clone(),
    };
    apply_edits(&mut copy, edits.to_vec());
    copy
}

/// A copy of `fields` in which each field `replaced` names is `null` (about to be
/// overwritten), its old value not copied.
fn copy_fields(fields: &Map<String, Value>, replaced: impl Fn(&str) -> bool) -> Map<String, Value> {
    fields
        .iter()
        .map(|(k, v)| (k.clone(), if replaced(k) { Value::Null } else { v.clone() }))
        .collect()
}

/// Validate a session id for use as a directory name.
pub(crate) fn check_session_id(session_id: &str) -> Result<(), OffloadError> {
    match unsafe_component(session_id, 0) {
        None => Ok(()),
        Some(reason) => Err(OffloadError::InvalidId {
            field: "sessionId".into(),
            value: Some(session_id.into()),
            reason,
        }),
    }
}

fn checked_id<V: JsonView>(
    value: Option<V>,
    field: impl FnOnce() -> String,
    name_bytes: usize,
) -> Result<String, OffloadError> {
    // The path is formatted only on error: most results have a good id.
    let Some(value) = value else {
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: "is missing",
        });
    };
    if value.has_lone_surrogate() {
        // Checked before the id becomes a Rust String, which would hold U+FFFD instead.
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: LONE_SURROGATE,
        });
    }
    let Some(id) = value.to_owned_string() else {
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: "must be a string",
        });
    };
    match unsafe_component(&id, name_bytes) {
        None => Ok(id),
        Some(reason) => Err(OffloadError::InvalidId {
            field: field(),
            value: Some(id),
            reason,
        }),
    }
}

fn content_text<V: JsonView>(
    content: Option<V>,
    field: impl FnOnce() -> String,
) -> Result<V::Text, OffloadError> {
    match content {
        // The APIs allow omitting a tool result's content; it counts as empty.
        None => Ok(V::empty_text()),
        Some(c) if matches!(c.kind(), Kind::String | Kind::Array) => c.text(),
        Some(other) => Err(OffloadError::InvalidMessage(format!(
            "{} must be a string or an array of content blocks, got {}",
            field(),
            other.kind().described()
        ))),
    }
}
