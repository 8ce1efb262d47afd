//! What the audits share: the strings of a tool call's input, and a short first text.

use serde_json::Value;

/// Every string in `value` (a tool call's input), depth first.
pub(super) fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// `text` trimmed and cut to 200 characters (an ellipsis when cut), or `None` when blank.
pub(super) fn short(text: &str) -> Option<String> {
    let text = crate::text::js_trim(text);
    if text.is_empty() {
        return None;
    }
    let mut out: String = text.chars().take(200).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    Some(out)
}

/// The UTF-16 length of a tool result's content: a string, or its text parts joined with
/// newlines.
pub(super) fn content_chars(content: Option<&Value>) -> usize {
    crate::text::utf16_len(&crate::replay::content_text(content))
}
