//! Direct and batch offload (seeds 000 and 001): `tool_offload.offload_tool_result` and
//! `offload_tool_results`.

use pyo3::prelude::*;
use tool_offload::{BatchOptions, OffloadError, Value};
use tool_offload_core::DirectOptions;

use crate::bridge::{invalid, parse_marked, run, Marked};
use crate::messages::changed;
use crate::options;
use crate::storage::Location;
use crate::writer::Writer;

/// What `offload_tool_results` returns to Python: each message after (JSON text, `None`
/// when unchanged), the count offloaded, the characters freed, the files written and the
/// unrecognized results.
type Batch = (Vec<Option<String>>, usize, u64, Vec<String>, Vec<String>);

/// The directory `output_dir` resolves against: `cwd`, else the process's.
fn cwd_for(cwd: Option<String>, output_dir: &str) -> Result<String, OffloadError> {
    match cwd {
        Some(cwd) => Ok(cwd),
        None => tool_offload::working_dir_for(output_dir),
    }
}

/// Offload every tool result of at least `threshold` UTF-16 code units in the JSON array
/// `messages` to `<output_dir>/tool-result-<id>.md` (in `storage`, a store's URL, when given).
#[pyfunction]
#[pyo3(signature = (messages, output_dir, threshold, cwd=None, redact=None, storage=None, fail_on=None, root=None))]
#[allow(clippy::too_many_arguments)] // the keywords, and the test suite's fail_on and root
pub fn offload_tool_results(
    py: Python<'_>,
    messages: &str,
    output_dir: &str,
    threshold: usize,
    cwd: Option<String>,
    redact: Option<&str>,
    storage: Option<&str>,
    fail_on: Option<String>,
    root: Option<String>,
) -> PyResult<Batch> {
    let Marked { value, lone } = parse_marked(py, messages, "messages")?;
    let Value::Array(messages) = value else {
        return Err(invalid(py, "messages must be a list"));
    };
    let redact = match redact {
        Some(text) => options::redaction(Some(&crate::bridge::parse(py, text, "redact")?)),
        None => Ok(Default::default()),
    };
    let location = Location::parse(py, "output_dir", output_dir, storage)?;
    let (output_dir, cwd) = (location.dir.as_str(), location.cwd(cwd));
    let writer = Writer::new(location.io(), fail_on, root);
    run(py, || async {
        let cwd = cwd_for(cwd, output_dir)?;
        let options = BatchOptions {
            threshold,
            redact: redact?,
            ..BatchOptions::new(output_dir, &cwd)
        };
        let done = match lone.is_empty() {
            true => tool_offload_core::offload_tool_results(&messages, &options, &writer).await?,
            false => {
                let view = |m| lone.view(m);
                tool_offload_core::offload_tool_results_through(&messages, view, &options, &writer)
                    .await?
            }
        };
        Ok((
            done.messages.into_iter().map(changed(&lone)).collect(),
            done.offloaded_count,
            done.freed_chars,
            done.files,
            done.unrecognized,
        ))
    })
}

/// What `offload_tool_result` returns: the message after (JSON text), the characters
/// freed, the first file and every file written.
type Direct = (String, i64, String, Vec<String>);

/// Offload every tool result of one message to `<output_dir>/<session_id>/<id>.md`.
#[pyfunction]
#[pyo3(signature = (message, session_id, output_dir, cwd=None, redact=None, storage=None, fail_on=None, root=None))]
#[allow(clippy::too_many_arguments)] // the keywords, and the test suite's fail_on and root
pub fn offload_tool_result(
    py: Python<'_>,
    message: &str,
    session_id: &str,
    output_dir: &str,
    cwd: Option<String>,
    redact: Option<&str>,
    storage: Option<&str>,
    fail_on: Option<String>,
    root: Option<String>,
) -> PyResult<Direct> {
    let Marked { value, lone } = parse_marked(py, message, "message")?;
    let redact = match redact {
        Some(text) => options::redaction(Some(&crate::bridge::parse(py, text, "redact")?)),
        None => Ok(Default::default()),
    };
    let location = Location::parse(py, "output_dir", output_dir, storage)?;
    let (output_dir, cwd) = (location.dir.as_str(), location.cwd(cwd));
    let writer = Writer::new(location.io(), fail_on, root);
    run(py, || async {
        let cwd = cwd_for(cwd, output_dir)?;
        let options = DirectOptions {
            redact: redact?,
            ..DirectOptions::new(session_id, output_dir, &cwd)
        };
        let view = lone.view(&value);
        let done =
            tool_offload_core::offload_tool_result_with(&value, view, &options, &writer).await?;
        Ok((
            lone.text(&done.message),
            done.freed_chars,
            done.file,
            done.files,
        ))
    })
}
