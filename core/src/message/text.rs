//! The text a model reads in a content of text parts.

use crate::json::view::{JsonView, Kind};

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
/// (every other part of a [`Form::Parts`](super::slot::Form::Parts) content stays; `wasm/js/copy-with-edits.js`
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

/// How a tool output value is stored and measured: a string as is, an array of text
/// parts as the texts it holds ([`joined_texts`]), any other value as its
/// `JSON.stringify`; and whether it counts as a JSON value (a `.json` artifact).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::output_text;
/// assert_eq!(output_text(&json!("log")), ("log".into(), false));
/// assert_eq!(output_text(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])), ("a\nb".into(), false));
/// assert_eq!(output_text(&json!({"rows": 2})), (r#"{"rows":2}"#.into(), true));
/// ```
pub fn output_text(output: &serde_json::Value) -> (std::borrow::Cow<'_, str>, bool) {
    use std::borrow::Cow;
    match output {
        serde_json::Value::String(s) => (Cow::Borrowed(s.as_str()), false),
        other => match joined_texts(&other) {
            Some(joined) => (Cow::Owned(joined), false),
            None => (Cow::Owned(crate::json::stringify(other)), true),
        },
    }
}
