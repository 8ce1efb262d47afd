//! Replacing a tool result's content, in place or in a copy.

use super::slot::{Form, Slot};
use serde_json::{Map, Value};

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
pub(super) fn copy_fields(
    fields: &Map<String, Value>,
    replaced: impl Fn(&str) -> bool,
) -> Map<String, Value> {
    fields
        .iter()
        .map(|(k, v)| (k.clone(), if replaced(k) { Value::Null } else { v.clone() }))
        .collect()
}
