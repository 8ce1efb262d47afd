//! Core's temporary-file policy for JavaScript writers (`NodeFileWriter`, the OPFS
//! writer), so they name and sweep temporary files exactly as the tokio writer does.

use js_sys::Promise;
use tool_offload_core::{temp, OffloadError};
use wasm_bindgen::prelude::*;

use crate::promise::spawn_with;
use crate::read_write::ReadWrite;
use crate::writer::JsFileWriter;

/// `.tool-offload-<pid>-<unique>.tmp`: the name of a writer's temporary file.
#[wasm_bindgen(js_name = tempFileName)]
pub fn temp_file_name(pid: u32, unique: &str) -> String {
    temp::temp_file_name(pid, unique)
}

/// Remove from `dir` the temporary files dead writers left (ours, untouched for core's 10
/// minutes at `nowMs`), through `writer`'s `listDir`, `stat` and `remove`: resolves to how
/// many. Best effort past the listing, whose failure rejects.
#[wasm_bindgen(js_name = sweepStaleTempFiles, unchecked_return_type = "Promise<number>")]
pub fn sweep_stale_temp_files(
    dir: String,
    now_ms: f64,
    #[wasm_bindgen(unchecked_param_type = "FileWriter & FileReader")] writer: JsValue,
) -> Promise {
    // Negative (clock skew) or NaN times are 0.
    let now_ms = now_ms.max(0.0) as u64;
    let writer = JsFileWriter::new(&writer).map_err(Into::into);
    spawn_with(writer, |writer| async move {
        let io = ReadWrite::of_writer(writer);
        let removed = temp::sweep_stale_temp(&dir, now_ms, &io).await;
        let failed = |source| OffloadError::ReadFailed { path: dir, source };
        let removed = removed.map_err(|e| io.error(failed(e)))?;
        Ok(JsValue::from_f64(removed as f64))
    })
}
