//! Conversations offloaded or materialized by us: every result replaced by a placeholder
//! or a summary naming a ref, and whether a later tool call named it.

use super::session::{Item, Session};
use super::shown::shown_in_part;
use super::text::short;
use crate::replay::{content_text, results_in, said, tool_call_values, tool_names, turns};
use serde_json::Value;

/// Audits a message array: results our writers replaced, for that call, by an offload
/// placeholder (`[Content offloaded to: ./tool-result-<id>.md]`), a summary or the
/// budget's pointer naming a `ctx://` ref, read when a later tool call's input names the
/// file or the ref (`context_read`, `context_grep`, a shell `cat`). `tool` is the tool of
/// the call (the form's when no call names it); `chars` the whole output's length as the
/// summary or pointer gives it (a placeholder's own length: it does not say).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::audit::ours;
/// let messages = [
///     json!({"role": "user", "content": "go"}),
///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "sh", "input": {}}]}),
///     json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
///            "content": "[Output of bash (call t1) stored as ctx://c1/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9,000 bytes, 9,000 characters, 300 lines. JSON: no."}]}),
///     json!({"role": "assistant", "content": "All good."}),
/// ];
/// let session = ours(&messages);
/// assert_eq!((session.partial(), session.unread()), (1, 1));
/// assert_eq!(session.items[0].first_text_after.as_deref(), Some("All good."));
/// assert_eq!((session.items[0].tool.as_str(), session.items[0].chars), ("sh", 9_000));
/// ```
pub fn ours(messages: &[Value]) -> Session {
    let starts = turns(messages);
    let names = tool_names(messages);
    let mut items = Vec::new();
    for (at, content) in results_in(messages) {
        let text = content_text(content);
        let call_id = id_of(&messages[at.message], at.slot.block, at.slot.id);
        let Some(shown) = shown_in_part(&text, &call_id) else {
            continue;
        };
        let name = shown.reference;
        let mut item = Item {
            tool: names
                .get(&call_id)
                .map(String::as_str)
                .or(shown.tool)
                .unwrap_or_default()
                .to_owned(),
            call_id,
            chars: shown.chars.unwrap_or_else(|| crate::text::utf16_len(&text)),
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
