//! Options that arrive as JSON objects (built by the Python package from keyword
//! arguments, in the npm package's camelCase), read by core's one options reader: each
//! bad value an `INVALID_ARGUMENT` in the words every host uses.

use tool_offload::{MaterializerOptions, OffloadError, Value, WorkspaceOptions};

use crate::core_paths::{options as read, Given, Redaction};

/// `value` as core reads it: Python's `None` (JSON `null`) is "not given", as
/// JavaScript's `undefined` is.
fn given(value: Option<&Value>) -> Given {
    match value {
        None | Some(Value::Null) => Given::Undefined,
        Some(Value::Object(fields)) => Given::Object(
            fields
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), given(Some(v))))
                .collect(),
        ),
        Some(Value::Array(items)) => Given::List(items.iter().map(|v| given(Some(v))).collect()),
        Some(other) => Given::from(other),
    }
}

/// A non-negative integer at `key` of `o`, when given.
pub(crate) fn count(o: &Value, key: &str, what: &str) -> Result<Option<usize>, OffloadError> {
    read::optional_count(&given(o.get(key)), &format!("{what}{key}"))
}

/// A string at `key` of `o`, when given.
pub(crate) fn text(o: &Value, key: &str, what: &str) -> Result<Option<String>, OffloadError> {
    read::optional_string(&given(o.get(key)), &format!("{what}{key}"))
}

/// `redact`: `True` (the built-in rules), `False`/`None` (off), or `{ patterns: [str |
/// { pattern, kind?, ignoreCase? }], replace? }`.
pub(crate) fn redaction(value: Option<&Value>) -> Result<Redaction, OffloadError> {
    read::redaction(&given(value), "redact")
}

/// `o` with `first` before its own keys.
fn with(first: Vec<(String, Given)>, o: &Value) -> Given {
    let mut fields = first;
    if let Given::Object(rest) = given(Some(o)) {
        fields.extend(rest);
    }
    Given::Object(fields)
}

/// Core's options from the Python constructor's (`user_data` as the host resolved it).
pub(crate) fn materializer(
    user_data: &str,
    conversation_id: &str,
    o: &Value,
) -> Result<MaterializerOptions, OffloadError> {
    let first = vec![
        ("userData".into(), Given::text(user_data)),
        ("conversationId".into(), Given::text(conversation_id)),
    ];
    // The working directory is the process's, as `MaterializerOptions::at` leaves it.
    read::materializer_options(&with(first, o), |_| Ok::<_, OffloadError>(String::new()))
}

/// Core's options for a Workspace at `root` from the Python constructor's.
pub(crate) fn workspace(root: &str, o: &Value) -> Result<WorkspaceOptions, OffloadError> {
    let defaults = WorkspaceOptions::at(root);
    let first = vec![("root".into(), Given::text(root))];
    let cwd = |_: &str| Ok::<_, OffloadError>(defaults.cwd.clone());
    read::workspace_options(&with(first, o), cwd, defaults.parse_json)
}
