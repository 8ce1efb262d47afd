//! The plain head+tail cut many agents use, as a policy to compare with: no artifact, a
//! result over 10,240 characters becomes its first 5,120, a line saying how many were
//! cut, and its last 5,120.

use super::messages::content_text;
use crate::message::apply_edits;
use crate::message::{text_parts, tool_results, At};
use serde_json::Value;

/// Results longer than this many UTF-16 code units are cut.
pub const HEAD_TAIL_OVER: usize = 10_240;
/// Code units kept at each end.
pub const HEAD_TAIL_KEEP: usize = 5_120;

/// `message` with every tool result over [`HEAD_TAIL_OVER`] characters cut to its head and
/// tail (other parts of its content, images, kept beside the text), or `None` when none
/// is that long.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::replay::head_tail;
/// let long = "x".repeat(10_241);
/// let message = json!({"role": "tool", "tool_call_id": "c1", "content": long});
/// let cut = head_tail(&message).unwrap();
/// let text = cut["content"].as_str().unwrap();
/// assert!(text.contains("\n…[1 characters cut]…\n"));
/// assert_eq!(text.len(), 10_240 + "\n…[1 characters cut]…\n".len());
/// assert!(head_tail(&json!({"role": "tool", "tool_call_id": "c1", "content": "short"})).is_none());
/// ```
pub fn head_tail(message: &Value) -> Option<Value> {
    let mut edits = Vec::new();
    for found in tool_results(&message, At::Alone, 0, &mut Vec::new()).ok()? {
        let text = content_text(found.content);
        if crate::text::utf16_len(&text) <= HEAD_TAIL_OVER {
            continue;
        }
        let mut slot = found.slot;
        if let Some((_, true)) = found.content.and_then(|c| text_parts(&c)) {
            slot.form = slot.form.keeping_parts();
        }
        edits.push((slot, cut(&text)));
    }
    if edits.is_empty() {
        return None;
    }
    let mut cut = message.clone();
    apply_edits(&mut cut, edits);
    Some(cut)
}

/// `text`'s first and last [`HEAD_TAIL_KEEP`] code units around `\n…[N characters cut]…\n`
/// (a character outside the BMP astride a cut goes with the part cut).
fn cut(text: &str) -> String {
    let units = crate::text::utf16_len(text);
    let head = byte_at_unit(text, HEAD_TAIL_KEEP);
    let tail = byte_at_unit(text, units - HEAD_TAIL_KEEP);
    // A pair whose low half would start the tail: the tail starts after it.
    let astride = unit_offset(text, tail) < units - HEAD_TAIL_KEEP;
    let tail = tail
        + text[tail..]
            .chars()
            .next()
            .filter(|_| astride)
            .map_or(0, char::len_utf8);
    let n = units - 2 * HEAD_TAIL_KEEP;
    format!(
        "{}\n…[{n} characters cut]…\n{}",
        &text[..head],
        &text[tail..]
    )
}

/// The byte offset of the character holding code unit `unit` (the end when none does).
fn byte_at_unit(text: &str, unit: usize) -> usize {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        if units + c.len_utf16() > unit {
            return at;
        }
        units += c.len_utf16();
    }
    text.len()
}

fn unit_offset(text: &str, byte: usize) -> usize {
    crate::text::utf16_len(&text[..byte])
}
