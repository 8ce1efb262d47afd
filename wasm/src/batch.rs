//! `offloadToolResults` for JavaScript.

use js_sys::{Array, Promise};
use tool_offload_core::{BatchOptions, BatchPlan, OffloadError, DEFAULT_THRESHOLD};
use wasm_bindgen::prelude::*;

use crate::abort::{self, unless_aborted, Abort};
use crate::args::{count_arg, string_arg, working_dir};
use crate::convert::strings;
use crate::copy::copy_with_edits;
use crate::error::{set, JsOffloadError};
use crate::keys::key;
use crate::promise::spawn;
use crate::view::{take_thrown, JsView};
use crate::writer::JsFileWriter;

/// Offload every tool result of at least `options.threshold` (default 100) UTF-16 code
/// units in a conversation to `<outputDir>/tool-result-<id>.md` through `options.writer`.
/// Unchanged messages are returned as the same objects; changed ones as deep copies.
#[wasm_bindgen(js_name = offloadToolResults, unchecked_return_type = "Promise<BatchResult<object>>")]
pub fn offload_tool_results(
    #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BatchOptions")] options: JsValue,
) -> Promise {
    spawn(async move { run(messages, options).await.map_err(JsValue::from) })
}

async fn run(messages: JsValue, options: JsValue) -> Result<JsValue, JsOffloadError> {
    let Some(messages) = messages.dyn_ref::<Array>() else {
        return Err(OffloadError::InvalidArgument("messages must be an array".into()).into());
    };
    if !options.is_object() {
        return Err(OffloadError::InvalidArgument(
            "options must be an object with outputDir".into(),
        )
        .into());
    }
    let option = |name: &'static str| {
        js_sys::Reflect::get(&options, &key(name)).unwrap_or(JsValue::UNDEFINED)
    };
    let output_dir = string_arg(&option("outputDir"), "options.outputDir")?;
    let threshold = count_arg(&option("threshold"), "options.threshold", DEFAULT_THRESHOLD)?;
    let redact = crate::given::redaction_arg(&option("redact"), "options.redact")?;
    let abort = Abort::from_options(&options)?;
    let writer = JsFileWriter::new(&option("writer"))?.aborting_with(abort.as_ref());
    let cwd = working_dir(&options, &output_dir)?;

    take_thrown();
    let views: Vec<JsView> = JsView::items(messages);
    let batch_options = BatchOptions {
        output_dir: &output_dir,
        cwd: &cwd,
        threshold,
        redact,
    };
    let mut plan = BatchPlan::new(&views, &batch_options)
        .map_err(|e| JsOffloadError::with_cause(e, take_thrown()))?;
    let planned = plan.edits();

    // Copies can fail on JS values, so they are made before anything is written.
    let out: Array = views.iter().map(|v| v.value.clone()).collect();
    for (index, edits) in &planned.changed {
        out.set(*index as u32, copy_with_edits(&views[*index].value, edits)?);
    }
    let moved = plan.write(&writer).await.map_err(|e| {
        unless_aborted(
            abort.as_ref(),
            JsOffloadError::with_cause(e, writer.take_failure()),
        )
    })?;
    abort::check(abort.as_ref())?;
    let done = if moved {
        // A planned name held another file: the placeholders of the results that moved
        // changed. The copies are our own plain objects now, so this cannot fail on them.
        let done = plan.edits();
        for ((index, edits), (_, before)) in done.changed.iter().zip(&planned.changed) {
            if edits != before {
                let copy = out.get(*index as u32);
                out.set(*index as u32, copy_with_edits(&copy, edits)?);
            }
        }
        done
    } else {
        planned
    };

    let result = js_sys::Object::new();
    set(&result, "messages", &out);
    set(
        &result,
        "offloadedCount",
        &JsValue::from_f64(done.offloaded_count as f64),
    );
    set(
        &result,
        "freedChars",
        &JsValue::from_f64(done.freed_chars as f64),
    );
    set(&result, "files", &strings(&done.files));
    set(&result, "unrecognized", &strings(&done.unrecognized));
    Ok(result.into())
}
