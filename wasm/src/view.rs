//! JavaScript values as a core [`JsonView`]: messages are read where they live, and a
//! content string never crosses into wasm — its length is JavaScript's own `.length`
//! and the writer receives the original string.

use std::cell::RefCell;

use js_sys::{Array, JsString, Reflect};
use tool_offload_core::view::{JsonView, Kind, Text};
use tool_offload_core::{is_placeholder, OffloadError, MAX_PLACEHOLDER_CHARS};
use wasm_bindgen::prelude::*;

use crate::error::message_of;

#[wasm_bindgen(module = "/js/copy-with-edits.js")]
extern "C" {
    /// Whether `s` has no lone UTF-16 surrogate.
    #[wasm_bindgen(js_name = isWellFormed)]
    fn is_well_formed(s: &JsString) -> bool;
}

/// Whether `value` is a string holding a lone UTF-16 surrogate: what ids are checked
/// for before they become Rust Strings (which would hold U+FFFD instead).
pub(crate) fn has_lone_surrogate(value: &JsValue) -> bool {
    value
        .dyn_ref::<JsString>()
        .is_some_and(|s| !is_well_formed(s))
}

thread_local! {
    /// What the last failed JS call (`JSON.stringify` of content) threw, so the error
    /// surfaced to JS can carry it as `cause`. Set and taken within one synchronous
    /// step, so concurrent calls cannot see each other's.
    static LAST_THROWN: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Keep what a JS read threw (the error's `cause`) and say what it was.
fn thrown(value: JsValue) -> String {
    let message = message_of(&value);
    LAST_THROWN.with(|t| *t.borrow_mut() = Some(value));
    message
}

/// Take what the last failed JS call threw, if anything.
pub(crate) fn take_thrown() -> Option<JsValue> {
    LAST_THROWN.with(|t| t.borrow_mut().take())
}

/// A JS string `key`, created once and reused (wasm-bindgen interning).
fn key(name: &'static str) -> JsValue {
    JsValue::from_str(wasm_bindgen::intern(name))
}

/// A JavaScript value seen through the core's eyes.
#[derive(Clone, Debug)]
pub(crate) struct JsView(pub JsValue);

/// Content to write: a JS string and its length.
#[derive(Debug)]
pub(crate) struct JsText {
    text: JsString,
    len: usize,
}

impl JsText {
    fn new(text: JsString) -> Self {
        let len = text.length() as usize;
        JsText { text, len }
    }
}

impl Text for JsText {
    type Data = JsString;
    fn data(&self) -> &JsString {
        &self.text
    }
    fn utf16_len(&self) -> usize {
        self.len
    }

    fn to_str(&self) -> std::borrow::Cow<'_, str> {
        // wasm-bindgen converts with the engine's TextEncoder: lone surrogates become
        // U+FFFD, the very bytes Node's fs writes for the JS string.
        std::borrow::Cow::Owned(crate::convert::js_text(&self.text))
    }

    fn is_placeholder(&self) -> bool {
        // Only short strings can be placeholders, so only those are copied to check.
        self.len <= MAX_PLACEHOLDER_CHARS
            && self.text.as_string().is_some_and(|s| is_placeholder(&s))
    }
}

impl JsonView for JsView {
    type Text = JsText;

    fn kind(&self) -> Kind {
        let v = &self.0;
        if v.is_string() {
            Kind::String
        } else if Array::is_array(v) {
            Kind::Array
        } else if v.is_object() {
            Kind::Object
        } else if v.as_bool().is_some() {
            Kind::Bool
        } else if v.as_f64().is_some() || v.is_bigint() {
            Kind::Number
        } else if v.is_null() {
            Kind::Null
        } else {
            Kind::Undefined
        }
    }

    fn field(&self, name: &'static str) -> Option<Self> {
        self.try_field(name).ok().flatten()
    }

    fn try_field(&self, name: &'static str) -> Result<Option<Self>, String> {
        if !self.0.is_object() {
            return Ok(None);
        }
        let value = Reflect::get(&self.0, &key(name)).map_err(thrown)?;
        // JSON.stringify omits these properties, so they are absent.
        let omitted = value.is_undefined() || value.is_function() || value.is_symbol();
        Ok((!omitted).then_some(JsView(value)))
    }

    fn array_len(&self) -> usize {
        self.0.dyn_ref::<Array>().map_or(0, |a| a.length() as usize)
    }

    fn item(&self, index: usize) -> Option<Self> {
        self.try_item(index).ok().flatten()
    }

    fn try_item(&self, index: usize) -> Result<Option<Self>, String> {
        let (Some(_), Ok(index)) = (self.0.dyn_ref::<Array>(), u32::try_from(index)) else {
            return Ok(None);
        };
        // Through Reflect, so a Proxy's throwing trap is an error, not an exception
        // unwinding through wasm.
        let value = Reflect::get_u32(&self.0, index).map_err(thrown)?;
        Ok(Some(JsView(value)))
    }

    fn is_str(&self, expected: &'static str) -> bool {
        self.0.is_string() && self.0 == key(expected)
    }

    fn to_owned_string(&self) -> Option<String> {
        self.0.as_string()
    }

    fn has_lone_surrogate(&self) -> bool {
        has_lone_surrogate(&self.0)
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.as_f64()
    }

    fn as_bool(&self) -> Option<bool> {
        self.0.as_bool()
    }

    fn text(&self) -> Result<JsText, OffloadError> {
        if let Some(s) = self.0.dyn_ref::<JsString>() {
            return Ok(JsText::new(s.clone()));
        }
        match js_sys::JSON::stringify(&self.0) {
            Ok(text) => Ok(JsText::new(text)),
            Err(thrown) => {
                let reason = format!(
                    "tool result content cannot be serialised as JSON: {}",
                    message_of(&thrown)
                );
                LAST_THROWN.with(|t| *t.borrow_mut() = Some(thrown));
                Err(OffloadError::InvalidMessage(reason))
            }
        }
    }

    fn empty_text() -> JsText {
        JsText {
            text: JsString::from(""),
            len: 0,
        }
    }
}
