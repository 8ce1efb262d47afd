//! Read-only access to messages where they live, so the core can inspect a conversation
//! without converting or copying it: serde_json values natively, JavaScript objects in
//! the wasm host. Only the content that is written out is ever touched in full, and
//! then as the host's own string type.

use std::borrow::Cow;

use super::stringify::stringify;
use crate::{error::OffloadError, text::utf16_len};
use serde_json::Value;

/// The JSON type of a value, as `JSON.stringify` would see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A JavaScript `undefined` (or function, or symbol): no JSON value at all.
    Undefined,
    /// `null`
    Null,
    /// `true` / `false`
    Bool,
    /// a number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl Kind {
    /// "a string", "an array", … for error messages.
    pub fn described(self) -> &'static str {
        match self {
            Kind::Undefined => "undefined",
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// Content about to be written: the host's string type plus its size in JS terms.
pub trait Text {
    /// What the host's [`FileWriter`](crate::io::FileWriter) takes (`str` natively).
    type Data: ?Sized;
    /// The text to hand to the writer.
    fn data(&self) -> &Self::Data;
    /// Length in UTF-16 code units (JavaScript `.length`).
    fn utf16_len(&self) -> usize;
    /// Whether [`utf16_len`](Self::utf16_len) is at most `limit`. Hosts that know a
    /// cheaper answer (native text: from the UTF-8 byte length) override it.
    fn utf16_len_at_most(&self, limit: usize) -> bool {
        self.utf16_len() <= limit
    }
    /// Whether this is one of our placeholders ([`is_placeholder`](crate::forms::placeholder::is_placeholder)).
    fn is_placeholder(&self) -> bool;
    /// What this already is when it stands for stored content ([`stored_form`]). Hosts
    /// whose text lives elsewhere override it to copy only the ends it reads
    /// ([`stored_form_of_ends`](crate::forms::stored_form::stored_form_of_ends)).
    ///
    /// [`stored_form`]: crate::forms::stored_form::stored_form
    fn stored_form(&self) -> Option<crate::forms::stored_form::StoredForm> {
        crate::forms::stored_form::stored_form(&self.to_str())
    }
    /// The text as UTF-8, for work done in Rust (summaries of materialized output). A
    /// lone UTF-16 surrogate (only host strings can hold one) becomes U+FFFD, as a
    /// WHATWG UTF-8 encoder (`TextEncoder`, Node's `fs`) writes it: same length in
    /// UTF-16 units, 3 bytes.
    fn to_str(&self) -> Cow<'_, str>;
    /// `text` as this host's text: what is written in place of the original when it
    /// changed (redaction).
    fn from_owned(text: String) -> Self
    where
        Self: Sized;
}

impl Text for Cow<'_, str> {
    type Data = str;
    fn from_owned(text: String) -> Self {
        Cow::Owned(text)
    }
    fn data(&self) -> &str {
        self
    }
    fn utf16_len(&self) -> usize {
        utf16_len(self)
    }
    fn utf16_len_at_most(&self, limit: usize) -> bool {
        // A UTF-16 unit takes 1 to 3 UTF-8 bytes: the byte length alone decides unless
        // it lies between `limit` and 3 × `limit`.
        match self.len() {
            bytes if bytes <= limit => true,
            bytes if bytes / 3 > limit => false,
            _ => utf16_len(self) <= limit,
        }
    }
    fn is_placeholder(&self) -> bool {
        crate::forms::placeholder::is_placeholder(self)
    }
    fn to_str(&self) -> Cow<'_, str> {
        Cow::Borrowed(self)
    }
}

/// A JSON-like value the core can read. Implemented for `&serde_json::Value` here and
/// for JavaScript values by the wasm host.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::view::{JsonView, Kind};
/// let message = json!({"role": "tool", "content": [1.0]});
/// let view = &message;
/// assert!(view.field("role").unwrap().is_str("tool"));
/// assert_eq!(view.field("content").unwrap().kind(), Kind::Array);
/// ```
pub trait JsonView: Sized {
    /// Content handed to the writer.
    type Text: Text;
    /// The value's JSON type.
    fn kind(&self) -> Kind;
    /// Field `key` of an object; `None` when absent (or `undefined`) or not an object.
    fn field(&self, key: &'static str) -> Option<Self>;
    /// [`field`](Self::field), or why the field cannot be read at all: hosts whose
    /// values run code when read (a JavaScript getter or Proxy that throws) say so here
    /// instead of reporting the field absent. Where tool results are looked for, every
    /// field is read this way.
    ///
    /// # Errors
    /// What reading threw, as a message.
    fn try_field(&self, key: &'static str) -> Result<Option<Self>, String> {
        Ok(self.field(key))
    }
    /// Number of items of an array (0 otherwise).
    fn array_len(&self) -> usize;
    /// Item `index` of an array.
    fn item(&self, index: usize) -> Option<Self>;
    /// [`item`](Self::item), or why the item cannot be read at all (see
    /// [`try_field`](Self::try_field)).
    ///
    /// # Errors
    /// What reading threw, as a message.
    fn try_item(&self, index: usize) -> Result<Option<Self>, String> {
        Ok(self.item(index))
    }
    /// Whether this is the string `expected`.
    fn is_str(&self, expected: &'static str) -> bool;
    /// Whether this is a string ending with one of `suffixes` (hosts whose strings live
    /// elsewhere answer without copying the ones they know).
    fn ends_with_any(&self, suffixes: &[&str]) -> bool {
        self.to_owned_string()
            .is_some_and(|s| suffixes.iter().any(|suffix| s.ends_with(suffix)))
    }
    /// The value as an owned string, if it is one (used for short values: ids). A lone
    /// UTF-16 surrogate becomes U+FFFD: ids check [`has_lone_surrogate`](Self::has_lone_surrogate) first.
    fn to_owned_string(&self) -> Option<String>;
    /// Whether this is a string holding a lone UTF-16 surrogate, which a Rust `String`
    /// cannot hold (converting turns it into U+FFFD, so two ids could name one file).
    /// Only host strings can: never a serde_json value.
    fn has_lone_surrogate(&self) -> bool {
        false
    }
    /// The value as a number, if it is one.
    fn as_f64(&self) -> Option<f64>;
    /// The value as a boolean, if it is one.
    fn as_bool(&self) -> Option<bool>;
    /// Content to write: a string as is, an array as its `JSON.stringify`. Only called
    /// on strings and arrays.
    fn text(&self) -> Result<Self::Text, OffloadError>;
    /// Empty content, for a tool result that has none.
    fn empty_text() -> Self::Text;
}

impl<'a> JsonView for &'a Value {
    type Text = Cow<'a, str>;

    fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }
    fn field(&self, key: &'static str) -> Option<Self> {
        let map = self.as_object()?;
        // Messages and blocks hold a handful of keys: comparing them is cheaper than
        // hashing the key (serde_json's map hashes with SipHash).
        if map.len() <= 8 {
            map.iter().find_map(|(k, v)| (k == key).then_some(v))
        } else {
            map.get(key)
        }
    }
    fn array_len(&self) -> usize {
        self.as_array().map_or(0, Vec::len)
    }
    fn item(&self, index: usize) -> Option<Self> {
        self.as_array()?.get(index)
    }
    fn is_str(&self, expected: &'static str) -> bool {
        self.as_str() == Some(expected)
    }
    fn to_owned_string(&self) -> Option<String> {
        self.as_str().map(str::to_owned)
    }
    fn ends_with_any(&self, suffixes: &[&str]) -> bool {
        // Checked on every block's type: no copy.
        self.as_str()
            .is_some_and(|s| suffixes.iter().any(|suffix| s.ends_with(suffix)))
    }
    fn as_f64(&self) -> Option<f64> {
        Value::as_f64(self)
    }
    fn as_bool(&self) -> Option<bool> {
        Value::as_bool(self)
    }
    fn text(&self) -> Result<Cow<'a, str>, OffloadError> {
        Ok(match self {
            Value::String(s) => Cow::Borrowed(s.as_str()),
            other => Cow::Owned(stringify(other)),
        })
    }
    fn empty_text() -> Cow<'a, str> {
        Cow::Borrowed("")
    }
}

/// `String(value)` in JavaScript (`None` is `undefined`), for echoing a bad value in a
/// message the way a JavaScript implementation would.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::view::js_string;
/// assert_eq!(js_string(Some(&&json!([1.0, null, "a", [2]]))), "1,,a,2");
/// assert_eq!(js_string(Some(&&json!({"a": 1}))), "[object Object]");
/// assert_eq!(js_string::<&serde_json::Value>(None), "undefined");
/// ```
pub fn js_string<V: JsonView>(value: Option<&V>) -> String {
    let Some(v) = value else {
        return "undefined".into();
    };
    match v.kind() {
        Kind::Undefined => "undefined".into(),
        Kind::Null => "null".into(),
        Kind::Bool => v.as_bool().unwrap_or_default().to_string(),
        Kind::Number => v.as_f64().map_or_else(
            || "NaN".into(),
            |n| ryu_js::Buffer::new().format(n).to_owned(),
        ),
        Kind::String => v.to_owned_string().unwrap_or_default(),
        Kind::Object => "[object Object]".into(),
        // Joined in place: `[String]::join` would be its only instance in the wasm.
        Kind::Array => {
            let mut out = String::new();
            for i in 0..v.array_len() {
                if i > 0 {
                    out.push(',');
                }
                match v.item(i) {
                    Some(item) if !matches!(item.kind(), Kind::Null | Kind::Undefined) => {
                        out.push_str(&js_string(Some(&item)));
                    }
                    _ => {}
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Text;
    use std::borrow::Cow;

    #[test]
    fn utf16_len_at_most_agrees_with_the_count() {
        for text in [
            "",
            "a",
            "abc",
            "é",
            "éé",
            "€€",
            "😀",
            "😀a",
            "abcd",
            "ééé",
            "€€€€",
            "€€€€€€",
        ] {
            let text: Cow<'_, str> = Cow::Borrowed(text);
            for limit in 0..=5 {
                assert_eq!(
                    text.utf16_len_at_most(limit),
                    text.utf16_len() <= limit,
                    "{text:?} {limit}"
                );
            }
        }
    }
}
