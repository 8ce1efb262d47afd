//! `Materializer.gc`: retention over the materializer's user data, through its writer's
//! `stat` and `remove`.

use js_sys::{Array, Object};
use tool_offload_core::gc::{gc as collect, referenced, GcOptions, GcReport};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::io::ReadWrite;
use super::options::{field, number, options_arg, u64_arg, Inner};
use crate::convert::to_value;
use crate::error::{message_of, set, JsOffloadError};

/// `options` (`{ olderThanMs?, maxBytes?, keep?, dryRun? }`) read now, so the caller may
/// change them once `gc` returns.
pub(crate) fn parse(options: &JsValue) -> Result<GcOptions, JsOffloadError> {
    options_arg(options)?;
    let mut parsed = GcOptions {
        older_than_ms: u64_arg(&field(options, "olderThanMs"), "options.olderThanMs")?,
        max_bytes: u64_arg(&field(options, "maxBytes"), "options.maxBytes")?,
        now_ms: js_sys::Date::now() as u64,
        ..GcOptions::default()
    };
    if parsed.older_than_ms.is_none() && parsed.max_bytes.is_none() {
        return Err(OffloadError::InvalidArgument(
            "say what to remove: options.olderThanMs and/or options.maxBytes".into(),
        )
        .into());
    }
    let dry_run = field(options, "dryRun");
    parsed.dry_run = match (dry_run.is_undefined(), dry_run.as_bool()) {
        (true, _) => false,
        (false, Some(flag)) => flag,
        (false, None) => {
            return Err(OffloadError::InvalidArgument(format!(
                "options.dryRun must be a boolean, got {}",
                message_of(&dry_run)
            ))
            .into())
        }
    };
    let keep = field(options, "keep");
    if !keep.is_undefined() {
        if !Array::is_array(&keep) {
            return Err(OffloadError::InvalidArgument(
                "options.keep must be an array of messages".into(),
            )
            .into());
        }
        parsed.keep = referenced(&to_value(&keep, "options.keep")?);
    }
    Ok(parsed)
}

/// Collect under the user data; the report as `{ removed, bytes, kept, keptBytes }`.
pub(crate) async fn run(inner: &Inner, options: GcOptions) -> Result<JsValue, JsOffloadError> {
    let io = ReadWrite::of(inner);
    let root = &inner.core.options().user_data;
    let report = collect(root, &options, &io)
        .await
        .map_err(|e| io.error(e))?;
    Ok(report_js(&report))
}

fn report_js(report: &GcReport) -> JsValue {
    let js = Object::new();
    let removed: Array = report
        .removed
        .iter()
        .map(|p| JsValue::from_str(p))
        .collect();
    set(&js, "removed", &removed);
    set(&js, "bytes", &JsValue::from_f64(report.bytes as f64));
    set(&js, "kept", &number(report.kept));
    set(
        &js,
        "keptBytes",
        &JsValue::from_f64(report.kept_bytes as f64),
    );
    js.into()
}
