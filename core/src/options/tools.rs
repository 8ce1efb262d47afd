//! `options.tools` of a Materializer or a Workspace: per-tool limits, read and shown.

use super::given::Given;
use super::leaves::{invalid, optional_count};
use crate::error::OffloadError;
use crate::limits::tool_limits::{MaterializeWhen, ToolLimits};
use crate::option_keys::{check_keys, TOOL_ENTRY_KEYS};
use serde_json::{Map, Value};

/// `options.tools`: `{ [toolName]: { maxInlineChars?, maxInlineBytes?, maxInlineTokens?,
/// materialize? } }` in the object's key order; none when `undefined` or `null`.
///
/// ```
/// use tool_offload_core::options::{tool_limits, Given};
/// let given = Given::from(&serde_json::json!({"Read": {"materialize": "never"}}));
/// assert_eq!(tool_limits(&given).unwrap()[0].0, "Read");
/// let err = tool_limits(&Given::from(&serde_json::json!({"Read": {"materialize": "no"}}))).unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid argument: options.tools["Read"].materialize must be "never" or "always", got "no""#);
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` naming the first entry or field that is wrong.
pub fn tool_limits(tools: &Given) -> Result<Vec<(String, ToolLimits)>, OffloadError> {
    let entries = match tools {
        _ if tools.is_absent() => return Ok(Vec::new()),
        Given::Object(entries) => entries,
        other => {
            let kind = match other {
                Given::List(_) => "array",
                _ => other.type_of(),
            };
            return Err(invalid(format!(
                "options.tools must be an object of tool names, got {kind}"
            )));
        }
    };
    let mut out = Vec::with_capacity(entries.len());
    for (name, entry) in entries {
        let label = format!(
            "options.tools[{}]",
            crate::json::stringify(&name.as_str().into())
        );
        if !entry.is_object() {
            return Err(invalid(format!(
                "{label} must be an object, got {}",
                entry.type_of()
            )));
        }
        check_keys(&label, "tools entry field", &entry.keys(), TOOL_ENTRY_KEYS)?;
        let count = |key: &str| optional_count(entry.field(key), &format!("{label}.{key}"));
        let when = entry.field("materialize");
        let materialize = match when.as_str() {
            _ if when.is_undefined() => None,
            Some("never") => Some(MaterializeWhen::Never),
            Some("always") => Some(MaterializeWhen::Always),
            other => {
                let got = match other {
                    Some(text) => crate::json::stringify(&text.into()),
                    None => when.type_of().to_owned(),
                };
                return Err(invalid(format!(
                    "{label}.materialize must be \"never\" or \"always\", got {got}"
                )));
            }
        };
        let limits = ToolLimits {
            max_inline_chars: count("maxInlineChars")?,
            max_inline_bytes: count("maxInlineBytes")?,
            max_inline_tokens: count("maxInlineTokens")?,
            materialize,
        };
        out.push((name.clone(), limits));
    }
    Ok(out)
}

/// The `tools` option as callers see it back.
pub fn tool_limits_shown(tools: &[(String, ToolLimits)]) -> Value {
    let mut shown = Map::new();
    for (name, limits) in tools {
        let mut entry = Map::new();
        let counts = [
            ("maxInlineChars", limits.max_inline_chars),
            ("maxInlineBytes", limits.max_inline_bytes),
            ("maxInlineTokens", limits.max_inline_tokens),
        ];
        for (key, n) in counts {
            if let Some(n) = n {
                entry.insert(key.into(), n.into());
            }
        }
        if let Some(when) = limits.materialize {
            let when = match when {
                MaterializeWhen::Never => "never",
                MaterializeWhen::Always => "always",
            };
            entry.insert("materialize".into(), when.into());
        }
        shown.insert(name.clone(), entry.into());
    }
    shown.into()
}
