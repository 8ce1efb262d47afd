//! What the read tools of both products share: the defaults of their arguments, the
//! checks that read them from a model's input (whose messages the model acts on), the grep
//! arguments' schema rows and the object schema built from rows. `context_*` (the
//! Materializer's) and `*_knowledge` (the Workspace's) are made from these.

use super::Within;
use crate::json::view::js_string;
use serde_json::Value;

/// Rows a read or tail shows unless told otherwise.
pub const DEFAULT_LINES: usize = 200;
/// Rows of context around a grep match unless told otherwise.
pub const DEFAULT_CONTEXT: usize = 2;
/// Grep matches shown unless told otherwise.
pub const DEFAULT_MAX_MATCHES: usize = 50;

/// Where a read starts inside its first line: `char` when the input has it (it wins),
/// else `part` (default 1). The read tools of the Materializer and of the Workspace.
pub(crate) fn within(input: &Value) -> Result<Within, String> {
    match input.get("char") {
        None | Some(Value::Null) => Ok(Within::Part(count(input, "part", 1)?)),
        Some(_) => Ok(Within::Char(count(input, "char", 0)?)),
    }
}

/// The grep tools' arguments after the artifact (`context_grep`, `grep_knowledge`).
#[rustfmt::skip]
pub(crate) const GREP_ARGS: [Property; 4] = [
    ("pattern", "string", None, "Regular expression matched against each line, e.g. \"Error|Exception\". At most 1000 characters; no look-around or backreferences."),
    ("context", "integer", Some(0), "Lines of context around each match (default 2)."),
    ("max_matches", "integer", Some(1), "Matches to show at most (default 50)."),
    ("ignore_case", "boolean", None, "Match ASCII letters case-insensitively (default false)."),
];

/// A schema property: name, type, minimum, description.
pub(crate) type Property = (&'static str, &'static str, Option<u64>, &'static str);

/// `{"type": "object", "properties": {…}, "required": […]}`, each property
/// `{"type", "minimum"?, "description"}`: built in a loop, which is far smaller in the
/// wasm than the same values spelled out with `json!` (the registry vectors pin them).
pub(crate) fn object_schema(properties: &[Property], required: &[&str]) -> Value {
    let mut props = serde_json::Map::new();
    for &(name, kind, minimum, description) in properties {
        let mut p = serde_json::Map::new();
        p.insert("type".into(), kind.into());
        if let Some(minimum) = minimum {
            p.insert("minimum".into(), minimum.into());
        }
        p.insert("description".into(), description.into());
        props.insert(name.into(), Value::Object(p));
    }
    let mut schema = serde_json::Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(props));
    schema.insert(
        "required".into(),
        required.iter().map(|&r| Value::from(r)).collect(),
    );
    Value::Object(schema)
}

/// `input[key]` as a string.
pub(crate) fn string(input: &Value, key: &str) -> Result<String, String> {
    match input.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        other => Err(format!(
            "{key} must be a string, got {}",
            js_string(other.as_ref())
        )),
    }
}

/// `input[key]` as a string, `None` when absent or null.
pub(crate) fn optional_string(input: &Value, key: &str) -> Result<Option<String>, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        _ => string(input, key).map(Some),
    }
}

/// `input[key]` as a boolean, `false` when absent or null.
pub(crate) fn flag(input: &Value, key: &str) -> Result<bool, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!(
            "{key} must be a boolean, got {}",
            crate::json::stringify(other)
        )),
    }
}

/// `input[key]` as a count, `default` when absent or null.
pub(crate) fn count(input: &Value, key: &str, default: usize) -> Result<usize, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(value) => match value.as_f64().map(crate::text::count_in_range) {
            Some(Ok(n)) => Ok(n),
            Some(Err(true)) => Err(format!(
                "{key} must be at most {}, got {}",
                crate::text::MAX_COUNT,
                crate::json::stringify(value)
            )),
            _ => Err(format!(
                "{key} must be a non-negative integer, got {}",
                crate::json::stringify(value)
            )),
        },
    }
}
