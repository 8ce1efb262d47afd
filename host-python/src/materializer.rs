//! `tool_offload.Materializer`'s native half: core's materializer on this crate's runtime.

use pyo3::prelude::*;
use tool_offload::core::materialize::{Materialized, DEFAULT_LINES};
use tool_offload::{
    ContextRef, GrepOptions, Materializer, MaterializerOptions, ToolOutputInput, Value,
};

use crate::{block_on, parse, py_err, to_json};

/// A materialized output for Python: the text for the model (a summary, or the redacted
/// output when there is no ref), the ref as JSON text, and the artifact's path.
type Outcome = (String, Option<String>, Option<String>);

/// One conversation's materializer on real files (`tool_offload.Materializer` wraps it).
#[pyclass(frozen, module = "tool_offload._native")]
pub struct NativeMaterializer {
    inner: Materializer,
}

#[pymethods]
impl NativeMaterializer {
    /// A materializer writing under `user_data` (relative: to the working directory) for
    /// `conversation_id`; `None` options keep core's defaults.
    #[new]
    // The Python constructor's keyword options, one argument each (PyO3 maps them by
    // name); options that are not plain values (`tools`, `redact`, `count_tokens`) will
    // come as their own arguments too.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (user_data, conversation_id, max_inline_chars=None, max_inline_bytes=None, snippet_lines=None, snippet_bytes=None, offload_dir=None))]
    fn new(
        py: Python<'_>,
        user_data: &str,
        conversation_id: &str,
        max_inline_chars: Option<usize>,
        max_inline_bytes: Option<usize>,
        snippet_lines: Option<usize>,
        snippet_bytes: Option<usize>,
        offload_dir: Option<String>,
    ) -> PyResult<Self> {
        let mut options = MaterializerOptions::at(user_data, conversation_id);
        if let Some(chars) = max_inline_chars {
            options.max_inline_chars = chars;
        }
        if let Some(bytes) = max_inline_bytes {
            options.max_inline_bytes = bytes;
        }
        if let Some(lines) = snippet_lines {
            options.snippet_lines = lines;
        }
        options.snippet_bytes = snippet_bytes;
        options.offload_dir = offload_dir;
        let inner = Materializer::new(options).map_err(|err| py_err(py, err))?;
        Ok(NativeMaterializer { inner })
    }

    /// The conversation this materializer writes and reads.
    #[getter]
    fn conversation_id(&self) -> &str {
        self.inner.conversation_id()
    }

    /// Materialize one output (JSON text). Returns `None` when it stays inline, or
    /// `(content, ref_json, path)`: the text for the model (a summary, or the redacted
    /// output when `ref_json` is `None`), the ref as JSON text and the artifact's path.
    #[pyo3(signature = (tool_name, tool_call_id, output, server_name=None))]
    fn materialize(
        &self,
        py: Python<'_>,
        tool_name: &str,
        tool_call_id: &str,
        output: &str,
        server_name: Option<&str>,
    ) -> PyResult<Option<Outcome>> {
        let output = parse(py, output, "output")?;
        let input = ToolOutputInput {
            tool_call_id,
            tool_name,
            server_name,
            output: &output,
        };
        let done =
            block_on(py, || self.inner.materialize(&input)).map_err(|err| py_err(py, err))?;
        Ok(match done {
            Materialized::Inline => None,
            Materialized::Redacted { content } => Some((content, None, None)),
            Materialized::Artifact {
                summary,
                reference,
                path,
            } => Some((summary, Some(ref_json(&reference)), Some(path))),
        })
    }

    /// Lines `offset..offset + limit` (default 200) of the artifact `reference`.
    #[pyo3(signature = (reference, offset=0, limit=None))]
    fn read(
        &self,
        py: Python<'_>,
        reference: &str,
        offset: usize,
        limit: Option<usize>,
    ) -> PyResult<String> {
        let limit = limit.unwrap_or(DEFAULT_LINES);
        let page = block_on(py, || self.inner.read(reference, offset, limit));
        page.map_err(|err| py_err(py, err))
    }

    /// The last `lines` (default 200) rows of the artifact `reference`.
    #[pyo3(signature = (reference, lines=None))]
    fn tail(&self, py: Python<'_>, reference: &str, lines: Option<usize>) -> PyResult<String> {
        let lines = lines.unwrap_or(DEFAULT_LINES);
        let page = block_on(py, || self.inner.tail(reference, lines));
        page.map_err(|err| py_err(py, err))
    }

    /// Rows of the artifact `reference` matching the regular expression `pattern`.
    #[pyo3(signature = (reference, pattern, ignore_case=false, context=None, max_matches=None))]
    fn grep(
        &self,
        py: Python<'_>,
        reference: &str,
        pattern: &str,
        ignore_case: bool,
        context: Option<usize>,
        max_matches: Option<usize>,
    ) -> PyResult<String> {
        let defaults = GrepOptions::default();
        let options = GrepOptions {
            context: context.unwrap_or(defaults.context),
            max_matches: max_matches.unwrap_or(defaults.max_matches),
            ignore_case,
        };
        let page = block_on(py, || self.inner.grep(reference, pattern, options));
        page.map_err(|err| py_err(py, err))
    }
}

/// A ref as the npm package gives it: `{ kind, id, hint: { toolName, serverName?,
/// toolCallId, bytes, chars, lines, isJson } }`, as JSON text.
fn ref_json(reference: &ContextRef) -> String {
    let h = &reference.hint;
    let mut hint = serde_json::Map::new();
    hint.insert("toolName".into(), h.tool_name.clone().into());
    if let Some(server) = &h.server_name {
        hint.insert("serverName".into(), server.clone().into());
    }
    hint.insert("toolCallId".into(), h.tool_call_id.clone().into());
    hint.insert("bytes".into(), h.bytes.into());
    hint.insert("chars".into(), h.chars.into());
    hint.insert("lines".into(), h.lines.into());
    hint.insert("isJson".into(), h.is_json.into());
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), "artifact".into());
    out.insert("id".into(), reference.id.clone().into());
    out.insert("hint".into(), Value::Object(hint));
    to_json(&Value::Object(out))
}
