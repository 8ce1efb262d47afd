//! The host side of core's edits: a JSON-semantics deep copy of a message with each
//! offloaded content replaced by its placeholder.

use js_sys::Array;
use tool_offload_core::{OffloadError, Slot};
use wasm_bindgen::prelude::*;

use crate::error::{message_of, JsOffloadError};

#[wasm_bindgen(module = "/js/copy-with-edits.js")]
extern "C" {
    #[wasm_bindgen(js_name = copyWithEdits, catch)]
    fn copy_with_edits_js(
        message: &JsValue,
        blocks: &[i32],
        fields: &Array,
        texts: &Array,
    ) -> Result<JsValue, JsValue>;
}

/// A deep copy of `message` with `edits` applied. Fails (before anything is written,
/// as callers order it) when the message cannot be serialised: a BigInt, a cycle, a
/// throwing `toJSON`.
pub(crate) fn copy_with_edits(
    message: &JsValue,
    edits: &[(Slot, String)],
) -> Result<JsValue, JsOffloadError> {
    let blocks: Vec<i32> = edits
        .iter()
        .map(|(s, _)| s.block.map_or(-1, |b| b as i32))
        .collect();
    let fields: Array = edits
        .iter()
        .map(|(s, _)| JsValue::from_str(wasm_bindgen::intern(s.field)))
        .collect();
    let texts: Array = edits.iter().map(|(_, t)| JsValue::from_str(t)).collect();
    copy_with_edits_js(message, &blocks, &fields, &texts).map_err(|thrown| {
        let reason = format!(
            "message cannot be serialised as JSON: {}",
            message_of(&thrown)
        );
        JsOffloadError::with_cause(OffloadError::InvalidMessage(reason), Some(thrown))
    })
}
