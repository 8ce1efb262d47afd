//! A tool output or a knowledge content as the text that is written: shared by the
//! Materializer's `materialize` and the Workspace's `offloadToolResult` and `add`.

use js_sys::JsString;
use tool_offload_core::{joined_texts, OffloadError};
use wasm_bindgen::{JsCast, JsValue};

use crate::args::kind_of;
use crate::error::{message_of, JsOffloadError};
use crate::view::JsView;

/// The text of a given value: a string as is; with `join_text_parts`, a list of text
/// parts as the text they hold; any other value as its `JSON.stringify`.
pub(crate) struct OutputText {
    /// The text as the JS string it was read from, which is what gets written.
    pub(crate) js: JsString,
    /// `js` in UTF-8 (lone surrogates as U+FFFD, as Node's `fs` writes them).
    pub(crate) text: String,
    /// Whether the value was neither a string nor text parts (it was serialised).
    pub(crate) was_value: bool,
}

impl OutputText {
    /// `INVALID_ARGUMENT` when the value cannot be serialised (see [`stringify`]).
    pub(crate) fn of(value: &JsValue, join_text_parts: bool) -> Result<Self, JsOffloadError> {
        let joined = || joined_texts(&JsView::new(value.clone())).map(JsString::from);
        let (js, was_value) = match value.dyn_ref::<JsString>() {
            Some(s) => (s.clone(), false),
            None => match join_text_parts.then(joined).flatten() {
                Some(joined) => (joined, false),
                None => (stringify(value)?, true),
            },
        };
        let text = crate::convert::js_text(&js);
        Ok(OutputText {
            js,
            text,
            was_value,
        })
    }
}

/// `JSON.stringify(value)` by the engine, or `INVALID_ARGUMENT` when it throws or
/// gives nothing (`undefined`, a function, a symbol).
pub(crate) fn stringify(value: &JsValue) -> Result<JsString, JsOffloadError> {
    match js_sys::JSON::stringify(value).map(JsValue::from) {
        Ok(text) => text.dyn_into::<JsString>().map_err(|_| {
            OffloadError::InvalidArgument(format!(
                "output must be a string or a JSON value, got {}",
                kind_of(value)
            ))
            .into()
        }),
        Err(thrown) => Err(JsOffloadError::with_cause(
            OffloadError::InvalidArgument(format!(
                "output cannot be serialised as JSON: {}",
                message_of(&thrown)
            )),
            Some(thrown),
        )),
    }
}
