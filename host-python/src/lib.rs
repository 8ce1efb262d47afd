//! The extension module `tool_offload._native`: the tokio host (`tool-offload`) for
//! Python. Its functions block (with the GIL released) on one tokio runtime shared by
//! every call; the pure-Python package `tool_offload` gives them their Python API,
//! async methods (run in a worker thread) and `_sync` twins.
//!
//! Messages and outputs cross the boundary as JSON text: Python's `json.dumps` in,
//! `serde_json` here, and back as JSON text for `json.loads`. Errors are raised as
//! `tool_offload.errors.OffloadError` subclasses chosen by their code.

use pyo3::prelude::*;
use tool_offload::ErrorCode;

mod bridge;
mod callback;
mod core_paths;
mod materializer;
mod messages;
mod offload;
mod open_workspace;
mod options;
mod registry;
mod storage;
#[cfg(feature = "object-store")]
mod store_tools;
mod workspace;
mod writer;

/// JSON text printed again as JavaScript's `JSON.stringify` prints it (integer-like keys
/// first, `1.0` as `1`, `1e+21`): the form every host's conformance outcome is recorded
/// in. Lone surrogates escaped in `text` stay escaped.
#[pyfunction]
fn js_stringify(py: Python<'_>, text: &str) -> PyResult<String> {
    let bridge::Marked { value, lone } = bridge::parse_marked(py, text, "text")?;
    let printed = core_paths::stringify(&value);
    Ok(match lone.is_empty() {
        true => printed,
        false => lone.0.restore(&printed).into_owned(),
    })
}

/// Core's token estimate of `text` (what `count_tokens` defaults to).
#[pyfunction]
fn estimate_tokens(text: &str) -> usize {
    tool_offload_core::estimate_tokens(text)
}

/// The module: its functions, classes and `ERROR_CODES` (every code, as published).
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(offload::offload_tool_results, m)?)?;
    m.add_function(wrap_pyfunction!(offload::offload_tool_result, m)?)?;
    m.add_function(wrap_pyfunction!(js_stringify, m)?)?;
    m.add_function(wrap_pyfunction!(estimate_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(messages::import_conversation, m)?)?;
    m.add_class::<materializer::NativeMaterializer>()?;
    m.add_class::<registry::NativeRegistry>()?;
    m.add_class::<workspace::NativeWorkspace>()?;
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    m.add("ERROR_CODES", codes)?;
    m.add("DEFAULT_THRESHOLD", tool_offload::DEFAULT_THRESHOLD)?;
    // The keys core reads (npm's names), so the tests hold the keywords to them.
    m.add(
        "MATERIALIZER_KEYS",
        core_paths::option_keys::MATERIALIZER_KEYS.to_vec(),
    )?;
    m.add(
        "WORKSPACE_KEYS",
        core_paths::option_keys::WORKSPACE_KEYS.to_vec(),
    )?;
    Ok(())
}
