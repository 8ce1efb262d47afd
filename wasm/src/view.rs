//! JavaScript values as a core [`JsonView`]: messages are read where they live, and a
//! content string never crosses into wasm — its length is JavaScript's own `.length`
//! and the writer receives the original string.

use std::cell::RefCell;

use js_sys::{Array, JsString};
use tool_offload_core::view::{JsonView, Kind, Text};
use tool_offload_core::{is_placeholder, stored_form_of_ends, OffloadError, StoredForm};
use tool_offload_core::{HEAD_CHARS, MAX_PLACEHOLDER_CHARS, TAIL_CHARS};
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

#[wasm_bindgen(module = "/js/view.js")]
extern "C" {
    #[wasm_bindgen(js_name = kindOf)]
    fn kind_of(value: &JsValue) -> u8;
    #[wasm_bindgen(js_name = viewField)]
    fn view_field(object: &JsValue, name: i32, named: Option<&str>) -> u8;
    #[wasm_bindgen(js_name = viewItem)]
    fn view_item(array: &JsValue, index: u32) -> u8;
    #[wasm_bindgen(js_name = viewHeld)]
    fn view_held() -> JsValue;
    #[wasm_bindgen(js_name = viewIs)]
    fn view_is(value: &JsValue, name: i32, named: Option<&str>) -> bool;
    #[wasm_bindgen(js_name = viewNames)]
    fn view_names(names: Array);
}

/// The names core reads in messages, and the strings it compares their values with;
/// view.js receives them once (`viewNames`) and names fields by index into them.
const NAMES: [&str; 31] = [
    "role",
    "type",
    "content",
    "tool_call_id",
    "call_id",
    "output",
    "tool_use_id",
    "tool_calls",
    "id",
    "name",
    "function",
    "tool",
    "function_call_output",
    "tool_result",
    "function_call",
    "tool_use",
    // The AI SDK's, Agents SDK's and LangChain's shapes, and text parts.
    "toolCallId",
    "toolName",
    "callId",
    "kwargs",
    "data",
    "value",
    "function_call_result",
    "constructor",
    "tool-result",
    "ToolMessage",
    "text",
    // Common block and item types, so checking them for a result's name costs no call.
    "image",
    "thinking",
    "message",
    "reasoning",
];

// A name's index rides in the kind code's upper five bits (`4 | (i + 1) << 3`, a u8).
const _: () = assert!(NAMES.len() <= 31);

thread_local! {
    /// NAMES as JS strings, made once and given to view.js: the value of a string read
    /// as one of them.
    static NAME_VALUES: Vec<JsValue> = {
        let values: Vec<JsValue> = NAMES.iter().map(|n| JsValue::from_str(n)).collect();
        view_names(values.iter().collect());
        values
    };
}

/// Give view.js its names before its first read (once per thread).
fn names_given() {
    NAME_VALUES.with(|_| ());
}

/// The index of `name` in [`NAMES`], so it crosses as a number; -1 for any other,
/// which crosses as a string.
fn name_index(name: &str) -> i32 {
    NAMES
        .iter()
        .position(|n| *n == name)
        .map_or(-1, |i| i as i32)
}

/// `name` as view.js takes it: an index, or -1 and the string.
fn name_arg(name: &str) -> (i32, Option<&str>) {
    match name_index(name) {
        -1 => (-1, Some(name)),
        i => (i, None),
    }
}

/// view.js's code for a read that threw (what it threw is held).
const THREW: u8 = 7;

/// A view.js read: its kind code, or what it threw.
fn read(code: u8) -> Result<u8, JsValue> {
    if code == THREW {
        Err(view_held())
    } else {
        Ok(code)
    }
}

/// view.js's kind codes (the low three bits).
fn kind_from(code: u8) -> Kind {
    match code & 7 {
        1 => Kind::Null,
        2 => Kind::Bool,
        3 => Kind::Number,
        4 => Kind::String,
        5 => Kind::Array,
        6 => Kind::Object,
        _ => Kind::Undefined,
    }
}

/// A JavaScript value seen through the core's eyes, its kind read once.
#[derive(Clone, Debug)]
pub(crate) struct JsView {
    pub value: JsValue,
    kind: Kind,
    /// For a string that is `NAMES[i]`: `i`; else -1.
    name: i8,
}

/// The name index a kind code carries, or -1.
fn name_from(code: u8) -> i8 {
    (code >> 3) as i8 - 1
}

impl JsView {
    /// A view of `value`.
    pub(crate) fn new(value: JsValue) -> Self {
        names_given();
        let code = kind_of(&value);
        JsView {
            value,
            kind: kind_from(code),
            name: name_from(code),
        }
    }

    /// Views of every item of `array` (a JS array), one call each.
    pub(crate) fn items(array: &Array) -> Vec<JsView> {
        names_given();
        (0..array.length())
            .map(|i| match read(view_item(array, i)) {
                Ok(code) => JsView {
                    value: view_held(),
                    kind: kind_from(code),
                    name: name_from(code),
                },
                // A throwing Proxy trap: core reports a message it cannot read.
                Err(_) => JsView {
                    value: JsValue::UNDEFINED,
                    kind: Kind::Undefined,
                    name: -1,
                },
            })
            .collect()
    }

    /// The view of what the last view.js read held, of kind `code`.
    fn held(code: u8) -> Self {
        let (kind, name) = (kind_from(code), name_from(code));
        let value = if kind == Kind::Undefined {
            JsValue::UNDEFINED
        } else if name >= 0 {
            NAME_VALUES.with(|v| v[name as usize].clone())
        } else {
            view_held()
        };
        JsView { value, kind, name }
    }
}

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

    fn from_owned(text: String) -> Self {
        JsText::new(JsString::from(text.as_str()))
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

    fn stored_form(&self) -> Option<StoredForm> {
        // Only the ends decide: a long output is not copied out of JS for this.
        let len = self.len as u32;
        if self.len <= HEAD_CHARS {
            let whole = self.text.as_string().unwrap_or_default();
            return stored_form_of_ends(&whole, &whole, true);
        }
        let head = self.text.slice(0, HEAD_CHARS as u32);
        let tail = self.text.slice(len - TAIL_CHARS as u32, len);
        let (head, tail) = (head.as_string(), tail.as_string());
        let (head, tail) = (head.unwrap_or_default(), tail.unwrap_or_default());
        stored_form_of_ends(&head, &tail, false)
    }
}

impl JsonView for JsView {
    type Text = JsText;

    fn kind(&self) -> Kind {
        self.kind
    }

    fn field(&self, name: &'static str) -> Option<Self> {
        self.try_field(name).ok().flatten()
    }

    fn try_field(&self, name: &'static str) -> Result<Option<Self>, String> {
        if !matches!(self.kind, Kind::Object | Kind::Array) {
            return Ok(None);
        }
        let (index, named) = name_arg(name);
        let code = read(view_field(&self.value, index, named)).map_err(thrown)?;
        // JSON.stringify omits undefined, function and symbol properties: absent.
        Ok((code != 0).then(|| JsView::held(code)))
    }

    fn array_len(&self) -> usize {
        match self.kind {
            Kind::Array => self.value.unchecked_ref::<Array>().length() as usize,
            _ => 0,
        }
    }

    fn item(&self, index: usize) -> Option<Self> {
        self.try_item(index).ok().flatten()
    }

    fn try_item(&self, index: usize) -> Result<Option<Self>, String> {
        let (Kind::Array, Ok(index)) = (self.kind, u32::try_from(index)) else {
            return Ok(None);
        };
        // A Proxy's throwing trap is an error, not an exception unwinding through wasm.
        let code = read(view_item(&self.value, index)).map_err(thrown)?;
        Ok(Some(JsView::held(code)))
    }

    fn is_str(&self, expected: &'static str) -> bool {
        if self.kind != Kind::String {
            return false;
        }
        if self.name >= 0 {
            return NAMES[self.name as usize] == expected;
        }
        // Not one of NAMES: it can only be a string outside them.
        match name_index(expected) {
            -1 => view_is(&self.value, -1, Some(expected)),
            _ => false,
        }
    }

    fn to_owned_string(&self) -> Option<String> {
        match self.kind {
            Kind::String => self.value.as_string(),
            _ => None,
        }
    }

    fn ends_with_any(&self, suffixes: &[&str]) -> bool {
        if self.kind != Kind::String {
            return false;
        }
        let ends = |s: &str| suffixes.iter().any(|suffix| s.ends_with(suffix));
        match self.name {
            // One of NAMES: known here, no call.
            name if name >= 0 => ends(NAMES[name as usize]),
            _ => self.value.as_string().is_some_and(|s| ends(&s)),
        }
    }

    fn has_lone_surrogate(&self) -> bool {
        self.kind == Kind::String && !is_well_formed(self.value.unchecked_ref())
    }

    fn as_f64(&self) -> Option<f64> {
        match self.kind {
            Kind::Number => self.value.as_f64(),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self.kind {
            Kind::Bool => self.value.as_bool(),
            _ => None,
        }
    }

    fn text(&self) -> Result<JsText, OffloadError> {
        if self.kind == Kind::String {
            return Ok(JsText::new(self.value.clone().unchecked_into()));
        }
        match js_sys::JSON::stringify(&self.value) {
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
