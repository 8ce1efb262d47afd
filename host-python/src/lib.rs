//! The extension module `tool_offload._native`: the tokio host (`tool-offload`) for
//! Python. Its functions block (with the GIL released) on one tokio runtime shared by
//! every call; the pure-Python package `tool_offload` gives them their Python API,
//! async methods (run in a worker thread) and `_sync` twins.
//!
//! Messages and outputs cross the boundary as JSON text: Python's `json.dumps` in,
//! `serde_json` here, and back as JSON text for `json.loads`. Errors are raised as
//! `tool_offload.errors.OffloadError` subclasses chosen by their code.

use std::sync::OnceLock;

use pyo3::prelude::*;
use tool_offload::{ErrorCode, OffloadError, Value};

mod batch;
mod materializer;

/// The runtime every call blocks on. Current-thread: each calling thread drives its own
/// future (concurrent calls from several Python threads are fine); file IO runs on the
/// runtime's blocking pool.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .thread_name("tool-offload")
            .build()
            .expect("tool-offload: cannot start the tokio runtime")
    })
}

/// Run the future `make` returns to completion with the GIL released (the future is
/// made on the releasing thread, so it need not be `Send`).
pub(crate) fn block_on<M, F>(py: Python<'_>, make: M) -> F::Output
where
    M: FnOnce() -> F + Send,
    F: std::future::Future,
    F::Output: Send,
{
    py.detach(|| runtime().block_on(make()))
}

/// `err` as the Python exception of its code (`tool_offload.errors._from_native`).
pub(crate) fn py_err(py: Python<'_>, err: OffloadError) -> PyErr {
    let path = match &err {
        OffloadError::WriteFailed { path, .. } | OffloadError::ReadFailed { path, .. } => {
            Some(path.clone())
        }
        _ => None,
    };
    raise(py, err.code().as_str(), &err.to_string(), path)
}

/// The Python exception for `code` and `message`; a `RuntimeError` when the package's
/// `errors` module cannot be imported (the extension used on its own).
pub(crate) fn raise(py: Python<'_>, code: &str, message: &str, path: Option<String>) -> PyErr {
    let made = py
        .import("tool_offload.errors")
        .and_then(|m| m.getattr("_from_native"))
        .and_then(|f| f.call1((code, message, path)));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(_) => pyo3::exceptions::PyRuntimeError::new_err(format!("{code}: {message}")),
    }
}

/// JSON text from Python as a value; `INVALID_ARGUMENT` naming `what` when it is not JSON.
pub(crate) fn parse(py: Python<'_>, text: &str, what: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| {
        let message = format!("invalid argument: {what} is not JSON: {e}");
        raise(py, ErrorCode::InvalidArgument.as_str(), &message, None)
    })
}

/// A value as JSON text for Python's `json.loads`.
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("a serde_json value always serializes")
}

/// JSON text printed again as JavaScript's `JSON.stringify` prints it (integer-like keys
/// first, `1.0` as `1`, `1e+21`): the form every host's conformance outcome is recorded in.
#[pyfunction]
fn js_stringify(py: Python<'_>, text: &str) -> PyResult<String> {
    Ok(tool_offload::json::stringify(&parse(py, text, "text")?))
}

/// The module: its functions, classes and `ERROR_CODES` (every code, as published).
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(batch::offload_tool_results, m)?)?;
    m.add_function(wrap_pyfunction!(js_stringify, m)?)?;
    m.add_class::<materializer::NativeMaterializer>()?;
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    m.add("ERROR_CODES", codes)?;
    m.add("DEFAULT_THRESHOLD", tool_offload::DEFAULT_THRESHOLD)?;
    Ok(())
}
