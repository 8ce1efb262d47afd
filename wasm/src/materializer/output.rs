//! One tool output for `materialize`: read from JS, materialized, its outcome and ref
//! as JS values, and the logger.

use js_sys::{Function, JsString, Object};
use tool_offload_core::materialize::{BinaryOutputRef, ContextRef, Materialized, ToolOutputRef};
use tool_offload_core::{utf16_len, Value};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::args::{expect_object, id_arg, optional_string, string_arg};
use crate::convert::to_js;
use crate::count_tokens::{caused, JsCounter};
use crate::error::{set, JsOffloadError};
use crate::keys::field;
use crate::output_text::OutputText;
use crate::read_write::Original;

/// One `materialize` input, read from JS.
pub(crate) struct MaterializeInput {
    tool_call_id: String,
    tool_name: String,
    server_name: Option<String>,
    /// The output as given: returned as is when inline.
    original: JsValue,
    /// A string output (lone surrogates as U+FFFD), anything else as its `JSON.stringify`.
    text: String,
    /// `text` as the JS string it was read from, which is what gets written.
    js_text: JsString,
    was_value: bool,
    /// Binary data (a `Uint8Array`, `Buffer` or `ArrayBuffer`), copied into wasm: stored
    /// as it is instead of `text`.
    bytes: Option<Vec<u8>>,
}

impl MaterializeInput {
    pub(crate) fn parse(input: &JsValue) -> Result<MaterializeInput, JsOffloadError> {
        let expects = "materialize expects { toolCallId, toolName, serverName?, output }";
        expect_object(input, expects)?;
        let tool_call_id = id_arg(&field(input, "toolCallId"), "toolCallId")?;
        let tool_name = string_arg(&field(input, "toolName"), "toolName")?;
        let server_name = optional_string(input, "serverName", "serverName")?;
        let original = field(input, "output");
        if let Some(bytes) = binary(&original) {
            return Ok(MaterializeInput {
                tool_call_id,
                tool_name,
                server_name,
                original,
                text: String::new(),
                js_text: JsString::from(""),
                was_value: false,
                bytes: Some(bytes),
            });
        }
        // An inline output is returned as the original, whatever was written.
        let OutputText {
            js,
            text,
            was_value,
        } = OutputText::of(&original, true)?;
        Ok(MaterializeInput {
            tool_call_id,
            tool_name,
            server_name,
            original,
            text,
            js_text: js,
            was_value,
            bytes: None,
        })
    }
}

/// The bytes of binary `output`: a `Uint8Array` (a Node `Buffer` is one) or an
/// `ArrayBuffer`.
fn binary(output: &JsValue) -> Option<Vec<u8>> {
    if let Some(array) = output.dyn_ref::<js_sys::Uint8Array>() {
        return Some(array.to_vec());
    }
    let buffer = output.dyn_ref::<js_sys::ArrayBuffer>()?;
    Some(js_sys::Uint8Array::new(buffer).to_vec())
}

pub(crate) async fn materialize(
    inner: &Inner,
    output: MaterializeInput,
) -> Result<JsValue, JsOffloadError> {
    if let Some(bytes) = &output.bytes {
        let io = inner.host.io(None);
        let binary = BinaryOutputRef {
            tool_call_id: &output.tool_call_id,
            tool_name: &output.tool_name,
            server_name: output.server_name.as_deref(),
            bytes,
        };
        let outcome = inner.core.materialize_binary(&binary, &io).await;
        return Ok(outcome_js(
            inner,
            outcome.map_err(|e| io.error(e))?,
            &output.original,
        ));
    }
    let io = inner
        .host
        .io(None)
        .writing(Original::of(output.js_text.clone(), &output.text));
    let counter = inner.host.counter();
    let count = counter.as_ref().map(JsCounter::boxed);
    let outcome = inner
        .core
        // The JS string knows its length: the text is not counted again.
        .materialize_counted(
            &ToolOutputRef {
                tool_call_id: &output.tool_call_id,
                tool_name: &output.tool_name,
                server_name: output.server_name.as_deref(),
                text: &output.text,
                was_value: output.was_value,
            },
            Some(output.js_text.length() as usize),
            count.as_deref(),
            &io,
        )
        .await
        .map_err(|e| caused(counter.as_ref(), io.error(e)))?;
    Ok(outcome_js(inner, outcome, &output.original))
}

/// `{ inline: true, content: original }` (with `redact`, the redacted text when it held
/// secrets) or `{ inline: false, content: summary, ref, path }`, logging an artifact.
pub(crate) fn outcome_js(inner: &Inner, outcome: Materialized, original: &JsValue) -> JsValue {
    let result = Object::new();
    match outcome {
        Materialized::Inline => {
            set(&result, "inline", &JsValue::TRUE);
            set(&result, "content", original);
        }
        // Within the limits, its secrets replaced: the redacted text, never the original.
        Materialized::Redacted { content } => {
            set(&result, "inline", &JsValue::TRUE);
            set(&result, "content", &JsValue::from_str(&content));
        }
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => {
            if let Some(logger) = &inner.host.logger {
                log(logger, &reference, &path, utf16_len(&summary));
            }
            set(&result, "inline", &JsValue::FALSE);
            set(&result, "content", &JsValue::from_str(&summary));
            set(&result, "ref", &context_ref(&reference));
            set(&result, "path", &JsValue::from_str(&path));
        }
    }
    result.into()
}

/// `{ kind: "artifact", id, hint: { toolName, serverName?, toolCallId, bytes, chars,
/// lines, isJson, redacted? } }`.
pub(crate) fn context_ref(reference: &ContextRef) -> JsValue {
    to_js(&reference.to_value())
}

/// Call the logger with one materialization; whatever it throws (or rejects with) is
/// ignored: logging never breaks materializing.
pub(crate) fn log(logger: &Function, reference: &ContextRef, path: &str, summary_chars: usize) {
    // `toolCallId` first, as the entry is read in logs; then the hint's fields.
    let mut entry = tool_offload_core::Map::new();
    entry.insert(
        "toolCallId".into(),
        reference.hint.tool_call_id.as_str().into(),
    );
    if let Value::Object(hint) = reference.hint.to_value() {
        entry.extend(hint);
    }
    entry.insert("path".into(), path.into());
    entry.insert("ref".into(), reference.id.as_str().into());
    entry.insert("summaryChars".into(), summary_chars.into());
    crate::host::call_logger(logger, to_js(&Value::Object(entry)).unchecked_ref());
}
