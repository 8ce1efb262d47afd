//! Errors as real JavaScript `Error` subclass instances with a stable `code`.

use tool_offload_core::object_key::ObjectKeyError;
use tool_offload_core::tools::RegisterError;
use tool_offload_core::{ErrorCode, OffloadError as CoreError};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/offload-error.js")]
extern "C" {
    #[wasm_bindgen(extends = js_sys::Error, js_name = OffloadError)]
    type JsOffloadErrorClass;

    #[wasm_bindgen(constructor, js_class = OffloadError)]
    fn new(message: &str, code: &str, options: &JsValue) -> JsOffloadErrorClass;

    #[wasm_bindgen(thread_local_v2, js_name = OffloadError)]
    static OFFLOAD_ERROR: JsValue;
}

/// The `OffloadError` class, so JS code can use `err instanceof OffloadError`.
#[wasm_bindgen(js_name = offloadErrorClass, unchecked_return_type = "OffloadErrorConstructor")]
pub fn offload_error_class() -> JsValue {
    OFFLOAD_ERROR.with(JsValue::clone)
}

/// An error on its way to JavaScript: message, stable code, and (for write and read
/// failures) the path and the JS value the writer threw.
pub(crate) struct JsOffloadError {
    message: String,
    code: &'static str,
    path: Option<String>,
    cause: Option<JsValue>,
}

impl JsOffloadError {
    pub(crate) fn with_cause(error: CoreError, cause: Option<JsValue>) -> Self {
        JsOffloadError {
            cause,
            ..error.into()
        }
    }

    /// The error, with `cause` when it has none yet.
    pub(crate) fn or_cause(mut self, cause: Option<JsValue>) -> Self {
        if self.cause.is_none() {
            self.cause = cause;
        }
        self
    }

    /// The message the JS error will carry.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }
}

impl JsOffloadError {
    /// `error`'s message with its code, and the path the JS error names, if any.
    fn coded(error: &impl std::fmt::Display, code: ErrorCode, path: Option<&String>) -> Self {
        JsOffloadError {
            message: error.to_string(),
            code: code.as_str(),
            path: path.cloned(),
            cause: None,
        }
    }
}

impl From<CoreError> for JsOffloadError {
    fn from(error: CoreError) -> Self {
        let path = match &error {
            CoreError::WriteFailed { path, .. } | CoreError::ReadFailed { path, .. } => Some(path),
            _ => None,
        };
        JsOffloadError::coded(&error, error.code(), path)
    }
}

impl From<RegisterError> for JsOffloadError {
    fn from(error: RegisterError) -> Self {
        JsOffloadError::coded(&error, error.code(), None)
    }
}

impl From<ObjectKeyError> for JsOffloadError {
    fn from(error: ObjectKeyError) -> Self {
        let path = match &error {
            ObjectKeyError::OutsidePrefix(path) => Some(path),
            _ => None,
        };
        JsOffloadError::coded(&error, error.code(), path)
    }
}

impl From<JsOffloadError> for JsValue {
    fn from(err: JsOffloadError) -> JsValue {
        let options = js_sys::Object::new();
        if let Some(cause) = &err.cause {
            set(&options, "cause", cause);
        }
        let js = JsOffloadErrorClass::new(&err.message, err.code, &options);
        if let Some(path) = &err.path {
            set(&js, "path", &JsValue::from_str(path));
        }
        js.into()
    }
}

pub(crate) fn set(target: &JsValue, key: &'static str, value: &JsValue) {
    // Setting a property on a fresh plain object or Error cannot fail.
    let _ = js_sys::Reflect::set(target, &crate::keys::key(key), value);
}

/// The message of a thrown JS value, whatever was thrown: an `Error`'s message, a
/// string as is, anything else as JavaScript's `String(value)` would render it. Never
/// throws: a throw escaping from inside a wasm future would leave every pending call
/// unsettled.
pub(crate) fn message_of(thrown: &JsValue) -> String {
    String::from(&message_js(thrown))
}

/// [`message_of`] as the JS string itself (which may hold lone surrogates).
pub(crate) fn message_js(thrown: &JsValue) -> js_sys::JsString {
    if let Some(err) = thrown.dyn_ref::<js_sys::Error>() {
        return err.message();
    }
    if let Some(s) = thrown.dyn_ref::<js_sys::JsString>() {
        return s.clone();
    }
    string_of(thrown)
}

/// JavaScript's `String(value)`, for any value. Never throws.
pub(crate) fn string_of(value: &JsValue) -> js_sys::JsString {
    let to_string = js_sys::Reflect::get(&js_sys::global(), &crate::keys::key("String"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    to_string
        .and_then(|f| f.call1(&JsValue::UNDEFINED, value).ok())
        .and_then(|s| s.dyn_into::<js_sys::JsString>().ok())
        .unwrap_or_else(|| "a value that cannot be converted to a string".into())
}

/// Every code an `OffloadError` can carry, in order: core's `ErrorCode::ALL`, the same
/// list the `ErrorCode` type of the `.d.ts` is generated from.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<JsValue> {
    ErrorCode::ALL
        .iter()
        .map(|code| JsValue::from_str(code.as_str()))
        .collect()
}
