//! Conversations offloaded or materialized by us: every result replaced by a placeholder
//! or a summary naming a ref, and whether a later tool call named it.

use super::text::short;
use super::{Item, Session};
use crate::replay::{content_text, results_in, said, tool_call_values, turns};
use crate::{is_placeholder, stored_form, StoredForm, Value};

/// Audits a message array: results whose content is an offload placeholder
/// (`[Content offloaded to: ./tool-result-<id>.md]`) or a summary naming a `ctx://` ref,
/// read when a later tool call's input names the file or the ref (`context_read`,
/// `context_grep`, a shell `cat`). `chars` is the length of what was shown (the full
/// output is in the artifact).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::ours;
/// let messages = [
///     json!({"role": "user", "content": "go"}),
///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "sh", "input": {}}]}),
///     json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
///            "content": "[bash output: 2,048 lines; stored as ctx://c1/tool/t1.txt]"}]}),
///     json!({"role": "assistant", "content": "All good."}),
/// ];
/// let session = ours(&messages);
/// assert_eq!((session.partial(), session.unread()), (1, 1));
/// assert_eq!(session.items[0].first_text_after.as_deref(), Some("All good."));
/// ```
pub fn ours(messages: &[Value]) -> Session {
    let starts = turns(messages);
    let mut items = Vec::new();
    for (at, content) in results_in(messages) {
        let text = content_text(content);
        let Some(name) = pointer(&text) else {
            continue;
        };
        let mut item = Item {
            call_id: id_of(&messages[at.message], at.slot.block, at.slot.id),
            tool: String::new(),
            chars: crate::utf16_len(&text),
            read: false,
            turns_until_read: None,
            first_text_after: None,
        };
        for (i, message) in messages.iter().enumerate().skip(at.message + 1) {
            if item.first_text_after.is_none() && starts.contains(&i) {
                item.first_text_after = short(&said(message));
            }
            if !item.read
                && tool_call_values(message)
                    .iter()
                    .any(|v| crate::search::contains(v, name))
            {
                item.read = true;
                item.turns_until_read =
                    Some(starts.iter().filter(|&&s| s > at.message && s <= i).count());
            }
        }
        items.push(item);
    }
    Session { items }
}

/// What a later call would name to read the result: the file of a placeholder, or the
/// first `ctx://` ref of a summary. A page the read tools returned is a read, not an
/// output shown in part: none.
pub(super) fn pointer(text: &str) -> Option<&str> {
    if stored_form(text) == Some(StoredForm::ReadBackPage) {
        return None;
    }
    if is_placeholder(text) {
        // `[… ./tool-result-<id>.md]` or `[… /dir/<session>/<id>.md]`: the file's name.
        let path = &text[..text.len() - 1];
        let start = path.bytes().rposition(|b| b == b'/' || b == b' ');
        return Some(&path[start.map_or(0, |i| i + 1)..]);
    }
    let at = crate::search::find(text, "ctx://")?;
    let end = text.as_bytes()[at..]
        .iter()
        .position(|b| b.is_ascii_whitespace() || b"\"'`)]>,;".contains(b))
        .map_or(text.len(), |n| at + n);
    // Sentence punctuation after a ref is not part of it (`….txt.`, the budget's
    // `stored as ctx://….txt: context_read`).
    let trailing = text.as_bytes()[at..end]
        .iter()
        .rev()
        .take_while(|&&b| b == b'.' || b == b':')
        .count();
    Some(&text[at..end - trailing])
}

/// The tool-call id of the result: in its block (`tool_use_id`), or in the message
/// (`tool_call_id`, `call_id`).
fn id_of(message: &Value, block: Option<usize>, key: &str) -> String {
    let holder = match block {
        Some(i) => message.get("content").and_then(|c| c.get(i)),
        None => Some(message),
    };
    holder
        .and_then(|h| h.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

#[cfg(test)]
#[path = "ours_tests.rs"]
mod tests;
