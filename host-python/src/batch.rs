//! Batch offload (seed 001): `tool_offload.offload_tool_results`.

use pyo3::prelude::*;
use std::borrow::Cow;

use tool_offload::{BatchOptions, Value};

use crate::{block_on, parse, py_err, to_json};

/// What `offload_tool_results` returns to Python.
type Batch = (Vec<Option<String>>, usize, u64, Vec<String>, Vec<String>);

/// Offload every tool result of at least `threshold` UTF-16 code units in the JSON array
/// `messages` to `<output_dir>/tool-result-<id>.md`. Returns the messages after (JSON
/// text), the count offloaded, the characters freed and the files written.
#[pyfunction]
#[pyo3(signature = (messages, output_dir, threshold))]
pub fn offload_tool_results(
    py: Python<'_>,
    messages: &str,
    output_dir: &str,
    threshold: usize,
) -> PyResult<Batch> {
    let messages = match parse(py, messages, "messages")? {
        Value::Array(items) => items,
        _ => {
            let message = "invalid argument: messages must be a list";
            let code = tool_offload::ErrorCode::InvalidArgument.as_str();
            return Err(crate::raise(py, code, message, None));
        }
    };
    let options = BatchOptions {
        threshold,
        ..BatchOptions::at(output_dir)
    };
    let done = block_on(py, || async {
        let done = tool_offload::offload_tool_results_to_files(&messages, &options).await?;
        Ok::<_, tool_offload::OffloadError>((
            done.messages.into_iter().map(changed).collect(),
            done.offloaded_count,
            done.freed_chars,
            done.files,
            done.unrecognized,
        ))
    });
    done.map_err(|err| py_err(py, err))
}

/// A changed message as JSON text (serde_json's: a float stays a float, keys keep their
/// order, for Python's `json.loads`); `None` for one borrowed unchanged.
fn changed(message: Cow<'_, Value>) -> Option<String> {
    match message {
        Cow::Borrowed(_) => None,
        Cow::Owned(value) => Some(to_json(&value)),
    }
}
