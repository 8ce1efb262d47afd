//! `offloadToolResult` for JavaScript.

use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::convert::{string_arg, to_core, to_js, working_dir};
use crate::error::{set, JsOffloadError};
use crate::types::OffloadOptions;
use crate::writer::JsFileWriter;

/// Offload every tool result of one message to `<outputDir>/<sessionId>/<id>.md` through
/// `writer`, returning the rewritten copy and what was freed. Relative `outputDir`s
/// resolve against `options.cwd`, else `process.cwd()`, else `/`.
#[wasm_bindgen(js_name = offloadToolResult, unchecked_return_type = "OffloadResult")]
pub async fn offload_tool_result(
    #[wasm_bindgen(unchecked_param_type = "Message")] message: JsValue,
    #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
    #[wasm_bindgen(js_name = outputDir, unchecked_param_type = "string")] output_dir: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileWriter")] writer: JsValue,
    options: Option<OffloadOptions>,
) -> Result<JsValue, JsValue> {
    run(
        message,
        session_id,
        output_dir,
        writer,
        options.map_or(JsValue::UNDEFINED, JsValue::from),
    )
    .await
    .map_err(JsValue::from)
}

async fn run(
    message: JsValue,
    session_id: JsValue,
    output_dir: JsValue,
    writer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let message = to_core(&message, "message")?;
    let session_id = string_arg(&session_id, |kind| OffloadError::InvalidId {
        field: "sessionId".into(),
        value: None,
        reason: if kind == "undefined" {
            "is missing"
        } else {
            "must be a string"
        },
    })?;
    let output_dir = string_arg(&output_dir, |kind| {
        OffloadError::InvalidArgument(format!("outputDir must be a string, got {kind}"))
    })?;
    let cwd = working_dir(&options, &output_dir)?;
    let writer = JsFileWriter::new(&writer)?;

    let done =
        tool_offload_core::offload_tool_result(&message, &session_id, &output_dir, &cwd, &writer)
            .await
            .map_err(|e| JsOffloadError::with_cause(e, writer.take_failure()))?;

    let result = js_sys::Object::new();
    set(&result, "message", &to_js(&done.message));
    set(
        &result,
        "freedChars",
        &JsValue::from_f64(done.freed_chars as f64),
    );
    set(&result, "file", &done.file.as_str().into());
    let files: js_sys::Array = done.files.iter().map(|f| JsValue::from_str(f)).collect();
    set(&result, "files", &files);
    Ok(result.into())
}
