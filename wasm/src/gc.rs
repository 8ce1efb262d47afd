//! Retention from JavaScript: `gcDirectory(dir, options)` for any directory of ours, and
//! what `Materializer.gc` shares with it (options and report).

use js_sys::Array;
use tool_offload_core::gc::{gc as collect, referenced, GcOptions, GcReport};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use js_sys::Promise;

use crate::args::string_arg;
use crate::convert::to_value;
use crate::error::JsOffloadError;
use crate::keys::field;
use crate::promise::spawn_with;
use crate::read_write::ReadWrite;
use crate::writer::JsFileWriter;

/// Remove what nobody needs under `dir` (a user-data or batch output directory): files
/// of ours last written more than `options.olderThanMs` ago, then the least recently
/// written until ours take at most `options.maxBytes`; never one the messages of
/// `options.keep` refer to, never a file that is not ours. `options.writer` must have
/// `readFile`, `listDir`, `stat` and `remove` (the npm package defaults it to a
/// `NodeFileWriter`). Resolves to `{ removed, bytes, kept, keptBytes }`. Rejects with
/// `INVALID_ARGUMENT`, `READ_FAILED` or `WRITE_FAILED`.
#[wasm_bindgen(js_name = gcDirectory, unchecked_return_type = "Promise<GcReport>")]
pub fn gc_directory(
    #[wasm_bindgen(unchecked_param_type = "string")] dir: JsValue,
    #[wasm_bindgen(unchecked_param_type = "GcOptions & { writer: FileWriter & FileReader }")]
    options: JsValue,
) -> Promise {
    let parsed = (|| {
        let dir = string_arg(&dir, "dir")?;
        let writer = JsFileWriter::new(&field(&options, "writer"))?;
        Ok::<_, JsOffloadError>((dir, parse(&options)?, writer))
    })();
    spawn_with(parsed, |(dir, options, writer)| async move {
        run(&dir, &options, &ReadWrite::of_writer(writer)).await
    })
}

/// Collect under `root` through `io` (the one IO type both `gcDirectory` and
/// `Materializer.gc` use, so the wasm holds one copy of core's `gc`), as the JS report.
pub(crate) async fn run(
    root: &str,
    options: &GcOptions,
    io: &ReadWrite,
) -> Result<JsValue, JsValue> {
    let report = collect(root, options, io).await.map_err(|e| io.error(e))?;
    Ok(report_js(&report))
}

/// `options` (`{ olderThanMs?, maxBytes?, keep?, dryRun? }`) read now, so the caller may
/// change them once `gc` returns.
pub(crate) fn parse(options: &JsValue) -> Result<GcOptions, JsOffloadError> {
    let given = crate::given::options(options);
    let now = js_sys::Date::now() as u64;
    let mut parsed = tool_offload_core::options::gc_options(&given, now)?;
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

/// The report as `{ removed, bytes, kept, keptBytes }`.
pub(crate) fn report_js(report: &GcReport) -> JsValue {
    crate::convert::to_js(&report.to_value())
}
