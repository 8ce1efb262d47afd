//! Whole conversations for JS: `materializeMessages`, `exportConversation`,
//! `importConversation`, and `formatLegacyToolRecord` for loops that splice records into
//! assistant text.

use js_sys::{Array, Object, Promise, JSON};
use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::materialize::{self, LegacyToolRecord};
use tool_offload_core::{json, utf16_len, OffloadError, Value};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use super::output::{context_ref, log};
use crate::abort::{self, unless_aborted, Abort};
use crate::args::{expect_object, id_string, kind_of, string_arg, working_dir};
use crate::convert::strings;
use crate::convert::{from_parsed, too_deep};
use crate::copy::Messages;
use crate::error::{message_of, set, JsOffloadError};
use crate::keys::field;
use crate::promise::spawn;
use crate::read_write::ReadWrite;
use crate::reader::JsFileReader;
use crate::writer::JsFileWriter;

/// `materializeMessages(messages, options?)`: `{ messages, refs, paths }`, unchanged
/// messages as the same objects, changed ones as deep copies; with
/// `options.remindUnread`, the unread reminder at the end of the last user turn.
pub(crate) async fn materialize_messages(
    inner: &Inner,
    messages: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let abort = Abort::of_call(&options)?;
    let remind = super::reminder::remind_option(&options)?;
    let given = Messages::of(&messages)?;
    let io = inner.host.io(abort.as_ref());
    let counter = inner.host.counter();
    let count = counter.as_ref().map(crate::count_tokens::JsCounter::boxed);
    let done = inner
        .core
        .materialize_messages_counted(&given.views, count.as_deref(), &io)
        .await
        .map_err(|e| {
            crate::count_tokens::caused(counter.as_ref(), Messages::error(e, &io, abort.as_ref()))
        })?;
    abort::check(abort.as_ref())?;
    let out = given.edited(&done.changed)?;
    if remind {
        super::reminder::remind(&out)?;
    }
    let summaries = done.changed.iter().flat_map(|(_, edits)| edits);
    if let Some(logger) = &inner.host.logger {
        for ((reference, path), (_, summary)) in done.refs.iter().zip(&done.paths).zip(summaries) {
            log(logger, reference, path, utf16_len(summary));
        }
    }
    let result = Object::new();
    set(&result, "messages", &out);
    set(
        &result,
        "refs",
        &done.refs.iter().map(context_ref).collect::<Array>(),
    );
    set(&result, "paths", &strings(&done.paths));
    set(&result, "unrecognized", &strings(&done.unrecognized));
    Ok(result.into())
}

/// `exportConversation(messages)`: the bundle as a plain JS object.
pub(crate) async fn export_conversation(
    inner: &Inner,
    reader: ReadWrite,
    messages: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let abort = Abort::of_call(&options)?;
    let reader = reader.aborting_with(abort.as_ref());
    if !Array::is_array(&messages) {
        return Err(OffloadError::InvalidArgument(format!(
            "messages must be an array, got {}",
            kind_of(&messages)
        ))
        .into());
    }
    let (messages, lone) = parse_json(&[("messages", &messages)])?;
    let mut bundle = inner
        .core
        .export_conversation(&messages[0], &reader)
        .await
        .map_err(|e| unless_aborted(abort.as_ref(), reader.error(e)))?;
    abort::check(abort.as_ref())?;
    // Only the messages may hold stand-ins for lone surrogates; artifacts never do.
    // `get_mut`, not `bundle["messages"]`: `IndexMut` brings its panic path and formatting.
    let messages = bundle
        .get_mut("messages")
        .map(Value::take)
        .unwrap_or_default();
    let js = restored_js(&bundle, &LoneSurrogates::default())?;
    set(&js, "messages", &restored_js(&messages, &lone)?);
    Ok(js)
}

/// Restore a bundle made by `exportConversation` under `options.userData`, so every ref
/// in its messages resolves again. Everything is checked before anything is written:
/// the format, each artifact's SHA-256, that every path stays inside the conversation's
/// artifacts, and that every ref the messages name is in the bundle; a different file
/// already where an artifact goes is never overwritten. Resolves to
/// `{ conversationId, messages, paths }`. Rejects with `INVALID_BUNDLE`,
/// `ARTIFACT_EXISTS`, `INVALID_ARGUMENT`, `READ_FAILED` or `WRITE_FAILED`.
#[wasm_bindgen(js_name = importConversation, unchecked_return_type = "Promise<ImportedConversation>")]
pub fn import_conversation(
    #[wasm_bindgen(unchecked_param_type = "ConversationBundle")] bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ImportOptions")] options: JsValue,
) -> Promise {
    spawn(async move { import(bundle, options).await.map_err(JsValue::from) })
}

async fn import(bundle: JsValue, options: JsValue) -> Result<JsValue, JsOffloadError> {
    expect_object(
        &options,
        "options must be an object with userData and writer",
    )?;
    let user_data = string_arg(&field(&options, "userData"), "options.userData")?;
    let cwd = working_dir(&options, &user_data)?;
    let abort = Abort::from_options(&options)?;
    let writer = JsFileWriter::new(&field(&options, "writer"))?;
    let reader = match field(&options, "reader") {
        r if r.is_undefined() || r.is_null() => {
            JsFileReader::new(writer.target(), "options.writer (used as the reader)")?
        }
        r => JsFileReader::new(&r, "options.reader")?,
    };
    if !bundle.is_object() {
        return Err(OffloadError::InvalidBundle(format!(
            "a bundle must be an object, got {}",
            kind_of(&bundle)
        ))
        .into());
    }
    let (mut bundle, lone) = parse_json(&[("bundle", &bundle)])
        .map_err(|_| OffloadError::InvalidBundle("the bundle is not valid JSON data".into()))?;
    let mut bundle = bundle.swap_remove(0);
    // An artifact's content is what its file holds: a lone surrogate as U+FFFD.
    if let Some(artifacts) = bundle.get_mut("artifacts").and_then(Value::as_array_mut) {
        for content in artifacts.iter_mut().filter_map(|a| a.get_mut("content")) {
            if let Value::String(text) = content {
                *text = lone.to_written(text).into_owned();
            }
        }
    }
    let io = ReadWrite {
        writer: writer.aborting_with(abort.as_ref()),
        reader: Some(reader.aborting_with(abort.as_ref())),
        original: None,
    };
    let imported = materialize::import_conversation(&bundle, &user_data, &cwd, &io)
        .await
        .map_err(|e| unless_aborted(abort.as_ref(), io.error(e)))?;
    abort::check(abort.as_ref())?;
    let result = Object::new();
    set(
        &result,
        "conversationId",
        &JsValue::from_str(&imported.conversation_id),
    );
    set(
        &result,
        "messages",
        &restored_js(&imported.messages, &lone)?,
    );
    set(
        &result,
        "paths",
        &imported
            .paths
            .iter()
            .map(|p| JsValue::from_str(p))
            .collect::<Array>(),
    );
    Ok(result.into())
}

/// `<function_call>{"name":…,"id":…,"arguments":…,"response":…}</function_call>` for
/// loops that splice tool records into assistant text: `response` is what the model
/// sees (the output when inline, the summary when materialized). Written as
/// `JSON.stringify` writes it, except that `</` becomes `<\/` (the same JSON) so the
/// text can never close the record early. Throws `INVALID_ARGUMENT`.
#[wasm_bindgen(js_name = formatLegacyToolRecord)]
pub fn format_legacy_tool_record(
    #[wasm_bindgen(unchecked_param_type = "LegacyToolRecord")] record: JsValue,
) -> Result<String, JsValue> {
    legacy(&record).map_err(JsValue::from)
}

fn legacy(record: &JsValue) -> Result<String, JsOffloadError> {
    let expects = "formatLegacyToolRecord expects { toolName, toolCallId?, arguments, response }";
    expect_object(record, expects)?;
    let name = field(record, "toolName");
    string_arg(&name, "toolName")?;
    let id = field(record, "toolCallId");
    let has_id = !(id.is_undefined() || id.is_null());
    if has_id {
        // Checked for its type and for lone surrogates (INVALID_ID).
        id_string(&id, "toolCallId", " when given")?;
    }
    let [arguments, response] = ["arguments", "response"].map(|key| field(record, key));
    for (key, value) in [("arguments", &arguments), ("response", &response)] {
        if value.is_undefined() {
            return Err(OffloadError::InvalidArgument(format!("{key} is missing")).into());
        }
    }
    // Parsed together, so that one set of stand-ins covers every text of the record
    // (the name's lone surrogates too, and none can be mistaken for another's).
    let id = if has_id { id } else { JsValue::NULL };
    let (values, lone) = parse_json(&[
        ("arguments", &arguments),
        ("response", &response),
        ("toolName", &name),
        ("toolCallId", &id),
    ])?;
    let record = materialize::format_legacy_tool_record(&LegacyToolRecord {
        tool_name: values[2].as_str().unwrap_or_default(),
        tool_call_id: values[3].as_str(),
        arguments: &values[0],
        response: &values[1],
    });
    Ok(lone.restore(&record).into_owned())
}

/// Named JS values as core JSON, by the engine's `JSON.stringify` (its semantics:
/// `toJSON`, dropped `undefined`), its escaped lone surrogates swapped for stand-ins
/// on the Rust side (see [`LoneSurrogates`]), one set for all of them, and the engine's
/// `JSON.parse` of the marked text read back as serde_json would read it.
fn parse_json(values: &[(&str, &JsValue)]) -> Result<(Vec<Value>, LoneSurrogates), JsOffloadError> {
    let mut text = String::from("[");
    for (i, (what, value)) in values.iter().enumerate() {
        let json = JSON::stringify(value)
            .map_err(|thrown| {
                JsOffloadError::with_cause(
                    OffloadError::InvalidArgument(format!(
                        "{what} cannot be serialised as JSON: {}",
                        message_of(&thrown)
                    )),
                    Some(thrown),
                )
            })?
            .as_string()
            .ok_or_else(|| OffloadError::InvalidArgument(format!("{what} is not JSON data")))?;
        if i > 0 {
            text.push(',');
        }
        text.push_str(&json);
    }
    text.push(']');
    let invalid = |e: &dyn std::fmt::Display| {
        let names: Vec<&str> = values.iter().map(|(what, _)| *what).collect();
        JsOffloadError::from(OffloadError::InvalidArgument(format!(
            "{} cannot be read as JSON: {e}",
            names.join(" and ")
        )))
    };
    let (marked, lone) = LoneSurrogates::mark(text.as_bytes()).map_err(|e| invalid(&e))?;
    let marked = std::str::from_utf8(&marked).map_err(|e| invalid(&e))?;
    // The engine parses (the stand-ins are plain characters to it); serde_json's depth
    // limit, which this parse has always had, still applies.
    if let Some(column) = too_deep(marked) {
        let e = format!("recursion limit exceeded at line 1 column {column}");
        return Err(invalid(&e));
    }
    let parsed = JSON::parse(marked).map_err(|thrown| invalid(&message_of(&thrown)))?;
    match from_parsed(&parsed) {
        Value::Array(parsed) if parsed.len() == values.len() => Ok((parsed, lone)),
        _ => Err(invalid(&"not one value each")),
    }
}

/// A core `Value` (its lone surrogates as `lone`'s stand-ins) as a JS value, parsed by
/// the engine.
fn restored_js(value: &Value, lone: &LoneSurrogates) -> Result<JsValue, JsOffloadError> {
    JSON::parse(&lone.restore(&json::stringify(value))).map_err(|thrown| {
        JsOffloadError::with_cause(
            OffloadError::InvalidArgument("the engine could not parse a bundle".into()),
            Some(thrown),
        )
    })
}
