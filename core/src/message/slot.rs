//! Where a tool result lives in a message (a slot) and what replaces it there (a form).

use super::text::is_text_part;
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
