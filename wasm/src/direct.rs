//! `offloadToolResult` for JavaScript.

use js_sys::Promise;
use tool_offload_core::DirectPlan;
use wasm_bindgen::prelude::*;

use crate::args::{id_arg, string_arg, working_dir};
use crate::copy::copy_with_edits;
use crate::error::{set, JsOffloadError};
use crate::keys::field;
use crate::promise::spawn;
use crate::types::OffloadOptions;
use crate::view::{take_thrown, JsView};
use crate::writer::JsFileWriter;

/// Offload every tool result of one message to `<outputDir>/<sessionId>/<id>.md` through
/// `writer`, returning the rewritten copy and what was freed. Relative `outputDir`s
/// resolve against `options.cwd`, else `process.cwd()`, else `/`.
#[wasm_bindgen(js_name = offloadToolResult, unchecked_return_type = "Promise<OffloadResult>")]
pub fn offload_tool_result(
    #[wasm_bindgen(unchecked_param_type = "Message")] message: JsValue,
    #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
    #[wasm_bindgen(js_name = outputDir, unchecked_param_type = "string")] output_dir: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FileWriter")] writer: JsValue,
    options: Option<OffloadOptions>,
) -> Promise {
    let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
    spawn(async move {
        run(message, session_id, output_dir, writer, options)
            .await
            .map_err(JsValue::from)
    })
}

async fn run(
    message: JsValue,
    session_id: JsValue,
    output_dir: JsValue,
    writer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let session_id = id_arg(&session_id, "sessionId")?;
    let output_dir = string_arg(&output_dir, "outputDir")?;
    let cwd = working_dir(&options, &output_dir)?;
    let redact = crate::given::redaction_arg(&field(&options, "redact"), "options.redact")?;
    let writer = JsFileWriter::new(&writer)?;

    take_thrown();
    let mut plan = DirectPlan::new(
        &JsView::new(message.clone()),
        &session_id,
        &output_dir,
        &cwd,
    )
    .map_err(|e| JsOffloadError::with_cause(e, take_thrown()))?;
    if redact.is_on() {
        plan.redact(&redact);
    }
    // The copy can fail on JS values, so it is made before anything is written.
    let copy = copy_with_edits(&message, &plan.edits())?;
    plan.write(&writer)
        .await
        .map_err(|e| JsOffloadError::with_cause(e, writer.take_failure()))?;

    let result = js_sys::Object::new();
    let files = plan.files();
    set(&result, "message", &copy);
    set(
        &result,
        "freedChars",
        &JsValue::from_f64(plan.freed_chars as f64),
    );
    set(&result, "file", &JsValue::from_str(&files[0]));
    set(&result, "files", &crate::convert::strings(&files));
    Ok(result.into())
}
