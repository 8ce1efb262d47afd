//! Where the tool results of a message are, and their ids and contents read and
//! checked.

use super::found::{slot_path, At, Found};
use super::result_shapes::{AGENTS, ANTHROPIC_BLOCK, CHAT, LANGCHAIN, RESPONSES};
use super::shapes::{ai_sdk_results, is_langchain_tool_message, looks_like_result, unreadable};
use super::slot::Slot;
use crate::error::OffloadError;
use crate::json::view::{JsonView, Kind};
use crate::path::unsafe_component;

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
            Some(c) if c.kind() == Kind::Object && slot.id == AGENTS.id => {
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
    if get(message, CHAT.tag, &|| at.path(CHAT.tag))?.is_some_and(|r| r.is_str(CHAT.value)) {
        // The AI SDK's tool message holds result parts; OpenAI Chat's holds the content.
        let content = content()?;
        if let Some(parts) = content.as_ref().filter(|c| c.kind() == Kind::Array) {
            if let Some(found) = ai_sdk_results(parts, at, name_bytes, &get)? {
                return Ok(found);
            }
        }
        let slot = Slot::whole(CHAT.content, CHAT.id);
        return Ok(vec![one_read(message, slot, CHAT.name, Some(content))?]);
    }
    let kind = get(message, RESPONSES.tag, &|| at.path(RESPONSES.tag))?;
    let is = |value: &'static str| kind.as_ref().is_some_and(|t| t.is_str(value));
    // The shapes after CHAT are told apart by the one `type` read above.
    for shape in [RESPONSES, AGENTS] {
        if is(shape.value) {
            let slot = Slot::whole(shape.content, shape.id);
            return Ok(vec![one(message, slot, shape.name)?]);
        }
    }
    if is(LANGCHAIN.value) {
        if get(message, "data", &|| at.path("data"))?.is_some_and(|d| d.kind() == Kind::Object) {
            return nested("data", LANGCHAIN.id);
        }
        let slot = Slot::whole(LANGCHAIN.content, LANGCHAIN.id);
        return Ok(vec![one(message, slot, LANGCHAIN.name)?]);
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
        let block_type = get(&block, ANTHROPIC_BLOCK.tag, &|| {
            in_block(ANTHROPIC_BLOCK.tag)
        })?;
        if !block_type
            .as_ref()
            .is_some_and(|t| t.is_str(ANTHROPIC_BLOCK.value))
        {
            if block_type.as_ref().is_some_and(looks_like_result) {
                unrecognized.push(block_path());
            }
            continue;
        }
        let slot = Slot {
            block: Some(i),
            ..Slot::whole(ANTHROPIC_BLOCK.content, ANTHROPIC_BLOCK.id)
        };
        found.push(one(&block, slot, ANTHROPIC_BLOCK.name)?);
    }
    Ok(found)
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

pub(super) fn content_text<V: JsonView>(
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
