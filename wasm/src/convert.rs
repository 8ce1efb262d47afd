//! Arguments from JavaScript.

use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::error::{message_of, JsOffloadError};

/// A string argument, or an error naming it.
pub(crate) fn string_arg(
    value: &JsValue,
    error: impl FnOnce(&str) -> OffloadError,
) -> Result<String, JsOffloadError> {
    value.as_string().ok_or_else(|| {
        let kind = value.js_typeof().as_string().unwrap_or_default();
        let kind = if value.is_null() {
            "null".to_owned()
        } else {
            kind
        };
        error(&kind).into()
    })
}

/// The working directory `output_dir` resolves against: `options.cwd`, else (only when
/// `output_dir` is relative) Node's `process.cwd()`, else `/` where there is no process
/// (browsers). A `process.cwd()` that throws (deleted directory) is an error, never a
/// silent fallback that would put files elsewhere.
pub(crate) fn working_dir(options: &JsValue, output_dir: &str) -> Result<String, JsOffloadError> {
    if !options.is_undefined() && !options.is_null() {
        let cwd = js_sys::Reflect::get(options, &"cwd".into()).unwrap_or(JsValue::UNDEFINED);
        if !cwd.is_undefined() {
            return string_arg(&cwd, |kind| {
                OffloadError::InvalidArgument(format!("options.cwd must be a string, got {kind}"))
            });
        }
    }
    if output_dir.starts_with('/') {
        return Ok("/".into());
    }
    let process =
        js_sys::Reflect::get(&js_sys::global(), &"process".into()).unwrap_or(JsValue::UNDEFINED);
    let cwd = if process.is_object() {
        js_sys::Reflect::get(&process, &"cwd".into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    };
    let Some(cwd) = cwd.dyn_ref::<js_sys::Function>() else {
        return Ok("/".into());
    };
    match cwd.call0(&process) {
        Ok(dir) => dir.as_string().ok_or_else(|| {
            OffloadError::InvalidArgument("process.cwd() did not return a string".into()).into()
        }),
        Err(thrown) => Err(JsOffloadError::with_cause(
            OffloadError::InvalidArgument(format!(
                "cannot read the working directory: {}",
                message_of(&thrown)
            )),
            Some(thrown),
        )),
    }
}
