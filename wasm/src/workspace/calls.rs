//! The `Workspace` calls: arguments read from JS, core run with the JS IO, results as
//! plain JS values.

use js_sys::{Array, JsString, Object};
use tool_offload_core::workspace::{
    KnowledgeInput, KnowledgeRecord, KnowledgeType, OffloadInfo, Query, Stored, ToolResultInput,
    ToolResultOffload, TOOL_RESULT_CONTEXT_TYPE,
};
use tool_offload_core::{Map, OffloadError, Value};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::abort::{self, unless_aborted, Abort};
use crate::args::{expect_object, optional_string, string_arg};
use crate::args::{id_arg, kind_of, options_arg, page_arg};
use crate::convert::{from_parsed, number};
use crate::convert::{strings, to_js, to_value};
use crate::copy::Messages;
use crate::error::{set, JsOffloadError};
use crate::keys::field;
use crate::output_text::{stringify, OutputText};
use crate::read_write::{Original, ReadWrite};

/// A content: a string as is (written as the caller's JS string), anything else as its
/// `JSON.stringify`.
struct Content {
    original: JsValue,
    js: JsString,
    text: String,
    is_string: bool,
}

impl Content {
    fn of(original: JsValue) -> Result<Self, JsOffloadError> {
        let OutputText {
            js,
            text,
            was_value,
        } = OutputText::of(&original, false)?;
        Ok(Content {
            original,
            js,
            text,
            is_string: !was_value,
        })
    }

    fn io(&self, inner: &Inner, abort: Option<&Abort>) -> ReadWrite {
        inner
            .host
            .io(abort)
            .writing(Original::of(self.js.clone(), &self.text))
    }
}

/// `metadata` of an input: an object, or nothing.
fn metadata_arg(input: &JsValue) -> Result<Map<String, Value>, JsOffloadError> {
    let metadata = field(input, "metadata");
    if metadata.is_undefined() || metadata.is_null() {
        return Ok(Map::new());
    }
    match to_value(&metadata, "metadata")? {
        Value::Object(map) if !Array::is_array(&metadata) => Ok(map),
        _ => Err(invalid(format!(
            "metadata must be an object, got {}",
            kind_of(&metadata)
        ))),
    }
}

fn invalid(message: String) -> JsOffloadError {
    OffloadError::InvalidArgument(message).into()
}

/// `offloadToolResult({ toolCallId, toolName, actionName?, content, metadata? })`.
pub(crate) async fn offload_tool_result(
    inner: &Inner,
    input: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    expect_object(
        &input,
        "offloadToolResult expects { toolCallId, toolName, actionName?, content, metadata? }",
    )?;
    let abort = Abort::of_call(&options)?;
    let call_id = id_arg(&field(&input, "toolCallId"), "toolCallId")?;
    let tool_name = string_arg(&field(&input, "toolName"), "toolName")?;
    let action_name = optional_string(&input, "actionName", "actionName")?;
    let content = Content::of(field(&input, "content"))?;
    let core_input = ToolResultInput {
        tool_call_id: &call_id,
        tool_name: &tool_name,
        action_name: action_name.as_deref(),
        text: &content.text,
        is_json: !content.is_string,
        metadata: metadata_arg(&input)?,
        known: inner.known(&content.js, &content.text)?,
    };
    let io = content.io(inner, abort.as_ref());
    let counter = inner.host.counter();
    let count = counter.as_ref().map(crate::count_tokens::JsCounter::boxed);
    let done = inner
        .core
        .offload_tool_result(&core_input, count.as_deref(), inner.now()?, &io)
        .await
        .map_err(|e| {
            let error = unless_aborted(abort.as_ref(), io.error(e));
            crate::count_tokens::caused(counter.as_ref(), error)
        })?;
    abort::check(abort.as_ref())?;
    log_outcome(inner, &call_id, &done);
    Ok(outcome(&done, &content.original))
}

/// `{ offloaded, content, artifactId?, reason? }`.
fn outcome(done: &ToolResultOffload, original: &JsValue) -> JsValue {
    let out = Object::new();
    set(&out, "offloaded", &JsValue::from_bool(done.offloaded));
    let content = match &done.replacement {
        Some(list) => JsValue::from_str(list),
        None => original.clone(),
    };
    set(&out, "content", &content);
    if let Some(id) = &done.artifact_id {
        set(&out, "artifactId", &JsValue::from_str(id));
    }
    if let Some(decision) = &done.decision {
        set(&out, "reason", &JsValue::from_str(decision.reason.as_str()));
    }
    out.into()
}

fn log_outcome(inner: &Inner, call_id: &str, done: &ToolResultOffload) {
    let context = ("context_type", JsValue::from_str(TOOL_RESULT_CONTEXT_TYPE));
    let biz = ("biz_id", JsValue::from_str(call_id));
    match &done.decision {
        None => inner.log("skipped", &[context.clone(), biz.clone()]),
        Some(d) => inner.log(
            "decision",
            &[
                context.clone(),
                biz.clone(),
                ("offload", JsValue::from_bool(d.offload)),
                ("reason", JsValue::from_str(d.reason.as_str())),
                ("tokens", d.tokens.map_or(JsValue::UNDEFINED, number)),
            ],
        ),
    }
    if let Some(stored) = &done.stored {
        inner.log(
            "stored",
            &[
                context,
                biz,
                ("id", JsValue::from_str(&stored.record.id)),
                ("path", JsValue::from_str(&stored.path)),
                ("reused", JsValue::from_bool(stored.reused)),
                ("replaced", JsValue::from_bool(done.replacement.is_some())),
            ],
        );
    }
}

/// `add({ id, content, type?, metadata })`: `{ id, type, path, reused, metadata }`.
pub(crate) async fn add(
    inner: &Inner,
    input: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    expect_object(&input, "add expects { id, content, type?, metadata }")?;
    let abort = Abort::of_call(&options)?;
    let id = id_arg(&field(&input, "id"), "id")?;
    let content = Content::of(field(&input, "content"))?;
    let kind = optional_string(&input, "type", "type")?;
    let kind = KnowledgeType::resolve(kind.as_deref(), content.is_string, &content.text)?;
    let core_input = KnowledgeInput {
        id: &id,
        text: &content.text,
        kind,
        metadata: metadata_arg(&input)?,
        known: inner.known(&content.js, &content.text)?,
    };
    let io = content.io(inner, abort.as_ref());
    let stored = inner
        .core
        .add(&core_input, inner.now()?, &io)
        .await
        .map_err(|e| unless_aborted(abort.as_ref(), io.error(e)))?;
    abort::check(abort.as_ref())?;
    inner.log(
        "stored",
        &[
            (
                "context_type",
                to_js(
                    stored
                        .record
                        .metadata
                        .get("context_type")
                        .unwrap_or(&Value::Null),
                ),
            ),
            ("id", JsValue::from_str(&stored.record.id)),
            ("path", JsValue::from_str(&stored.path)),
            ("reused", JsValue::from_bool(stored.reused)),
        ],
    );
    Ok(stored_js(&stored))
}

fn stored_js(stored: &Stored) -> JsValue {
    let out: JsValue = to_js(&stored.record.to_value());
    set(&out, "path", &JsValue::from_str(&stored.path));
    set(&out, "reused", &JsValue::from_bool(stored.reused));
    out
}

/// `offloadMessages(messages)`: `{ messages, artifactIds, unrecognized? }`, unchanged
/// messages as the same objects.
pub(crate) async fn offload_messages(
    inner: &Inner,
    messages: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let abort = Abort::of_call(&options)?;
    let given = Messages::of(&messages)?;
    let io = inner.host.io(abort.as_ref());
    let counter = inner.host.counter();
    let count = counter.as_ref().map(crate::count_tokens::JsCounter::boxed);
    let done = inner
        .core
        .offload_messages(&given.views, count.as_deref(), inner.now()?, &io)
        .await
        .map_err(|e| {
            crate::count_tokens::caused(counter.as_ref(), Messages::error(e, &io, abort.as_ref()))
        })?;
    abort::check(abort.as_ref())?;
    let out = given.edited(&done.changed)?;
    let mut ids = Vec::new();
    for (_, result) in &done.results {
        let call = result
            .stored
            .as_ref()
            .and_then(|s| s.record.str_field("biz_id"));
        log_outcome(inner, call.unwrap_or_default(), result);
        ids.extend(result.artifact_id.clone());
    }
    let result = Object::new();
    set(&result, "messages", &out);
    set(&result, "artifactIds", &strings(&ids));
    if !done.unrecognized.is_empty() {
        set(&result, "unrecognized", &strings(&done.unrecognized));
    }
    Ok(result.into())
}

/// `queryArtifacts(filter?, { limit?, offset? })`.
pub(crate) fn query_arg(filter: &JsValue, options: &JsValue) -> Result<Query, JsOffloadError> {
    let filter = if filter.is_undefined() || filter.is_null() {
        Map::new()
    } else {
        match to_value(filter, "filter")? {
            Value::Object(map) if !Array::is_array(filter) => map,
            _ => {
                return Err(invalid(format!(
                    "filter must be an object, got {}",
                    kind_of(filter)
                )))
            }
        }
    };
    options_arg(options)?;
    let mut query = Query::new(filter);
    query.limit = page_arg(&field(options, "limit"), "options.limit", query.limit)?;
    query.offset = page_arg(&field(options, "offset"), "options.offset", 0)?;
    Ok(query)
}

/// Records as `[{ id, type, metadata }]`.
pub(crate) fn records_js(records: &[KnowledgeRecord]) -> JsValue {
    records
        .iter()
        .map(|r| to_js(&r.to_value()))
        .collect::<Array>()
        .into()
}

/// The overview as `[{ artifact_id, biz_id, tool_name, action_name?, chars, bytes, lines, created_at }]`.
pub(crate) fn infos_js(infos: &[OffloadInfo]) -> JsValue {
    infos
        .iter()
        .map(|info| to_js(&info.to_value()))
        .collect::<Array>()
        .into()
}

/// A bundle given to `importNamespace`, read as core's value.
pub(crate) fn bundle_arg(bundle: &JsValue) -> Result<Value, JsOffloadError> {
    if !bundle.is_object() {
        return Err(OffloadError::InvalidBundle(format!(
            "a bundle is an object, got {}",
            kind_of(bundle)
        ))
        .into());
    }
    let text = stringify(bundle)?;
    let parsed = js_sys::JSON::parse(&String::from(text))
        .map_err(|_| OffloadError::InvalidBundle("the bundle is not plain JSON data".into()))?;
    Ok(from_parsed(&parsed))
}
