//! Whole conversations for JS: `materializeMessages`, `exportConversation`,
//! `importConversation`, and `formatLegacyToolRecord` for loops that splice records into
//! assistant text.

use js_sys::{Array, Object, JSON};
use tool_offload_core::materialize::{self, LegacyToolRecord};
use tool_offload_core::{json, utf16_len, OffloadError, Value};
use wasm_bindgen::prelude::*;

use super::io::ReadWrite;
use super::options::{field, Inner};
use super::output::{context_ref, log};
use crate::convert::{id_string, kind_of, string_arg, working_dir};
use crate::copy::copy_with_edits;
use crate::error::{message_of, set, JsOffloadError};
use crate::reader::JsFileReader;
use crate::view::{take_thrown, JsView};
use crate::writer::JsFileWriter;

/// `materializeMessages(messages)`: `{ messages, refs, paths }`, unchanged messages as
/// the same objects, changed ones as deep copies.
pub(crate) async fn materialize_messages(
    inner: &Inner,
    messages: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let Some(messages) = messages.dyn_ref::<Array>() else {
        return Err(OffloadError::InvalidArgument(format!(
            "messages must be an array, got {}",
            kind_of(&messages)
        ))
        .into());
    };
    take_thrown();
    let views: Vec<JsView> = messages.iter().map(JsView).collect();
    let io = ReadWrite::of(inner);
    let done =
        inner
            .core
            .materialize_messages(&views, &io)
            .await
            .map_err(|e| match take_thrown() {
                Some(thrown) => JsOffloadError::with_cause(e, Some(thrown)),
                None => io.error(e),
            })?;
    // Artifacts are written by now; a copy that fails (a BigInt elsewhere in the
    // message) leaves them in place, which loses nothing.
    let out: Array = views.iter().map(|v| v.0.clone()).collect();
    for (index, edits) in &done.changed {
        out.set(*index as u32, copy_with_edits(&views[*index].0, edits)?);
    }
    let summaries = done.changed.iter().flat_map(|(_, edits)| edits);
    if let Some(logger) = &inner.logger {
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
    set(
        &result,
        "paths",
        &done
            .paths
            .iter()
            .map(|p| JsValue::from_str(p))
            .collect::<Array>(),
    );
    Ok(result.into())
}

/// `exportConversation(messages)`: the bundle as a plain JS object.
pub(crate) async fn export_conversation(
    inner: &Inner,
    reader: &JsFileReader,
    messages: JsValue,
) -> Result<JsValue, JsOffloadError> {
    if !Array::is_array(&messages) {
        return Err(OffloadError::InvalidArgument(format!(
            "messages must be an array, got {}",
            kind_of(&messages)
        ))
        .into());
    }
    let messages = parse_json(&messages, "messages")?;
    let bundle = inner
        .core
        .export_conversation(&messages, reader)
        .await
        .map_err(|e| JsOffloadError::with_cause(e, reader.take_failure()))?;
    to_js(&bundle)
}

/// Restore a bundle made by `exportConversation` under `options.userData`, so every ref
/// in its messages resolves again. Everything is checked before anything is written:
/// the format, each artifact's SHA-256, that every path stays inside the conversation's
/// artifacts, and that every ref the messages name is in the bundle; a different file
/// already where an artifact goes is never overwritten. Resolves to
/// `{ conversationId, messages, paths }`. Rejects with `INVALID_BUNDLE`,
/// `ARTIFACT_EXISTS`, `INVALID_ARGUMENT`, `READ_FAILED` or `WRITE_FAILED`.
#[wasm_bindgen(js_name = importConversation, unchecked_return_type = "ImportedConversation")]
pub async fn import_conversation(
    #[wasm_bindgen(unchecked_param_type = "ConversationBundle")] bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ImportOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    import(bundle, options).await.map_err(JsValue::from)
}

async fn import(bundle: JsValue, options: JsValue) -> Result<JsValue, JsOffloadError> {
    if !options.is_object() {
        return Err(OffloadError::InvalidArgument(format!(
            "options must be an object with userData and writer, got {}",
            kind_of(&options)
        ))
        .into());
    }
    let user_data = string_arg(&field(&options, "userData"), |kind| {
        OffloadError::InvalidArgument(format!("options.userData must be a string, got {kind}"))
    })?;
    let cwd = working_dir(&options, &user_data)?;
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
    let bundle = parse_json(&bundle, "bundle")
        .map_err(|_| OffloadError::InvalidBundle("the bundle is not valid JSON data".into()))?;
    let io = ReadWrite {
        writer,
        reader: Some(reader),
    };
    let imported = materialize::import_conversation(&bundle, &user_data, &cwd, &io)
        .await
        .map_err(|e| io.error(e))?;
    let result = Object::new();
    set(
        &result,
        "conversationId",
        &JsValue::from_str(&imported.conversation_id),
    );
    set(&result, "messages", &to_js(&imported.messages)?);
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
    if !record.is_object() {
        return Err(OffloadError::InvalidArgument(format!(
            "formatLegacyToolRecord expects {{ toolName, toolCallId?, arguments, response }}, got {}",
            kind_of(record)
        ))
        .into());
    }
    let tool_name = string_arg(&field(record, "toolName"), |kind| {
        OffloadError::InvalidArgument(format!("toolName must be a string, got {kind}"))
    })?;
    let id = field(record, "toolCallId");
    let tool_call_id = if id.is_undefined() || id.is_null() {
        None
    } else {
        Some(id_string(&id, "toolCallId", |kind| {
            OffloadError::InvalidArgument(format!(
                "toolCallId must be a string when given, got {kind}"
            ))
        })?)
    };
    let arguments = json_field(record, "arguments")?;
    let response = json_field(record, "response")?;
    Ok(materialize::format_legacy_tool_record(&LegacyToolRecord {
        tool_name: &tool_name,
        tool_call_id: tool_call_id.as_deref(),
        arguments: &arguments,
        response: &response,
    }))
}

/// `record[key]` as JSON data; `undefined` is refused (JSON.stringify would drop it).
fn json_field(record: &JsValue, key: &str) -> Result<Value, JsOffloadError> {
    let value = field(record, key);
    if value.is_undefined() {
        return Err(OffloadError::InvalidArgument(format!("{key} is missing")).into());
    }
    parse_json(&value, key)
}

/// A JS value as core JSON, by the engine's `JSON.stringify` (its semantics: `toJSON`,
/// dropped `undefined`) and a parse on the Rust side.
fn parse_json(value: &JsValue, what: &str) -> Result<Value, JsOffloadError> {
    let text = JSON::stringify(value)
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
    serde_json::from_str(&text).map_err(|e| {
        OffloadError::InvalidArgument(format!(
            "{what} cannot be read as JSON (a lone UTF-16 surrogate?): {e}"
        ))
        .into()
    })
}

/// A core `Value` as a JS value, parsed by the engine.
fn to_js(value: &Value) -> Result<JsValue, JsOffloadError> {
    JSON::parse(&json::stringify(value)).map_err(|thrown| {
        JsOffloadError::with_cause(
            OffloadError::InvalidArgument("the engine could not parse a bundle".into()),
            Some(thrown),
        )
    })
}
