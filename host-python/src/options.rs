//! Options that arrive as JSON objects (built by the Python package from keyword
//! arguments, in the npm package's camelCase): checked here, each bad value an
//! `INVALID_ARGUMENT` naming it.

use tool_offload::{
    ContextWindow, MaterializeWhen, MaterializerOptions, OffloadError, ToolLimits, Value,
};

use crate::core_paths::{RedactPattern, Redaction};

fn bad(message: String) -> OffloadError {
    OffloadError::InvalidArgument(message)
}

/// A non-negative integer at `key` of `o`, when present (and not null).
pub(crate) fn count(o: &Value, key: &str, what: &str) -> Result<Option<usize>, OffloadError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
            .ok_or_else(|| bad(format!("{what}{key} must be an integer >= 0, got {v}"))),
    }
}

/// A string at `key` of `o`, when present (and not null).
pub(crate) fn text(o: &Value, key: &str, what: &str) -> Result<Option<String>, OffloadError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(bad(format!("{what}{key} must be a string, got {v}"))),
    }
}

/// `tools`: `{ name: { maxInlineChars?, maxInlineBytes?, maxInlineTokens?, materialize? } }`.
pub(crate) fn tool_limits(
    tools: Option<&Value>,
) -> Result<Vec<(String, ToolLimits)>, OffloadError> {
    let Some(tools) = tools.filter(|t| !t.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(tools) = tools.as_object() else {
        return Err(bad(format!(
            "tools must be a dict of tool names, got {tools}"
        )));
    };
    let mut out = Vec::new();
    for (name, t) in tools {
        let what = format!("tools[{name:?}].");
        if !t.is_object() {
            return Err(bad(format!("tools[{name:?}] must be a dict, got {t}")));
        }
        if let Some(key) = t
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
            .find(|k| {
                ![
                    "maxInlineChars",
                    "maxInlineBytes",
                    "maxInlineTokens",
                    "materialize",
                ]
                .contains(&k.as_str())
            })
        {
            return Err(bad(format!("{what}{key} is not an option of a tool")));
        }
        let materialize = match t.get("materialize") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "never" => Some(MaterializeWhen::Never),
            Some(Value::String(s)) if s == "always" => Some(MaterializeWhen::Always),
            Some(v) => {
                return Err(bad(format!(
                    "{what}materialize must be \"never\" or \"always\", got {v}"
                )))
            }
        };
        let limits = ToolLimits {
            max_inline_chars: count(t, "maxInlineChars", &what)?,
            max_inline_bytes: count(t, "maxInlineBytes", &what)?,
            max_inline_tokens: count(t, "maxInlineTokens", &what)?,
            materialize,
        };
        out.push((name.clone(), limits));
    }
    Ok(out)
}

/// `redact`: `True` (the built-in rules), `False`/`None` (off), or `{ patterns: [str |
/// { pattern, kind?, ignoreCase? }], replace? }`.
pub(crate) fn redaction(value: Option<&Value>) -> Result<Redaction, OffloadError> {
    let value = match value {
        None | Some(Value::Null) => return Ok(Redaction::off()),
        Some(Value::Bool(on)) => return Ok((*on).into()),
        Some(v) => v,
    };
    let Some(options) = value.as_object() else {
        return Err(bad(format!(
            "redact must be a bool or a dict with patterns, got {value}"
        )));
    };
    let mut patterns = Vec::new();
    let given = options
        .get("patterns")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let Some(given) = given.as_array() else {
        return Err(bad(format!("redact.patterns must be a list, got {given}")));
    };
    for p in given {
        patterns.push(match p {
            Value::String(s) => RedactPattern::new(s.clone()),
            Value::Object(_) => RedactPattern {
                kind: text(p, "kind", "redact.patterns[].")?.unwrap_or_else(|| "custom".into()),
                pattern: text(p, "pattern", "redact.patterns[].")?
                    .ok_or_else(|| bad("redact.patterns[].pattern is missing".into()))?,
                ignore_case: p
                    .get("ignoreCase")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            },
            other => {
                return Err(bad(format!(
                    "redact.patterns[] must be a str or a dict, got {other}"
                )))
            }
        });
    }
    let replace = text(value, "replace", "redact.")?;
    Redaction::with_patterns(patterns, replace)
}

/// `contextWindow`: `{ tokens, resultShare? }`.
pub(crate) fn context_window(value: Option<&Value>) -> Result<Option<ContextWindow>, OffloadError> {
    let Some(w) = value.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let tokens = count(w, "tokens", "context_window.")?
        .ok_or_else(|| bad(format!("context_window.tokens is missing in {w}")))?;
    let mut window = ContextWindow::new(tokens);
    match w.get("resultShare") {
        None | Some(Value::Null) => {}
        Some(share) => {
            window.result_share = share.as_f64().ok_or_else(|| {
                bad(format!(
                    "context_window.result_share must be a number, got {share}"
                ))
            })?
        }
    }
    Ok(Some(window))
}

/// Core's options from the Python constructor's (JSON, the npm package's names).
pub(crate) fn materializer(
    user_data: &str,
    conversation_id: &str,
    o: &Value,
) -> Result<MaterializerOptions, OffloadError> {
    let mut out = MaterializerOptions::at(user_data, conversation_id);
    if let Some(n) = count(o, "maxInlineChars", "")? {
        out.max_inline_chars = n;
    }
    if let Some(n) = count(o, "maxInlineBytes", "")? {
        out.max_inline_bytes = n;
    }
    if let Some(n) = count(o, "snippetLines", "")? {
        out.snippet_lines = n;
    }
    out.snippet_bytes = count(o, "snippetBytes", "")?;
    out.offload_dir = text(o, "offloadDir", "")?;
    out.tools = tool_limits(o.get("tools"))?;
    out.redact = redaction(o.get("redact"))?;
    out.message_budget_chars = count(o, "messageBudgetChars", "")?;
    out.context_window = context_window(o.get("contextWindow"))?;
    Ok(out)
}
