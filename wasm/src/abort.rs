//! `options.signal`: cancelling a long operation (batch offload, `materializeMessages`,
//! export, import) with an `AbortSignal`. Every wait on the writer or reader is raced
//! against the signal, so even a writer that never settles cannot hang the call; the
//! call then rejects with `ABORTED` (its `cause` the signal's reason) and reports
//! nothing as done.

use js_sys::{Function, Promise, Reflect};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::error::JsOffloadError;

#[wasm_bindgen(module = "/js/promises.js")]
extern "C" {
    #[wasm_bindgen(js_name = watchAbort)]
    fn watch_abort(signal: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = isAbortSignal)]
    fn is_abort_signal(value: &JsValue) -> bool;
}

/// A watched `AbortSignal`; the listener is removed when this is dropped.
pub(crate) struct Abort {
    signal: JsValue,
    promise: Promise,
    dispose: Function,
}

impl Abort {
    /// The `{ signal? }` of a call's `options`, which must be an object when given.
    pub(crate) fn of_call(options: &JsValue) -> Result<Option<Abort>, JsOffloadError> {
        crate::args::options_arg(options)?;
        Abort::from_options(options)
    }

    /// `options.signal` when given: `INVALID_ARGUMENT` for anything but an
    /// `AbortSignal`, `ABORTED` when it has already fired (so nothing starts).
    pub(crate) fn from_options(options: &JsValue) -> Result<Option<Abort>, JsOffloadError> {
        if !options.is_object() {
            return Ok(None);
        }
        let signal =
            Reflect::get(options, &crate::keys::key("signal")).unwrap_or(JsValue::UNDEFINED);
        if signal.is_undefined() || signal.is_null() {
            return Ok(None);
        }
        if !is_abort_signal(&signal) {
            return Err(OffloadError::InvalidArgument(format!(
                "options.signal must be an AbortSignal, got {}",
                kind_of(&signal)
            ))
            .into());
        }
        let watch = watch_abort(&signal);
        let get = |name: &'static str| crate::keys::field(&watch, name);
        let abort = Abort {
            promise: get("promise").unchecked_into(),
            dispose: get("dispose").unchecked_into(),
            signal,
        };
        abort.check()?;
        Ok(Some(abort))
    }

    /// The promise that rejects when the signal fires, to race IO against.
    pub(crate) fn promise(&self) -> &Promise {
        &self.promise
    }

    /// Whether the signal has fired.
    pub(crate) fn aborted(&self) -> bool {
        Reflect::get(&self.signal, &crate::keys::key("aborted"))
            .ok()
            .and_then(|a| a.as_bool())
            .unwrap_or(false)
    }

    /// `ABORTED`, with the signal's reason as `cause`, once the signal has fired.
    pub(crate) fn check(&self) -> Result<(), JsOffloadError> {
        if self.aborted() {
            let reason = Reflect::get(&self.signal, &crate::keys::key("reason")).ok();
            return Err(JsOffloadError::with_cause(OffloadError::Aborted, reason));
        }
        Ok(())
    }
}

impl Drop for Abort {
    fn drop(&mut self) {
        let _ = self.dispose.call0(&JsValue::UNDEFINED);
    }
}

/// `ABORTED` when the call has a signal and it has fired: checked last, so a call
/// aborted while its final write completed reports nothing as done either.
pub(crate) fn check(abort: Option<&Abort>) -> Result<(), JsOffloadError> {
    abort.map_or(Ok(()), Abort::check)
}

/// `error`, unless the call was aborted: then `ABORTED` (a writer that failed because
/// the race was lost is not the writer's failure).
pub(crate) fn unless_aborted(abort: Option<&Abort>, error: JsOffloadError) -> JsOffloadError {
    match abort.map(Abort::check) {
        Some(Err(aborted)) => aborted,
        _ => error,
    }
}
