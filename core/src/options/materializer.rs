//! A Materializer's options: read from a host's options object, and shown back.

use super::given::Given;
use super::leaves::{
    count, counts, id, invalid, object_with, optional_count, optional_string, string,
};
use super::redaction::{redaction, redaction_shown};
use super::tools::{tool_limits, tool_limits_shown};
use crate::error::OffloadError;
use crate::limits::message_budget::ContextWindow;
use crate::materialize::MaterializerOptions;
use crate::option_keys::MATERIALIZER_KEYS;
use serde_json::{Map, Value};

/// A Materializer's options from `options` (`{ userData, conversationId, cwd?,
/// maxInlineChars?, … }`; the host's own keys — `writer`, `logger`… — are the host's
/// to read). `cwd` is the working directory (see [`working_dir`](super::working_dir)).
///
/// ```
/// use tool_offload_core::options::{materializer_options, Given};
/// let given = Given::from(&serde_json::json!({"userData": "/d", "conversationId": "c", "maxInlineChars": 10}));
/// let options = materializer_options(&given, |_| Ok::<_, tool_offload_core::OffloadError>("/".into())).unwrap();
/// assert_eq!((options.max_inline_chars, options.max_inline_bytes), (10, 16384));
/// let err = materializer_options(&Given::Null, |_| Ok::<_, tool_offload_core::OffloadError>("/".into())).unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options must be an object with userData, conversationId and writer, got null");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` (`INVALID_ID` for the conversation id) naming the first option
/// that is wrong, or a key no reader knows.
pub fn materializer_options<E: From<OffloadError>>(
    options: &Given,
    cwd: impl FnOnce(&str) -> Result<String, E>,
) -> Result<MaterializerOptions, E> {
    // Generic only around the host's `cwd`: the rest is one copy whatever the host's
    // error type.
    let (user_data, conversation_id) = names(options)?;
    let cwd = cwd(&user_data)?;
    Ok(fields(
        options,
        MaterializerOptions::new(user_data, conversation_id, cwd),
    )?)
}

/// The options object checked, and the two names every Materializer has.
fn names(options: &Given) -> Result<(String, String), OffloadError> {
    let shape = "userData, conversationId and writer";
    object_with(options, shape, "Materializer option", MATERIALIZER_KEYS)?;
    let user_data = string(options.field("userData"), "options.userData")?;
    let conversation_id = id(options.field("conversationId"), "conversationId")?;
    Ok((user_data, conversation_id))
}

/// The optional fields, over `core`'s defaults.
fn fields(
    options: &Given,
    mut core: MaterializerOptions,
) -> Result<MaterializerOptions, OffloadError> {
    let field = |key: &str| options.field(key);
    counts(
        options,
        &mut [
            ("maxInlineChars", &mut core.max_inline_chars),
            ("maxInlineBytes", &mut core.max_inline_bytes),
            ("snippetLines", &mut core.snippet_lines),
        ],
    )?;
    core.snippet_bytes = optional_count(field("snippetBytes"), "options.snippetBytes")?;
    core.offload_dir = optional_string(field("offloadDir"), "options.offloadDir")?;
    core.tools = tool_limits(field("tools"))?;
    core.redact = redaction(field("redact"), "options.redact")?;
    core.message_budget_chars =
        optional_count(field("messageBudgetChars"), "options.messageBudgetChars")?;
    core.context_window = context_window(field("contextWindow"))?;
    Ok(core)
}

/// `options.contextWindow`: `{ tokens, resultShare? }` (the Materializer checks the
/// share), or none.
fn context_window(value: &Given) -> Result<Option<ContextWindow>, OffloadError> {
    if value.is_undefined() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(invalid(format!(
            "options.contextWindow must be an object {{ tokens, resultShare? }}, got {}",
            value.type_of()
        )));
    }
    let tokens = value.field("tokens");
    if tokens.is_undefined() {
        return Err(invalid("options.contextWindow.tokens is required".into()));
    }
    let mut window = ContextWindow::new(count(tokens, "options.contextWindow.tokens", 0)?);
    match value.field("resultShare") {
        Given::Undefined => {}
        Given::Number(share) => window.result_share = *share,
        other => {
            return Err(invalid(format!(
                "contextWindow.resultShare must be a number over 0 and at most 1, got {}",
                other.type_of()
            )))
        }
    }
    Ok(Some(window))
}

/// The options in force as callers see them (`materializer.options`), defaults filled
/// in.
pub fn materializer_options_shown(options: &MaterializerOptions) -> Value {
    let mut shown = Map::new();
    let mut put = |key: &str, value: Value| {
        shown.insert(key.into(), value);
    };
    put("userData", options.user_data.as_str().into());
    put("conversationId", options.conversation_id.as_str().into());
    put("cwd", options.cwd.as_str().into());
    put("maxInlineChars", options.max_inline_chars.into());
    put("maxInlineBytes", options.max_inline_bytes.into());
    put("snippetLines", options.snippet_lines.into());
    if let Some(bytes) = options.snippet_bytes {
        put("snippetBytes", bytes.into());
    }
    if let Some(dir) = &options.offload_dir {
        put("offloadDir", dir.as_str().into());
    }
    if let Some(redact) = redaction_shown(&options.redact) {
        put("redact", redact);
    }
    if let Some(budget) = options.message_budget_chars {
        put("messageBudgetChars", budget.into());
    }
    if let Some(window) = options.context_window {
        let share = serde_json::Number::from_f64(window.result_share);
        let mut shown = Map::new();
        shown.insert("tokens".into(), window.tokens.into());
        shown.insert(
            "resultShare".into(),
            share.map_or(Value::Null, Value::Number),
        );
        put("contextWindow", shown.into());
    }
    if !options.tools.is_empty() {
        put("tools", tool_limits_shown(&options.tools));
    }
    shown.into()
}
