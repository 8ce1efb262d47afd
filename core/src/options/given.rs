//! An options value as a host was given it: JSON's values plus what JavaScript tells
//! apart and JSON does not (`undefined`, a string holding a lone UTF-16 surrogate, a
//! function or another value JSON has no name for), so one reader in core can refuse a
//! bad value in the words every host uses.

/// A value of an options object, converted by the host (the wasm host from a JS value,
/// others from JSON through `From<&Value>`).
///
/// ```
/// use tool_offload_core::options::Given;
/// let given = Given::from(&serde_json::json!({"maxInlineChars": 1.5}));
/// let count = given.field("maxInlineChars");
/// assert_eq!((count.type_of(), count.shown()), ("number", "1.5".to_owned()));
/// assert!(given.field("absent").is_undefined());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// Not given (JavaScript's `undefined`; an absent key).
    Undefined,
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number (`NaN` and the infinities included).
    Number(f64),
    /// A string: `well_formed` is false when it held a lone UTF-16 surrogate (which
    /// `text` then holds as U+FFFD).
    Text {
        /// The string as UTF-8.
        text: String,
        /// Whether it held no lone surrogate.
        well_formed: bool,
    },
    /// An array.
    List(Vec<Given>),
    /// An object: its own keys in order, with their values.
    Object(Vec<(String, Given)>),
    /// Anything else (a function, a symbol, a bigint, a host's callback): its `typeof`
    /// and how `String(value)` shows it.
    Other {
        /// `typeof value`
        type_of: String,
        /// `String(value)`
        shown: String,
    },
}

static UNDEFINED: Given = Given::Undefined;

impl Given {
    /// A well-formed string.
    pub fn text(text: impl Into<String>) -> Self {
        Given::Text {
            text: text.into(),
            well_formed: true,
        }
    }

    /// Field `key` of an object; `Undefined` when absent or not an object.
    pub fn field(&self, key: &str) -> &Given {
        match self {
            Given::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&UNDEFINED, |(_, v)| v),
            _ => &UNDEFINED,
        }
    }

    /// The keys of an object (none otherwise).
    pub fn keys(&self) -> Vec<String> {
        match self {
            Given::Object(fields) => fields.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether this is `undefined`.
    pub fn is_undefined(&self) -> bool {
        matches!(self, Given::Undefined)
    }

    /// `undefined` or `null`: what optional options take as not given.
    pub fn is_absent(&self) -> bool {
        matches!(self, Given::Undefined | Given::Null)
    }

    /// Whether JavaScript's `typeof` says `object` and it is not `null` (arrays are, and
    /// so is an object a host did not convert: an argument's, or one nested too deep).
    ///
    /// ```
    /// use tool_offload_core::options::Given;
    /// let unconverted = Given::Other { type_of: "object".into(), shown: "1,2".into() };
    /// assert!(unconverted.is_object() && Given::List(vec![]).is_object());
    /// let function = Given::Other { type_of: "function".into(), shown: String::new() };
    /// assert!(!function.is_object() && !Given::Null.is_object());
    /// ```
    pub fn is_object(&self) -> bool {
        match self {
            Given::Object(_) | Given::List(_) => true,
            Given::Other { type_of, .. } => type_of == "object",
            _ => false,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Given::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    /// What it is, for messages: `typeof value`, or `null`.
    pub fn type_of(&self) -> &str {
        match self {
            Given::Undefined => "undefined",
            Given::Null => "null",
            Given::Bool(_) => "boolean",
            Given::Number(_) => "number",
            Given::Text { .. } => "string",
            Given::List(_) | Given::Object(_) => "object",
            Given::Other { type_of, .. } => type_of,
        }
    }

    /// The value as JavaScript's `String(value)` shows it, for messages.
    pub fn shown(&self) -> String {
        match self {
            Given::Undefined => "undefined".into(),
            Given::Null => "null".into(),
            Given::Bool(b) => b.to_string(),
            Given::Number(n) => ryu_js::Buffer::new().format(*n).to_owned(),
            Given::Text { text, .. } => text.clone(),
            Given::List(items) => items
                .iter()
                .map(|item| match item {
                    Given::Undefined | Given::Null => String::new(),
                    other => other.shown(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Given::Object(_) => "[object Object]".into(),
            Given::Other { shown, .. } => shown.clone(),
        }
    }
}

impl From<&serde_json::Value> for Given {
    fn from(value: &serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Given::Null,
            Value::Bool(b) => Given::Bool(*b),
            Value::Number(n) => Given::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Given::text(s.as_str()),
            Value::Array(items) => Given::List(items.iter().map(Given::from).collect()),
            Value::Object(fields) => Given::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), Given::from(v)))
                    .collect(),
            ),
        }
    }
}
