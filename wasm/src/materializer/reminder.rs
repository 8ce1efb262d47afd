//! The unread reminder `materializeMessages` adds when `remindUnread` is set: a line at
//! the end of the last user turn naming the outputs shown in part and not read back.

use js_sys::Array;
use tool_offload_core::audit::{reminder_edit, unread_reminder, Reminded};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::convert::{to_js, to_value};
use crate::copy::Messages;
use crate::error::JsOffloadError;
use crate::keys::field;

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
