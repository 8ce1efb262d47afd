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

use crate::error::OffloadError;
use crate::json::view::{JsonView, Kind, Text};
use crate::path::{unsafe_component, LONE_SURROGATE};
use serde_json::{Map, Value};

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

mod edit;
mod find;
mod result_shapes;
mod shapes;
mod text;

pub use edit::apply_edits;
pub(crate) use edit::with_contents;
use find::unreadable;
pub(crate) use find::{check_session_id, id_path, tool_results, At, Found};
pub use result_shapes::{ResultShape, RESULT_SHAPES};
use shapes::{ai_sdk_results, is_langchain_tool_message, looks_like_result};
pub use text::joined_texts;
pub(crate) use text::{is_text_part, text_parts};
