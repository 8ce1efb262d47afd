//! Reading a `Materializer`'s options and method arguments from JS.

use crate::abort::Abort;
use crate::read_write::ReadWrite;
use js_sys::{Function, Object};
use tool_offload_core::materialize::{
    Materializer as CoreMaterializer, MaterializerOptions as CoreOptions,
};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::{
    count_arg, id_arg, kind_of, known_keys, optional_string, string_arg, working_dir,
};
use crate::convert::number;
use crate::error::{set, JsOffloadError};
use crate::keys::field;
use crate::reader::JsFileReader;
use crate::view::has_lone_surrogate;
use crate::writer::JsFileWriter;
use tool_offload_core::option_keys;

/// Everything a `Materializer` holds: shared (never borrowed mutably) by every pending
/// call, so calls may run concurrently.
pub(crate) struct Inner {
    pub(crate) core: CoreMaterializer,
    pub(crate) writer: JsFileWriter,
    /// `options.reader`, else the writer when it can read; `None` when neither can.
    pub(crate) reader: Option<JsFileReader>,
    pub(crate) logger: Option<Function>,
    /// `options.countTokens`: tokens for `maxInlineTokens`, the context window and
    /// `budget`.
    pub(crate) count_tokens: Option<Function>,
}

impl Inner {
    /// The token counter for one call, when `options.countTokens` was given.
    pub(crate) fn counter(&self) -> Option<crate::count_tokens::JsCounter<'_>> {
        self.count_tokens
            .as_ref()
            .map(crate::count_tokens::JsCounter::new)
    }
}

pub(crate) fn parse_options(options: &JsValue) -> Result<Inner, JsOffloadError> {
    if !options.is_object() {
        return Err(OffloadError::InvalidArgument(format!(
            "options must be an object with userData, conversationId and writer, got {}",
            kind_of(options)
        ))
        .into());
    }
    known_keys(
        options,
        "options",
        "Materializer option",
        option_keys::MATERIALIZER_KEYS,
    )?;
    let user_data = string_arg(&field(options, "userData"), |kind| {
        OffloadError::InvalidArgument(format!("options.userData must be a string, got {kind}"))
    })?;
    let conversation_id = id_arg(&field(options, "conversationId"), "conversationId")?;
    let cwd = working_dir(options, &user_data)?;
    let mut core = CoreOptions::new(user_data, conversation_id, cwd);
    core.max_inline_chars = count_arg(
        &field(options, "maxInlineChars"),
        "options.maxInlineChars",
        core.max_inline_chars,
    )?;
    core.max_inline_bytes = count_arg(
        &field(options, "maxInlineBytes"),
        "options.maxInlineBytes",
        core.max_inline_bytes,
    )?;
    core.snippet_lines = count_arg(
        &field(options, "snippetLines"),
        "options.snippetLines",
        core.snippet_lines,
    )?;
    let snippet_bytes = field(options, "snippetBytes");
    if !snippet_bytes.is_undefined() {
        core.snippet_bytes = Some(count_arg(&snippet_bytes, "options.snippetBytes", 0)?);
    }
    core.offload_dir = optional_string(options, "offloadDir", "options.offloadDir")?;
    core.tools = crate::tool_limits::tools_arg(options)?;
    core.redact = crate::redaction::redaction_arg(&field(options, "redact"), "options.redact")?;
    let budget = field(options, "messageBudgetChars");
    if !budget.is_undefined() {
        core.message_budget_chars = Some(count_arg(&budget, "options.messageBudgetChars", 0)?);
    }
    core.context_window = context_window_arg(&field(options, "contextWindow"))?;
    let (writer, reader) = io_options(options)?;
    Ok(Inner {
        core: CoreMaterializer::new(core)?,
        writer,
        reader,
        logger: logger_arg(options, "logger")?,
        count_tokens: logger_arg(options, "countTokens")?,
    })
}

/// `options.writer`, and `options.reader` (else the writer when it can read).
pub(crate) fn io_options(
    options: &JsValue,
) -> Result<(JsFileWriter, Option<JsFileReader>), JsOffloadError> {
    let writer = JsFileWriter::new(&field(options, "writer")).map_err(|e| match e {
        OffloadError::InvalidArgument(message) => {
            OffloadError::InvalidArgument(format!("options.{message}"))
        }
        other => other,
    })?;
    let reader = field(options, "reader");
    let reader = if reader.is_undefined() || reader.is_null() {
        JsFileReader::from_object(writer.target())
    } else {
        Some(JsFileReader::new(&reader, "options.reader")?)
    };
    Ok((writer, reader))
}

/// `options[key]` as a function, if given.
pub(crate) fn logger_arg(
    options: &JsValue,
    key: &'static str,
) -> Result<Option<Function>, JsOffloadError> {
    let value = field(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_into::<Function>().map(Some).map_err(|value| {
        OffloadError::InvalidArgument(format!(
            "options.{key} must be a function, got {}",
            kind_of(&value)
        ))
        .into()
    })
}

/// A ref argument: a string, else `INVALID_ARGUMENT`. One holding a lone UTF-16
/// surrogate names no artifact (`REF_NOT_FOUND`): as a Rust String it would hold U+FFFD
/// and could name another id's artifact.
pub(crate) fn ref_arg(reference: &JsValue) -> Result<String, JsOffloadError> {
    let text = string_arg(reference, |kind| {
        OffloadError::InvalidArgument(format!("ref must be a string, got {kind}"))
    })?;
    if has_lone_surrogate(reference) {
        return Err(OffloadError::RefNotFound(text).into());
    }
    Ok(text)
}

/// The options in force as JS shows them (`materializer.options`), defaults filled in.
pub(crate) fn options_js(options: &CoreOptions) -> JsValue {
    let js = Object::new();
    set(&js, "userData", &JsValue::from_str(&options.user_data));
    set(
        &js,
        "conversationId",
        &JsValue::from_str(&options.conversation_id),
    );
    set(&js, "cwd", &JsValue::from_str(&options.cwd));
    set(&js, "maxInlineChars", &number(options.max_inline_chars));
    set(&js, "maxInlineBytes", &number(options.max_inline_bytes));
    set(&js, "snippetLines", &number(options.snippet_lines));
    if let Some(bytes) = options.snippet_bytes {
        set(&js, "snippetBytes", &number(bytes));
    }
    if let Some(dir) = &options.offload_dir {
        set(&js, "offloadDir", &JsValue::from_str(dir));
    }
    if let Some(redact) = crate::redaction::redaction_value(&options.redact) {
        set(&js, "redact", &redact);
    }
    if let Some(budget) = options.message_budget_chars {
        set(&js, "messageBudgetChars", &number(budget));
    }
    if let Some(window) = options.context_window {
        let o = Object::new();
        set(&o, "tokens", &number(window.tokens));
        set(&o, "resultShare", &JsValue::from_f64(window.result_share));
        set(&js, "contextWindow", &o);
    }
    if !options.tools.is_empty() {
        set(&js, "tools", &crate::tool_limits::tools_js(&options.tools));
    }
    js.into()
}

/// `options.contextWindow`: `{ tokens, resultShare? }` (core checks the share), or none.
fn context_window_arg(
    value: &JsValue,
) -> Result<Option<tool_offload_core::materialize::ContextWindow>, JsOffloadError> {
    if value.is_undefined() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(OffloadError::InvalidArgument(format!(
            "options.contextWindow must be an object {{ tokens, resultShare? }}, got {}",
            kind_of(value)
        ))
        .into());
    }
    let tokens = field(value, "tokens");
    if tokens.is_undefined() {
        return Err(OffloadError::InvalidArgument(
            "options.contextWindow.tokens is required".into(),
        )
        .into());
    }
    let mut window = tool_offload_core::materialize::ContextWindow::new(count_arg(
        &tokens,
        "options.contextWindow.tokens",
        0,
    )?);
    let share = field(value, "resultShare");
    if !share.is_undefined() {
        window.result_share = share.as_f64().ok_or_else(|| {
            OffloadError::InvalidArgument(format!(
                "contextWindow.resultShare must be a number over 0 and at most 1, got {}",
                kind_of(&share)
            ))
        })?;
    }
    Ok(Some(window))
}

impl Inner {
    /// Fresh copies of the materializer's writer and reader: each call keeps its own
    /// failure, so concurrent calls never take each other's `cause`.
    pub(crate) fn io(&self) -> ReadWrite {
        self.io_aborting(None)
    }

    /// [`Inner::io`], every wait raced against `abort`'s signal.
    pub(crate) fn io_aborting(&self, abort: Option<&Abort>) -> ReadWrite {
        ReadWrite::over(&self.writer, self.reader.as_ref(), abort)
    }
}
