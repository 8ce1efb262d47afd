//! `tool_offload.Materializer`'s native half: the tokio host's materializer on this
//! crate's runtime. Results cross as JSON text or tuples; `messages.rs` builds the
//! conversation-wide ones.

use std::sync::Arc;

use pyo3::prelude::*;
use tool_offload::{GcOptions, Materialized, Materializer, ToolOutputInput, ToolRegistry, Value};

use crate::bridge::{parse, parse_marked, py_err, run, to_json};
use crate::core_paths::{
    referenced, stringify, BinaryOutputRef, ToolFormat, Within, DEFAULT_LINES,
};
use crate::messages::{self, ref_json};
use crate::storage::{each, Location};
use crate::{callback, options};

/// The tokio host's materializer over local files, or over an object store.
pub(crate) enum Mat {
    Files(Arc<Materializer>),
    #[cfg(feature = "object-store")]
    Objects(Arc<Materializer<tool_offload::ObjectStoreIo>>),
}

/// A materialized output for Python: the text for the model (a summary, or the redacted
/// output when there is no ref), the ref as JSON text, and the artifact's path.
type Outcome = (String, Option<String>, Option<String>);

/// One conversation's materializer on files or in an object store
/// (`tool_offload.Materializer` wraps it).
#[pyclass(frozen, module = "tool_offload._native")]
pub struct NativeMaterializer {
    inner: Mat,
    /// `context_read`, `context_tail` and `context_grep` over this materializer, for
    /// `handle_tool_call`.
    reads: ToolRegistry,
}

#[pymethods]
impl NativeMaterializer {
    /// A materializer writing under `user_data` (relative: to the working directory; a
    /// store's URL: its prefix's root) for `conversation_id`, in `storage` (a store's
    /// URL) when given; `options` a JSON object of the npm package's options,
    /// `count_tokens` a Python callable counting a text's tokens.
    #[new]
    #[pyo3(signature = (user_data, conversation_id, options="{}", count_tokens=None, storage=None))]
    fn new(
        py: Python<'_>,
        user_data: &str,
        conversation_id: &str,
        options: &str,
        count_tokens: Option<Py<PyAny>>,
        storage: Option<&str>,
    ) -> PyResult<Self> {
        let o = parse(py, options, "options")?;
        let location = Location::parse(py, "user_data", user_data, storage)?;
        let options = options::materializer(&location.rooted(), conversation_id, &o)
            .map_err(|e| py_err(py, e))?;
        let counter = count_tokens.map(callback::counter);
        let mut reads = ToolRegistry::new();
        #[cfg(feature = "object-store")]
        if let Some(io) = location.store {
            let mut inner = Materializer::with_io(options, io).map_err(|err| py_err(py, err))?;
            if let Some(count) = counter {
                inner = inner.with_fallible_token_counter(count);
            }
            let inner = Arc::new(inner);
            inner
                .register_tools(&mut reads)
                .map_err(|e| register_err(py, e))?;
            let inner = Mat::Objects(inner);
            return Ok(NativeMaterializer { inner, reads });
        }
        let mut inner = Materializer::new(options).map_err(|err| py_err(py, err))?;
        if let Some(count) = counter {
            inner = inner.with_fallible_token_counter(count);
        }
        let inner = Arc::new(inner);
        inner
            .register_tools(&mut reads)
            .map_err(|e| register_err(py, e))?;
        let inner = Mat::Files(inner);
        Ok(NativeMaterializer { inner, reads })
    }

    /// The conversation this materializer writes and reads.
    #[getter]
    fn conversation_id(&self) -> &str {
        each!(Mat, &self.inner, m => m.conversation_id())
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
        let marked = parse_marked(py, output, "output")?;
        let output = marked.lone.written(marked.value);
        let input = ToolOutputInput {
            tool_call_id,
            tool_name,
            server_name,
            output: &output,
        };
        let done = each!(Mat, &self.inner, m => run(py, || m.materialize(&input)))?;
        Ok(outcome(done))
    }

    /// Materialize a binary output (`bytes`): always an artifact (`….bin`), its summary
    /// saying what it looks like.
    #[pyo3(signature = (tool_name, tool_call_id, output, server_name=None))]
    fn materialize_binary(
        &self,
        py: Python<'_>,
        tool_name: &str,
        tool_call_id: &str,
        output: &[u8],
        server_name: Option<&str>,
    ) -> PyResult<Option<Outcome>> {
        let input = BinaryOutputRef {
            tool_call_id,
            tool_name,
            server_name,
            bytes: output,
        };
        let done = each!(Mat, &self.inner, m => run(py, || m.materialize_binary(&input)))?;
        Ok(outcome(done))
    }

    /// An MCP `CallToolResult` (JSON): over the limits, its text becomes the summary plus
    /// a `resource_link` to the artifact (JSON text); `None` when it stays as it is.
    #[pyo3(signature = (result, tool_name, call_id, server_name=None))]
    fn materialize_call_tool_result(
        &self,
        py: Python<'_>,
        result: &str,
        tool_name: &str,
        call_id: &str,
        server_name: Option<&str>,
    ) -> PyResult<Option<String>> {
        let result = parse(py, result, "result")?;
        let result = &result;
        let done = each!(Mat, &self.inner, m => run(py, || async move {
            // The counter is made and used before the await, as host-tokio does.
            let store = {
                let counter = m.counter();
                m.core().materialize_call_tool_result(
                    result,
                    tool_name,
                    server_name,
                    call_id,
                    counter.as_deref(),
                    m.io(),
                )
            };
            store.await
        }))?;
        Ok(done.map(|value| to_json(&value)))
    }

    /// A terminal snippet's text (a JSON string, so that lone surrogates cross),
    /// materialized as `materialize` does a tool output.
    fn materialize_terminal(
        &self,
        py: Python<'_>,
        snippet_id: &str,
        text: &str,
    ) -> PyResult<Option<Outcome>> {
        let marked = parse_marked(py, text, "text")?;
        let Value::String(text) = marked.lone.written(marked.value) else {
            return Err(crate::bridge::invalid(py, "text must be a str"));
        };
        let text = &text;
        let done =
            each!(Mat, &self.inner, m => run(py, || m.materialize_terminal(snippet_id, text)))?;
        Ok(outcome(done))
    }

    /// Lines `offset..offset + limit` of the artifact `reference`, from part `part` (or
    /// character `char`) of the first, or of what the JSON path `path` selects.
    #[pyo3(signature = (reference, offset=0, limit=None, part=None, char=None, path=None))]
    #[allow(clippy::too_many_arguments)] // one per keyword of read()
    fn read(
        &self,
        py: Python<'_>,
        reference: &str,
        offset: usize,
        limit: Option<usize>,
        part: Option<usize>,
        char: Option<usize>,
        path: Option<&str>,
    ) -> PyResult<String> {
        let limit = limit.unwrap_or(DEFAULT_LINES);
        let within = match char {
            Some(c) => Within::Char(c),
            None => Within::Part(part.unwrap_or(1)),
        };
        each!(Mat, &self.inner, m => run(py, || async move {
            match path {
                Some(path) => m.read_json(reference, path, offset, within, limit).await,
                None => m.read_from(reference, offset, within, limit).await,
            }
        }))
    }

    /// The last `lines` rows of the artifact `reference`.
    #[pyo3(signature = (reference, lines=None))]
    fn tail(&self, py: Python<'_>, reference: &str, lines: Option<usize>) -> PyResult<String> {
        let lines = lines.unwrap_or(DEFAULT_LINES);
        each!(Mat, &self.inner, m => run(py, || m.tail(reference, lines)))
    }

    /// Rows of the artifact `reference` (every artifact when `None`) matching `pattern`.
    #[pyo3(signature = (reference, pattern, ignore_case=false, context=None, max_matches=None))]
    fn grep(
        &self,
        py: Python<'_>,
        reference: Option<&str>,
        pattern: &str,
        ignore_case: bool,
        context: Option<usize>,
        max_matches: Option<usize>,
    ) -> PyResult<String> {
        let options = crate::bridge::grep_options(ignore_case, context, max_matches);
        each!(Mat, &self.inner, m => run(py, || async move {
            match reference {
                Some(r) => m.grep(r, pattern, options).await,
                None => m.grep_all(pattern, options).await,
            }
        }))
    }

    /// Every tool result of the JSON array `messages` over the limits materialized:
    /// `(messages, refs_json, paths, unrecognized)`, each message JSON text or `None`
    /// when unchanged (more than given when a reminder was added).
    #[pyo3(signature = (messages, remind_unread=false))]
    fn materialize_messages(
        &self,
        py: Python<'_>,
        messages: &str,
        remind_unread: bool,
    ) -> PyResult<messages::Changed> {
        each!(Mat, &self.inner, m => messages::materialize_messages(py, m, messages, remind_unread))
    }

    /// `budget(messages, options)`: `(messages, rest_json)`; each message counted by
    /// `count_tokens` when given, else the materializer's counter, else core's estimate.
    #[pyo3(signature = (messages, options, count_tokens=None))]
    fn budget(
        &self,
        py: Python<'_>,
        messages: &str,
        options: &str,
        count_tokens: Option<Py<PyAny>>,
    ) -> PyResult<(Vec<Option<String>>, String)> {
        each!(Mat, &self.inner, m => messages::budget(py, m, messages, options, count_tokens))
    }

    /// `[{ ref, toolCallId, reads, errors }]` of the JSON array `messages`, as JSON.
    fn read_stats(&self, py: Python<'_>, messages: &str) -> PyResult<String> {
        let (messages, _) = messages::list(py, messages)?;
        let stats = each!(Mat, &self.inner, m => m.read_stats(&messages));
        let stats: Vec<Value> = (stats.iter())
            .map(|s| serde_json::json!({"ref": s.reference, "toolCallId": s.call_id, "reads": s.reads, "errors": s.errors}))
            .collect();
        Ok(to_json(&stats))
    }

    /// The refs shown in part that the model never read back.
    fn unread_refs(&self, py: Python<'_>, messages: &str) -> PyResult<Vec<String>> {
        let (messages, _) = messages::list(py, messages)?;
        Ok(each!(Mat, &self.inner, m => m.unread_refs(&messages)))
    }

    /// The bundle of `messages` and every artifact they refer to, as JSON text.
    fn export_conversation(&self, py: Python<'_>, messages: &str) -> PyResult<String> {
        let (messages, lone) = messages::list(py, messages)?;
        let bundle = each!(Mat, &self.inner, m => run(py, || m.export_conversation(&messages)))?;
        Ok(lone.text(&bundle))
    }

    /// `(hits, inlined, saved_chars, avg_saved_chars)` over this materializer's lifetime.
    fn stats(&self) -> (u64, u64, u64, f64) {
        let s = each!(Mat, &self.inner, m => m.stats());
        (s.hits, s.inlined, s.saved_chars, s.avg_saved_chars())
    }

    /// The read tools' definitions as the `tools` array of `format`, as JSON text.
    fn tool_definitions(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format = ToolFormat::parse(format).map_err(|e| py_err(py, e))?;
        let definitions = each!(Mat, &self.inner, m => m.get_tool_definitions_as(format));
        Ok(to_json(&definitions))
    }

    /// Run the read tool `name` on `input` (JSON): `(content, is_error)`. A bad argument
    /// or ref is an `is_error` result the model can act on; an unknown tool too.
    fn handle_tool_call(
        &self,
        py: Python<'_>,
        name: &str,
        input: &str,
    ) -> PyResult<(String, bool)> {
        let input = parse(py, input, "input")?;
        let done = run(py, || self.reads.execute_tool("", name, input))?;
        let value = done.to_value();
        let content = match &value["content"] {
            Value::String(s) => s.clone(),
            other => stringify(other),
        };
        Ok((content, value["is_error"] == Value::Bool(true)))
    }

    /// Retention under this materializer's user data (docs/retention.md): the report as
    /// JSON text. `keep` is a JSON array of messages whose refs stay.
    #[pyo3(signature = (older_than_ms=None, max_bytes=None, keep=None, dry_run=false, now_ms=None))]
    fn gc(
        &self,
        py: Python<'_>,
        older_than_ms: Option<u64>,
        max_bytes: Option<u64>,
        keep: Option<&str>,
        dry_run: bool,
        now_ms: Option<u64>,
    ) -> PyResult<String> {
        let keep = match keep {
            Some(text) => referenced(&parse(py, text, "keep")?),
            None => Default::default(),
        };
        let options = GcOptions {
            older_than_ms,
            max_bytes,
            keep,
            dry_run,
            now_ms: now_ms.unwrap_or_else(tool_offload::now_ms),
        };
        let options = &options;
        // As host-tokio's `Materializer::gc` (files only) does it.
        let report = each!(Mat, &self.inner, m => run(py, || {
            tool_offload::gc_dir_with(&m.core().options().user_data, options, m.io())
        }))?;
        Ok(messages::gc_report(&report))
    }
}

impl NativeMaterializer {
    /// The tokio host's materializer, on files or in a store.
    pub(crate) fn inner(&self) -> &Mat {
        &self.inner
    }
}

fn register_err(py: Python<'_>, e: crate::core_paths::RegisterError) -> PyErr {
    crate::bridge::raise(py, e.code().as_str(), &e.to_string(), None)
}

fn outcome(done: Materialized) -> Option<Outcome> {
    match done {
        Materialized::Inline => None,
        Materialized::Redacted { content } => Some((content, None, None)),
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => Some((summary, Some(ref_json(&reference)), Some(path))),
    }
}
