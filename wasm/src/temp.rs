//! Core's temporary-file policy for JavaScript writers (`NodeFileWriter`), so they name
//! and sweep temporary files exactly as the tokio writer does.

use tool_offload_core::temp;
use wasm_bindgen::prelude::*;

/// `.tool-offload-<pid>-<unique>.tmp`: the name of a writer's temporary file.
#[wasm_bindgen(js_name = tempFileName)]
pub fn temp_file_name(pid: u32, unique: &str) -> String {
    temp::temp_file_name(pid, unique)
}

/// Whether directory entry `name` is a writer's temporary file.
#[wasm_bindgen(js_name = isTempFile)]
pub fn is_temp_file(name: &str) -> bool {
    temp::is_temp(name)
}

/// Whether directory entry `name`, last modified `ageMs` ago, is a temporary file a
/// dead writer left (older than core's 10 minutes): safe to remove.
#[wasm_bindgen(js_name = isStaleTempFile)]
pub fn is_stale_temp_file(name: &str, age_ms: f64) -> bool {
    // Negative (clock skew) or NaN ages are 0: kept.
    temp::is_stale_temp(name, age_ms.max(0.0) as u64)
}
