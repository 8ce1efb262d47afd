//! What the model read back, for JS: `readStats(messages)`, `unreadRefs(messages)`, and
//! the reminder `materializeMessages(messages, { remindUnread: true })` adds. The
//! conversation is the record (core's `audit::read_stats`): each call reads the messages
//! given as plain data.

use js_sys::{Array, Object};
use tool_offload_core::audit::{read_stats, unread_refs};
use wasm_bindgen::prelude::*;

use super::class::Materializer;
use crate::convert::strings;
use crate::copy::Messages;
use crate::error::set;

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
