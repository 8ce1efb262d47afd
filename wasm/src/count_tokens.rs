//! `options.countTokens`, a JS token counter, as core's [`TokenCounter`]: one reading of
//! it for the Materializer and the Workspace.

use js_sys::Function;
use tool_offload_core::{OffloadError, TokenCounter};
use wasm_bindgen::JsValue;

use crate::args::kind_of;
use crate::error::message_of;

/// `count(text)` for core: a non-negative integer, else `INVALID_ARGUMENT` (also for
/// whatever it throws), which fails the call that asked.
pub(crate) fn js_counter(count: &Function) -> Box<TokenCounter<'_>> {
    Box::new(move |text: &str| {
        let value = count
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(text))
            .map_err(|thrown| {
                OffloadError::InvalidArgument(format!(
                    "options.countTokens threw: {}",
                    message_of(&thrown)
                ))
            })?;
        value
            .as_f64()
            .and_then(tool_offload_core::safe_count)
            .map(|n| n as usize)
            .ok_or_else(|| {
                OffloadError::InvalidArgument(format!(
                    "options.countTokens must return a non-negative integer, got {}",
                    kind_of(&value)
                ))
            })
    })
}
