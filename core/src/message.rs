//! Finding tool results in the message shapes agent loops send, wherever they live.
//!
//! - Anthropic Messages: `{ role, content: [ { type: "tool_result", tool_use_id, content }, … ] }`
//! - OpenAI Chat Completions: `{ role: "tool", tool_call_id, content }`
//! - OpenAI Responses input items: `{ type: "function_call_output", call_id, output }`
//! - Vercel AI SDK: `{ role: "tool", content: [ { type: "tool-result", toolCallId, toolName,
//!   output: { type: "text" | "json" | "error-text" | "error-json" | "content", value } }, … ] }`
//! - OpenAI Agents SDK items: `{ type: "function_call_result", callId, name, output }`
//! - LangChain: `{ type: "tool", tool_call_id, content }`, its stored form
//!   `{ type: "tool", data: { tool_call_id, content } }` and its serialised form
//!   `{ lc: 1, type: "constructor", id: [ …, "ToolMessage" ], kwargs: { tool_call_id, content } }`
//!
//! Everything else in a message is opaque and preserved. What replaces a content keeps
//! the message valid for its framework ([`Form`]).

use crate::path::{unsafe_component, LONE_SURROGATE};
use crate::view::{JsonView, Kind, Text};
use crate::{Map, OffloadError, Value};

/// Where a tool result's content lives inside one message (or input item), and how what
/// replaces it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// `Some(i)`: in the block or part `content[i]` (Anthropic, AI SDK); `None`: in the
    /// message itself.
    pub block: Option<usize>,
    /// An object inside that holds the fields (LangChain's `kwargs` or `data`); `None`:
    /// the block or message itself.
    pub holder: Option<&'static str>,
    /// The field holding the content: `"content"`, or `"output"` (OpenAI Responses,
    /// AI SDK, Agents SDK).
    pub field: &'static str,
    /// The field holding the tool-call id (`tool_use_id`, `tool_call_id`, `call_id`,
    /// `toolCallId`, `callId`), for messages about it.
    pub id: &'static str,
    /// How the replacement is written.
    pub form: Form,
}

impl Slot {
    /// The content in the message itself, written as a string: OpenAI Chat's `role:
    /// "tool"` message.
    pub const fn whole(field: &'static str, id: &'static str) -> Self {
        Slot {
            block: None,
            holder: None,
            field,
            id,
            form: Form::Text,
        }
    }
}

/// How a placeholder or summary replaces a content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// As a string.
    Text,
    /// As the AI SDK's tool output `{ "type": <this>, "value": <text> }` (`"text"`, or
    /// `"error-text"` for an error), which the SDK sends to the model as the text.
    Tagged(&'static str),
    /// A content array of text parts and others (images, files): the array
    /// `[{ "type": "text", "text": <text> }, …the parts that are not text]`, so only the
    /// texts are replaced (the Materializer stores them; the other parts stay).
    Parts,
    /// [`Form::Parts`] inside the AI SDK's `{ "type": "content", "value": [...] }`.
    TaggedParts,
}

impl Form {
    /// The replacement as a serde value; `original` is the content it replaces (read
    /// only by the parts forms, for the parts that stay).
    pub fn value(self, text: String, original: Option<&Value>) -> Value {
        let tagged = |kind: &str, value: Value| {
            let mut output = Map::new();
            output.insert("type".into(), kind.into());
            output.insert("value".into(), value);
            Value::Object(output)
        };
        match self {
            Form::Text => Value::String(text),
            Form::Tagged(kind) => tagged(kind, Value::String(text)),
            Form::Parts => kept_parts(text, original),
            Form::TaggedParts => {
                let parts = original.and_then(|o| o.get("value"));
                tagged("content", kept_parts(text, parts))
            }
        }
    }

    /// This form for content whose other parts stay beside the text.
    pub(crate) fn keeping_parts(self) -> Self {
        match self {
            Form::Text | Form::Parts => Form::Parts,
            Form::Tagged(_) | Form::TaggedParts => Form::TaggedParts,
        }
    }
}

/// `[{ type: "text", text }, …the items of `original` that are not text parts]`.
fn kept_parts(text: String, original: Option<&Value>) -> Value {
    let mut part = Map::new();
    part.insert("type".into(), "text".into());
    part.insert("text".into(), Value::String(text));
    let mut parts = vec![Value::Object(part)];
    if let Some(Value::Array(items)) = original {
        parts.extend(items.iter().filter(|item| !is_text_part(item)).cloned());
    }
    Value::Array(parts)
}

/// One tool result found in a message.
pub(crate) struct Found<V: JsonView> {
    pub slot: Slot,
    /// The tool-call id's value, checked only when asked for ([`Found::id`]).
    id_value: Option<V>,
    at: At,
    name_bytes: usize,
    /// The content to write: a string as is, an array as its `JSON.stringify`.
    pub text: V::Text,
    /// Whether the content is an array of blocks or another JSON value (so `text` is
    /// JSON).
    pub is_array: bool,
    /// The tool's name when the result itself says it (AI SDK `toolName`, Agents SDK
    /// `name`).
    pub tool_name: Option<String>,
    /// The content as found (for an AI SDK part, its output's `value`), when there is one.
    pub content: Option<V>,
}

impl<V: JsonView> Found<V> {
    /// The content's size in UTF-16 code units.
    pub fn chars(&self) -> usize {
        self.text.utf16_len()
    }

    /// The tool-call id, or why it cannot name a file (missing, not a string, unsafe).
    /// Callers decide whether that matters: only offloaded results need a usable id, so
    /// it is checked (and its error path formatted) only for those.
    pub fn id(&self) -> Result<String, OffloadError> {
        checked_id(
            self.id_value.as_ref(),
            || id_path(self.at, self.slot),
            self.name_bytes,
        )
    }
}

/// Where a message sits, for error messages: alone (direct offload) or in a batch.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At {
    Alone,
    Index(usize),
}

/// Where the id of the tool result at `slot` is read, for error messages:
/// `content[0].tool_use_id`, `messages[3].tool_call_id`, `messages[5].kwargs.tool_call_id`.
pub(crate) fn id_path(at: At, slot: Slot) -> String {
    at.path(&slot_path(slot, slot.id))
}

/// `key` inside the holder of `slot`: `content[2].output`, `kwargs.content`, `call_id`.
fn slot_path(slot: Slot, key: &str) -> String {
    let mut path = String::new();
    if let Some(i) = slot.block {
        path = format!("content[{i}].");
    }
    if let Some(holder) = slot.holder {
        path.push_str(holder);
        path.push('.');
    }
    path.push_str(key);
    path
}

impl At {
    /// The message itself: `message` or `messages[3]`.
    pub(crate) fn whole(self) -> String {
        match self {
            At::Alone => "message".to_owned(),
            At::Index(i) => format!("messages[{i}]"),
        }
    }

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
    unrecognized: &mut Vec<String>,
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

    // One result held by `holder` (the message, or an object inside it) at `slot`.
    // `read`: the content when the caller has already read it.
    let one_read = |holder: &V,
                    slot: Slot,
                    name: Option<&'static str>,
                    read: Option<Option<V>>|
     -> Result<Found<V>, OffloadError> {
        let path = |key: &str| at.path(&slot_path(slot, key));
        let id_value = get(holder, slot.id, &|| path(slot.id))?;
        let content = match read {
            Some(content) => content,
            None => get(holder, slot.field, &|| path(slot.field))?,
        };
        let is_array = content
            .as_ref()
            .is_some_and(|c| matches!(c.kind(), Kind::Array | Kind::Object));
        // The Agents SDK's output may also be one structured item (`{ type: "text", text }`).
        let content = match content {
            Some(c) if c.kind() == Kind::Object && slot.id == "callId" => {
                return Ok(Found {
                    slot,
                    id_value,
                    at,
                    name_bytes,
                    text: c.text()?,
                    content: Some(c),
                    is_array,
                    tool_name: match name {
                        Some(key) => {
                            get(holder, key, &|| path(key))?.and_then(|n| n.to_owned_string())
                        }
                        None => None,
                    },
                })
            }
            other => other,
        };
        let text = content_text(content.as_ref(), || path(slot.field))?;
        let tool_name = match name {
            Some(key) => get(holder, key, &|| path(key))?.and_then(|n| n.to_owned_string()),
            None => None,
        };
        Ok(Found {
            slot,
            id_value,
            at,
            name_bytes,
            text,
            is_array,
            tool_name,
            content,
        })
    };
    let one =
        |holder: &V, slot: Slot, name: Option<&'static str>| one_read(holder, slot, name, None);
    let nested = |key: &'static str, id: &'static str| -> Result<Vec<Found<V>>, OffloadError> {
        match get(message, key, &|| at.path(key))?.filter(|h| h.kind() == Kind::Object) {
            Some(holder) => {
                let slot = Slot {
                    holder: Some(key),
                    ..Slot::whole("content", id)
                };
                Ok(vec![one(&holder, slot, None)?])
            }
            None => Ok(Vec::new()),
        }
    };
    let content = || get(message, "content", &|| at.path("content"));
    // `role` and `type` read once each (every read may cross into JavaScript).
    if get(message, "role", &|| at.path("role"))?.is_some_and(|r| r.is_str("tool")) {
        // The AI SDK's tool message holds result parts; OpenAI Chat's holds the content.
        let content = content()?;
        if let Some(parts) = content.as_ref().filter(|c| c.kind() == Kind::Array) {
            if let Some(found) = ai_sdk_results(parts, at, name_bytes, &get)? {
                return Ok(found);
            }
        }
        let slot = Slot::whole("content", "tool_call_id");
        return Ok(vec![one_read(message, slot, None, Some(content))?]);
    }
    let kind = get(message, "type", &|| at.path("type"))?;
    let is = |value: &'static str| kind.as_ref().is_some_and(|t| t.is_str(value));
    if is("function_call_output") {
        return Ok(vec![one(message, Slot::whole("output", "call_id"), None)?]);
    }
    if is("function_call_result") {
        return Ok(vec![one(
            message,
            Slot::whole("output", "callId"),
            Some("name"),
        )?]);
    }
    if is("tool") {
        if get(message, "data", &|| at.path("data"))?.is_some_and(|d| d.kind() == Kind::Object) {
            return nested("data", "tool_call_id");
        }
        return Ok(vec![one(
            message,
            Slot::whole("content", "tool_call_id"),
            Some("name"),
        )?]);
    }
    if is("constructor") && is_langchain_tool_message(message, &get, at)? {
        return nested("kwargs", "tool_call_id");
    }
    if kind.as_ref().is_some_and(looks_like_result) {
        unrecognized.push(at.whole());
        return Ok(Vec::new());
    }
    let Some(blocks) = content()?.filter(|c| c.kind() == Kind::Array) else {
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
        let block_type = get(&block, "type", &|| in_block("type"))?;
        if !block_type.as_ref().is_some_and(|t| t.is_str("tool_result")) {
            if block_type.as_ref().is_some_and(looks_like_result) {
                unrecognized.push(block_path());
            }
            continue;
        }
        let slot = Slot {
            block: Some(i),
            ..Slot::whole("content", "tool_use_id")
        };
        found.push(one(&block, slot, None)?);
    }
    Ok(found)
}

/// Whether a `type` we do not know names a tool's result or output
/// (`mcp_tool_result`, `web_search_tool_result`, `computer_call_output`,
/// `custom_tool_call_output`…): such an item is reported, never silently skipped.
fn looks_like_result<V: JsonView>(kind: &V) -> bool {
    kind.ends_with_any(&["_result", "-result", "_output", "-output"])
}

/// A field reader that turns a throwing getter into an error naming its path.
type Get<'a, V> =
    dyn Fn(&V, &'static str, &dyn Fn() -> String) -> Result<Option<V>, OffloadError> + 'a;

/// Every AI SDK `tool-result` part of a tool message, its output read by the output's
/// own `type`: a text as is, JSON values and content parts as their `JSON.stringify`.
/// An `execution-denied` output (the tool never ran) has nothing to offload. `None` when
/// no part is a `tool-result`: not an AI SDK message.
fn ai_sdk_results<V: JsonView>(
    parts: &V,
    at: At,
    name_bytes: usize,
    get: &Get<'_, V>,
) -> Result<Option<Vec<Found<V>>>, OffloadError> {
    let mut found = Vec::new();
    let mut any = false;
    for i in 0..parts.array_len() {
        let Some(part) = parts
            .try_item(i)
            .map_err(|reason| unreadable(at.path(&format!("content[{i}]")), &reason))?
        else {
            continue;
        };
        let path = |key: &str| at.path(&format!("content[{i}].{key}"));
        if !get(&part, "type", &|| path("type"))?.is_some_and(|t| t.is_str("tool-result")) {
            continue;
        }
        any = true;
        let output = get(&part, "output", &|| path("output"))?;
        let kind = match &output {
            Some(o) => get(o, "type", &|| path("output.type"))?,
            None => None,
        };
        let (form, is_json) = match kind {
            Some(k) if k.is_str("text") => (Form::Tagged("text"), false),
            Some(k) if k.is_str("error-text") => (Form::Tagged("error-text"), false),
            Some(k) if k.is_str("json") || k.is_str("content") => (Form::Tagged("text"), true),
            Some(k) if k.is_str("error-json") => (Form::Tagged("error-text"), true),
            Some(k) if k.is_str("execution-denied") => continue,
            _ => {
                return Err(OffloadError::InvalidMessage(format!(
                    "{} must be an AI SDK tool output {{ type: \"text\" | \"json\" | \"error-text\" | \"error-json\" | \"content\" | \"execution-denied\", value }}",
                    path("output")
                )))
            }
        };
        let value = match &output {
            Some(o) => get(o, "value", &|| path("output.value"))?,
            None => None,
        };
        let text = match (&value, is_json) {
            (Some(v), false) if v.kind() == Kind::String => v.text()?,
            (Some(v), true) => v.text()?,
            (None, true) => V::empty_text(),
            (other, _) => {
                return Err(OffloadError::InvalidMessage(format!(
                    "{} must be a string, got {}",
                    path("output.value"),
                    other.as_ref().map_or("undefined", |v| v.kind().described())
                )))
            }
        };
        let slot = Slot {
            block: Some(i),
            holder: None,
            field: "output",
            id: "toolCallId",
            form,
        };
        found.push(Found {
            slot,
            id_value: get(&part, "toolCallId", &|| path("toolCallId"))?,
            at,
            name_bytes,
            text,
            is_array: is_json,
            tool_name: get(&part, "toolName", &|| path("toolName"))?
                .and_then(|n| n.to_owned_string()),
            content: value,
        });
    }
    Ok(any.then_some(found))
}

/// Whether a `type: "constructor"` message is LangChain's serialised `ToolMessage`
/// (`lc: 1`, `id` ending in `"ToolMessage"`).
fn is_langchain_tool_message<V: JsonView>(
    message: &V,
    get: &Get<'_, V>,
    at: At,
) -> Result<bool, OffloadError> {
    let Some(id) = get(message, "id", &|| at.path("id"))? else {
        return Ok(false);
    };
    let last = id.array_len().checked_sub(1);
    Ok(last
        .and_then(|i| id.item(i))
        .is_some_and(|name| name.is_str("ToolMessage")))
}

/// The texts of an array whose every item is a text part `{ type: "text", text }`
/// (Anthropic text blocks, AI SDK text parts, MCP text content, LangChain text blocks),
/// joined with newlines, or the text of one such part alone: what the model reads in it. `None` for anything else, an empty
/// array included.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::joined_texts;
/// let parts = json!([{"type": "text", "text": "line 1"}, {"type": "text", "text": "line 2"}]);
/// assert_eq!(joined_texts(&&parts).as_deref(), Some("line 1\nline 2"));
/// let mixed = json!([{"type": "text", "text": "a"}, {"type": "image", "source": {}}]);
/// assert_eq!(joined_texts(&&mixed), None);
/// assert_eq!(joined_texts(&&json!([])), None);
/// // One text part alone, as the OpenAI Agents SDK writes a tool's output, is text too.
/// assert_eq!(joined_texts(&&json!({"type": "text", "text": "a\nb"})).as_deref(), Some("a\nb"));
/// assert_eq!(joined_texts(&&json!({"type": "image", "text": "a"})), None);
/// ```
pub fn joined_texts<V: JsonView>(content: &V) -> Option<String> {
    // One text part alone (an Agents SDK `function_call_result`'s `output`): its text.
    if content.kind() == Kind::Object && is_text_part(content) {
        return content.field("text")?.to_owned_string();
    }
    match text_parts(content)? {
        (joined, false) if content.array_len() > 0 => Some(joined),
        _ => None,
    }
}

/// The text parts of a content array, joined with newlines, and whether it also holds
/// other parts (images, files: objects of another `type`). `None` when an item is not
/// an object with a string `type` (then the array is plain JSON data).
/// Whether `part` is a text part `{ type: "text", … }`: the parts a summary replaces
/// (every other part of a [`Form::Parts`] content stays; `wasm/js/copy-with-edits.js`
/// applies the same rule to JS values).
pub(crate) fn is_text_part<V: JsonView>(part: &V) -> bool {
    part.field("type").is_some_and(|kind| kind.is_str("text"))
}

pub(crate) fn text_parts<V: JsonView>(content: &V) -> Option<(String, bool)> {
    if content.kind() != Kind::Array {
        return None;
    }
    let (mut joined, mut texts, mut others) = (String::new(), 0, false);
    for i in 0..content.array_len() {
        let part = content.item(i)?;
        let kind = part.field("type")?;
        if !kind.is_str("text") {
            kind.to_owned_string()?;
            others = true;
            continue;
        }
        if texts > 0 {
            joined.push('\n');
        }
        joined.push_str(&part.field("text")?.to_owned_string()?);
        texts += 1;
    }
    Some((joined, others))
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
/// apply_edits(&mut message, vec![(Slot::whole("content", "tool_call_id"), "[moved]".into())]);
/// assert_eq!(tool_offload_core::json::stringify(&message), r#"{"role":"tool","tool_call_id":"c1","content":"[moved]","name":"sql"}"#);
/// ```
pub fn apply_edits(message: &mut Value, edits: Vec<(Slot, String)>) {
    for (slot, text) in edits {
        let mut target = match slot.block {
            None => Some(&mut *message),
            Some(i) => message.get_mut("content").and_then(|c| c.get_mut(i)),
        };
        if let Some(holder) = slot.holder {
            target = target.and_then(|t| t.get_mut(holder));
        }
        if let Some(Value::Object(fields)) = target {
            let replacement = slot.form.value(text, fields.get(slot.field));
            // In place when the field is there (no key copied); appended when missing.
            match fields.get_mut(slot.field) {
                Some(value) => *value = replacement,
                None => {
                    fields.insert(slot.field.to_owned(), replacement);
                }
            }
        }
    }
}

/// A deep copy of `message` with `edits` applied, made without copying the content
/// being replaced (it may be megabytes).
pub(crate) fn with_contents(message: &Value, edits: Vec<(Slot, String)>) -> Value {
    // A replaced content is not copied (it may be megabytes), except where the parts
    // that are not text stay beside the summary.
    let replaced = |block: Option<usize>, holder: Option<&str>, field: &str| {
        edits.iter().any(|(s, _)| {
            s.block == block
                && s.holder == holder
                && s.field == field
                && !matches!(s.form, Form::Parts | Form::TaggedParts)
        })
    };
    let copy_block = |i: usize, block: &Value| match block {
        Value::Object(fields) if edits.iter().any(|(s, _)| s.block == Some(i)) => {
            Value::Object(copy_fields(fields, |key| replaced(Some(i), None, key)))
        }
        other => other.clone(),
    };
    let mut copy = match message {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, value)| {
                    let value = match (replaced(None, None, key), key.as_str(), value) {
                        (true, _, _) => Value::Null,
                        (false, "content", Value::Array(blocks)) => Value::Array(
                            blocks
                                .iter()
                                .enumerate()
                                .map(|(i, b)| copy_block(i, b))
                                .collect(),
                        ),
                        (false, _, Value::Object(inner))
                            if edits
                                .iter()
                                .any(|(s, _)| s.block.is_none() && s.holder == Some(key)) =>
                        {
                            Value::Object(copy_fields(inner, |f| replaced(None, Some(key), f)))
                        }
                        _ => value.clone(),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        other => other.clone(),
    };
    apply_edits(&mut copy, edits);
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
    value: Option<&V>,
    field: impl FnOnce() -> String,
    name_bytes: usize,
) -> Result<String, OffloadError> {
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
    content: Option<&V>,
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
