//! What the model read back, for JS: `readStats(messages)`, `unreadRefs(messages)`, and
//! the reminder `materializeMessages(messages, { remindUnread: true })` adds. The
//! conversation is the record (core's `audit::read_stats`): each call reads the messages
//! given as plain data.

use js_sys::{Array, Object};
use tool_offload_core::audit::{read_stats, reminder_edit, unread_refs, unread_reminder, Reminded};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::Materializer;
use crate::args::kind_of;
use crate::convert::{strings, to_js, to_value};
use crate::copy::Messages;
use crate::error::{set, JsOffloadError};
use crate::keys::field;

#[wasm_bindgen]
impl Materializer {
    /// Every result of `messages` shown by reference (a summary's `ctx://` ref, a budget
    /// pointer, an offload placeholder's file), in order: `{ ref, toolCallId, reads,
    /// errors }`, `reads` the later tool calls whose input names it. Throws
    /// `INVALID_ARGUMENT` when `messages` is not an array.
    #[wasm_bindgen(js_name = readStats, unchecked_return_type = "ShownRef[]")]
    pub fn read_stats_js(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
    ) -> Result<Array, JsValue> {
        let messages = Messages::of(&messages)?;
        Ok(read_stats(&messages.views)
            .iter()
            .map(|s| {
                let o = Object::new();
                set(&o, "ref", &JsValue::from_str(&s.reference));
                set(&o, "toolCallId", &JsValue::from_str(&s.call_id));
                set(&o, "reads", &JsValue::from_f64(s.reads as f64));
                set(&o, "errors", &JsValue::from_bool(s.errors));
                JsValue::from(o)
            })
            .collect())
    }

    /// The refs of `messages` no later tool call read, in the order they were shown.
    /// Throws `INVALID_ARGUMENT` when `messages` is not an array.
    #[wasm_bindgen(js_name = unreadRefs, unchecked_return_type = "string[]")]
    pub fn unread_refs_js(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
    ) -> Result<Array, JsValue> {
        Ok(strings(&unread_refs(&Messages::of(&messages)?.views)))
    }
}

/// Whether `options.remindUnread` is set (`true`; anything else but `undefined` or
/// `false` is refused).
pub(crate) fn remind_option(options: &JsValue) -> Result<bool, JsOffloadError> {
    if !options.is_object() {
        return Ok(false);
    }
    let given = field(options, "remindUnread");
    match given.as_bool() {
        Some(on) => Ok(on),
        None if given.is_undefined() => Ok(false),
        None => Err(OffloadError::InvalidArgument(format!(
            "remindUnread must be a boolean, got {}",
            kind_of(&given)
        ))
        .into()),
    }
}

/// `out` (the messages `materializeMessages` returns) with the unread reminder at the end
/// of the last user turn: the last message replaced by a copy with it, or a user message
/// added. Only the last message is copied into Rust.
pub(crate) fn remind(out: &Array) -> Result<(), JsOffloadError> {
    let Some(line) = unread_reminder(&Messages::of(out)?.views) else {
        return Ok(());
    };
    let count = out.length();
    let last = match count {
        0 => None,
        n => Some(to_value(&out.get(n - 1), "the last message")?),
    };
    match reminder_edit(last.as_ref(), &line) {
        Some(Reminded::Replace(message)) => out.set(count - 1, to_js(&message)),
        Some(Reminded::Push(message)) => {
            out.push(&to_js(&message));
        }
        None => {}
    }
    Ok(())
}
