//! The shapes of the frameworks whose tool results are not one field of a message: the
//! AI SDK's parts, LangChain's serialised `ToolMessage`, and unknown result types.

use super::found::{At, Found};
use super::slot::{Form, Slot};
use crate::error::OffloadError;
use crate::json::view::{JsonView, Kind};

/// Whether a `type` we do not know names a tool's result or output
/// (`mcp_tool_result`, `web_search_tool_result`, `computer_call_output`,
/// `custom_tool_call_output`…): such an item is reported, never silently skipped.
pub(super) fn looks_like_result<V: JsonView>(kind: &V) -> bool {
    kind.ends_with_any(&["_result", "-result", "_output", "-output"])
}

/// A field reader that turns a throwing getter into an error naming its path.
pub(super) type Get<'a, V> =
    dyn Fn(&V, &'static str, &dyn Fn() -> String) -> Result<Option<V>, OffloadError> + 'a;

/// Every AI SDK `tool-result` part of a tool message, its output read by the output's
/// own `type`: a text as is, JSON values and content parts as their `JSON.stringify`.
/// An `execution-denied` output (the tool never ran) has nothing to offload. `None` when
/// no part is a `tool-result`: not an AI SDK message.
pub(super) fn ai_sdk_results<V: JsonView>(
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
pub(super) fn is_langchain_tool_message<V: JsonView>(
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

/// `INVALID_MESSAGE` for a value at `path` that could not be read at all.
pub(crate) fn unreadable(path: String, reason: &str) -> OffloadError {
    OffloadError::InvalidMessage(format!("{path} cannot be read: {reason}"))
}
