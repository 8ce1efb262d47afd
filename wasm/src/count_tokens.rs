//! `options.countTokens`, a JS token counter, as core's [`TokenCounter`]: one reading of
//! it for the Materializer, the Workspace and `budget`. What it throws is kept for the
//! call that asked, so the `OffloadError` that call rejects with carries it as `cause`.

use std::cell::RefCell;

use js_sys::Function;
use tool_offload_core::{OffloadError, TokenCounter};
use wasm_bindgen::JsValue;

use crate::error::{message_of, JsOffloadError};

/// A JS counter for one call: what it threw last stays here, never shared with another
/// call running at the same time.
pub(crate) struct JsCounter<'f> {
    count: &'f Function,
    thrown: RefCell<Option<JsValue>>,
}

impl<'f> JsCounter<'f> {
    pub(crate) fn new(count: &'f Function) -> Self {
        JsCounter {
            count,
            thrown: RefCell::new(None),
        }
    }

    /// `count(text)`: a non-negative integer, else `INVALID_ARGUMENT` naming the counter
    /// and what it returned (or threw, which is kept as the cause).
    pub(crate) fn count(&self, text: &str) -> Result<usize, OffloadError> {
        let value = self
            .count
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(text))
            .map_err(|thrown| {
                let message = message_of(&thrown);
                self.thrown.replace(Some(thrown));
                OffloadError::InvalidArgument(format!("options.countTokens threw: {message}"))
            })?;
        value
            .as_f64()
            .and_then(tool_offload_core::safe_count)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                OffloadError::InvalidArgument(format!(
                    "options.countTokens must return a non-negative integer, got {}",
                    message_of(&value)
                ))
            })
    }

    /// The counter as core takes it.
    pub(crate) fn boxed(&self) -> Box<TokenCounter<'_>> {
        Box::new(move |text: &str| self.count(text))
    }

    /// `error`, with what the counter threw as its cause when it has none.
    pub(crate) fn caused(&self, error: JsOffloadError) -> JsOffloadError {
        error.or_cause(self.thrown.take())
    }
}

/// `error` with the cause `counter` kept, if a counter was used.
pub(crate) fn caused(counter: Option<&JsCounter<'_>>, error: JsOffloadError) -> JsOffloadError {
    match counter {
        Some(counter) => counter.caused(error),
        None => error,
    }
}
