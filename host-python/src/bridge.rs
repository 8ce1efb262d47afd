//! The bridge between Python and the tokio host: the runtime every call blocks on (the
//! GIL released), errors raised as the package's exception of their code, and JSON text
//! both ways, lone UTF-16 surrogates marked as the CLI marks them.

use std::future::Future;
use std::sync::Mutex;

use crate::core_paths::{LoneSurrogates, LoneView};
use pyo3::prelude::*;
use tool_offload::{ErrorCode, OffloadError, Value};

use crate::callback;

/// The runtime every call blocks on. Current-thread: each calling thread drives its own
/// future (concurrent calls from several Python threads are fine); file IO runs on the
/// runtime's blocking pool. One per process: a child made by `fork` (multiprocessing,
/// pre-forking servers) inherits the parent's runtime without its threads, where a call
/// would wait forever, so it gets a runtime of its own (the inherited one is leaked).
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    type Owned = Option<(u32, &'static tokio::runtime::Runtime)>;
    static RUNTIME: Mutex<Owned> = Mutex::new(None);
    let pid = std::process::id();
    let mut slot = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    match *slot {
        Some((owner, runtime)) if owner == pid => runtime,
        _ => {
            let runtime: &'static _ = Box::leak(Box::new(
                tokio::runtime::Builder::new_current_thread()
                    // Timers and sockets: the PostgreSQL index connects with a timeout.
                    .enable_all()
                    .thread_name("tool-offload")
                    .build()
                    .expect("tool-offload: cannot start the tokio runtime"),
            ));
            *slot = Some((pid, runtime));
            runtime
        }
    }
}

/// Run the future `make` returns to completion with the GIL released (the future is
/// made on the releasing thread, so it need not be `Send`).
pub(crate) fn block_on<M, F>(py: Python<'_>, make: M) -> F::Output
where
    M: FnOnce() -> F + Send,
    F: Future,
    F::Output: Send,
{
    py.detach(|| runtime().block_on(make()))
}

/// [`block_on`] for a call into the tokio host: its error raised as Python's, or what a
/// Python callback (`count_tokens`, `now`) raised during the call, which wins.
pub(crate) fn run<M, F, T>(py: Python<'_>, make: M) -> PyResult<T>
where
    M: FnOnce() -> F + Send,
    F: Future<Output = Result<T, OffloadError>>,
    T: Send,
{
    callback::clear();
    let done = block_on(py, make);
    if let Some((option, cause)) = callback::raised() {
        let message = format!("invalid argument: {option} raised: {}", cause.value(py));
        let err = raise(py, ErrorCode::InvalidArgument.as_str(), &message, None);
        err.set_cause(py, Some(cause));
        return Err(err);
    }
    done.map_err(|err| py_err(py, err))
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

/// `INVALID_ARGUMENT` with `message`.
pub(crate) fn invalid(py: Python<'_>, message: &str) -> PyErr {
    let message = format!("invalid argument: {message}");
    raise(py, ErrorCode::InvalidArgument.as_str(), &message, None)
}

/// JSON text from Python as a value; `INVALID_ARGUMENT` naming `what` when it is not JSON.
pub(crate) fn parse(py: Python<'_>, text: &str, what: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| invalid(py, &format!("{what} is not JSON: {e}")))
}

/// JSON text from Python whose lone UTF-16 surrogates (which a Python `str` holds and
/// UTF-8 cannot) come escaped (`"\ud83d"`, `json.dumps(ensure_ascii=True)`): each
/// marked with a stand-in, as the CLI reads them, so sizes and files are what the
/// JavaScript hosts measure and write.
pub(crate) struct Marked {
    pub value: Value,
    pub lone: Lone,
}

/// The stand-ins of one input's lone surrogates.
pub(crate) struct Lone(pub(crate) LoneSurrogates);

impl Lone {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub(crate) fn view<'a>(&'a self, value: &'a Value) -> LoneView<'a> {
        self.0.view(value)
    }
    /// `value` as JSON text with the stand-ins escaped again, for `json.loads`.
    pub(crate) fn text(&self, value: &Value) -> String {
        let text = to_json(value);
        match self.0.is_empty() {
            true => text,
            false => self.0.restore(&text).into_owned(),
        }
    }
    /// A string as a writer receives it: lone surrogates as U+FFFD.
    pub(crate) fn written(&self, value: Value) -> Value {
        match value {
            Value::String(s) if !self.0.is_empty() => {
                Value::String(self.0.to_written(&s).into_owned())
            }
            other => other,
        }
    }
}

pub(crate) fn parse_marked(py: Python<'_>, text: &str, what: &str) -> PyResult<Marked> {
    let (marked, lone) = LoneSurrogates::mark(text.as_bytes()).map_err(|e| py_err(py, e))?;
    let marked = std::str::from_utf8(&marked).map_err(|e| invalid(py, &e.to_string()))?;
    Ok(Marked {
        value: parse(py, marked, what)?,
        lone: Lone(lone),
    })
}

/// A value as JSON text for Python's `json.loads`.
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("a serde_json value always serializes")
}

/// `grep`'s options for a Materializer or a Workspace: core's defaults where Python gave
/// `None`.
pub(crate) fn grep_options(
    ignore_case: bool,
    context: Option<usize>,
    max_matches: Option<usize>,
) -> tool_offload::GrepOptions {
    let default = tool_offload::GrepOptions::default();
    tool_offload::GrepOptions {
        context: context.unwrap_or(default.context),
        max_matches: max_matches.unwrap_or(default.max_matches),
        ignore_case,
    }
}
