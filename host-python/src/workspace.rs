//! `tool_offload.Workspace`'s native half: the tokio host's knowledge store on real
//! files, its SQLite index by default. Results cross as JSON text in the npm package's
//! shapes (records in snake_case, as stored).

use pyo3::prelude::*;
use tool_offload::{ToolResultCall, Value};
use tool_offload_core::Map;

use crate::bridge::grep_options;
use crate::bridge::{invalid, parse, parse_marked, py_err, run, to_json};
use crate::callback;
use crate::core_paths::{default_end_line, OffloadInfo, Query, ToolFormat};
use crate::messages::{changed, list};
use crate::open_workspace::{open, Callbacks, Ws};
use crate::storage::{each, Location};

/// What `offload_tool_result` returns: `(offloaded, replacement, artifact_id, reason)`.
type Offloaded = (bool, Option<String>, Option<String>, Option<String>);

/// What `offload_messages` returns: each message after (JSON text, `None` when
/// unchanged), the artifact ids and the unrecognized results.
type OffloadedMessages = (Vec<Option<String>>, Vec<String>, Vec<String>);

/// A workspace (`tool_offload.Workspace` wraps it).
#[pyclass(frozen, module = "tool_offload._native")]
pub struct NativeWorkspace {
    inner: Ws,
}

/// A JSON object of metadata, when given.
fn metadata(py: Python<'_>, text: Option<&str>) -> PyResult<Option<Map<String, Value>>> {
    match text.map(|t| parse(py, t, "metadata")).transpose()? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(invalid(
            py,
            &format!("metadata must be a dict, got {other}"),
        )),
    }
}

#[pymethods]
impl NativeWorkspace {
    /// A workspace under `root` (a store's URL: its prefix's root), in `storage` (a
    /// store's URL) when given; `options` a JSON object of the npm package's options,
    /// `index` `"sqlite"` (default for files), `"postgres"` or `"none"` (queries scan the
    /// records: the default in an object store).
    #[new]
    #[pyo3(signature = (root, options="{}", count_tokens=None, now=None, index=None, postgres=None, storage=None))]
    #[allow(clippy::too_many_arguments)] // one per keyword of Workspace()
    fn new(
        py: Python<'_>,
        root: &str,
        options: &str,
        count_tokens: Option<Py<PyAny>>,
        now: Option<Py<PyAny>>,
        index: Option<&str>,
        postgres: Option<&str>,
        storage: Option<&str>,
    ) -> PyResult<Self> {
        let o = parse(py, options, "options")?;
        let location = Location::parse(py, "root", root, storage)?;
        let options =
            crate::options::workspace(&location.rooted(), &o).map_err(|e| py_err(py, e))?;
        let callbacks = Callbacks {
            count_tokens: count_tokens.map(callback::counter),
            now: now.map(callback::clock),
        };
        let inner = open(py, location, options, index, postgres, callbacks)?;
        Ok(NativeWorkspace { inner })
    }

    /// The namespace this workspace stores into.
    #[getter]
    fn namespace(&self) -> String {
        each!(Ws, &self.inner, ws => ws.core().options().namespace.clone())
    }

    /// Decide and store one tool result: `(offloaded, replacement, artifact_id, reason)`.
    #[pyo3(signature = (tool_call_id, tool_name, content, action_name=None, metadata=None))]
    fn offload_tool_result(
        &self,
        py: Python<'_>,
        tool_call_id: &str,
        tool_name: &str,
        content: &str,
        action_name: Option<&str>,
        metadata: Option<&str>,
    ) -> PyResult<Offloaded> {
        let marked = parse_marked(py, content, "content")?;
        let content = marked.lone.written(marked.value);
        let metadata = self::metadata(py, metadata)?;
        let call = ToolResultCall {
            tool_call_id,
            tool_name,
            action_name,
            content: &content,
            metadata: metadata.as_ref(),
        };
        let call = &call;
        let done = each!(Ws, &self.inner, ws => run(py, || ws.offload_tool_result(call)))?;
        let reason = done.decision.map(|d| d.reason.as_str().to_owned());
        Ok((done.offloaded, done.replacement, done.artifact_id, reason))
    }

    /// Store any knowledge: its record with `path` and `reused`, as JSON text.
    #[pyo3(signature = (id, content, kind=None, metadata=None))]
    fn add(
        &self,
        py: Python<'_>,
        id: &str,
        content: &str,
        kind: Option<&str>,
        metadata: Option<&str>,
    ) -> PyResult<String> {
        let marked = parse_marked(py, content, "content")?;
        let content = marked.lone.written(marked.value);
        let metadata = self::metadata(py, metadata)?.unwrap_or_default();
        let (content, metadata) = (&content, &metadata);
        let stored = each!(Ws, &self.inner, ws => run(py, || ws.add(id, content, kind, metadata)))?;
        let mut out = stored.record.to_value();
        out["path"] = stored.path.into();
        out["reused"] = stored.reused.into();
        Ok(to_json(&out))
    }

    /// Every tool result of a conversation decided and stored: `(messages, artifact_ids,
    /// unrecognized)`, each message JSON text or `None` when unchanged.
    fn offload_messages(&self, py: Python<'_>, messages: &str) -> PyResult<OffloadedMessages> {
        let (messages, lone) = list(py, messages)?;
        let messages = &messages;
        let done = each!(Ws, &self.inner, ws => run(py, || ws.offload_messages(messages)))?;
        let out = done.messages.into_iter().map(changed(&lone)).collect();
        Ok((out, done.artifact_ids, done.unrecognized))
    }

    /// Records whose metadata equals every field of `filter` (JSON), newest first.
    #[pyo3(signature = (filter=None, limit=None, offset=0))]
    fn query_artifacts(
        &self,
        py: Python<'_>,
        filter: Option<&str>,
        limit: Option<usize>,
        offset: usize,
    ) -> PyResult<String> {
        let filter = metadata(py, filter)?.unwrap_or_default();
        let mut query = Query::new(filter);
        query.limit = limit.unwrap_or(query.limit);
        query.offset = offset;
        let query = &query;
        let found = each!(Ws, &self.inner, ws => run(py, || ws.query_artifacts(query)))?;
        let records: Vec<Value> = found.iter().map(|r| r.to_value()).collect();
        Ok(to_json(&records))
    }

    /// The stored tool results, newest first, of a task and/or session: JSON text.
    #[pyo3(signature = (task_id=None, session_id=None))]
    fn tool_result_offload_info(
        &self,
        py: Python<'_>,
        task_id: Option<&str>,
        session_id: Option<&str>,
    ) -> PyResult<String> {
        let found = each!(Ws, &self.inner, ws => run(py, || {
            ws.tool_result_offload_info(task_id, session_id)
        }))?;
        let items: Vec<Value> = found.iter().map(OffloadInfo::to_value).collect();
        Ok(to_json(&items))
    }

    /// A knowledge artifact's record with its whole `content`, as JSON text.
    fn get_by_id(&self, py: Python<'_>, id: &str) -> PyResult<String> {
        let knowledge = each!(Ws, &self.inner, ws => run(py, || ws.get_by_id(id)))?;
        let mut out = knowledge.record.to_value();
        out["content"] = knowledge.content.into();
        Ok(to_json(&out))
    }

    /// Lines `start..=end` (1-based; `end` default `start + 199`), numbered.
    #[pyo3(signature = (id, start, end=None))]
    fn get_by_lines(
        &self,
        py: Python<'_>,
        id: &str,
        start: usize,
        end: Option<usize>,
    ) -> PyResult<String> {
        let end = end.unwrap_or_else(|| default_end_line(start));
        each!(Ws, &self.inner, ws => run(py, || ws.get_by_lines(id, start, end)))
    }

    /// Rows matching `pattern` in one knowledge artifact, or every one when `id` is `None`.
    #[pyo3(signature = (id, pattern, ignore_case=false, context=None, max_matches=None))]
    fn grep(
        &self,
        py: Python<'_>,
        id: Option<&str>,
        pattern: &str,
        ignore_case: bool,
        context: Option<usize>,
        max_matches: Option<usize>,
    ) -> PyResult<String> {
        let options = grep_options(ignore_case, context, max_matches);
        each!(Ws, &self.inner, ws => run(py, || async move {
            match id {
                Some(id) => ws.grep(id, pattern, options).await,
                None => ws.grep_all(pattern, options).await,
            }
        }))
    }

    /// Every record of the namespace with its content, as one bundle (JSON text).
    fn export_namespace(&self, py: Python<'_>) -> PyResult<String> {
        let bundle = each!(Ws, &self.inner, ws => run(py, || ws.export_namespace()))?;
        Ok(to_json(&bundle))
    }

    /// Restore a bundle into this namespace: the ids.
    fn import_namespace(&self, py: Python<'_>, bundle: &str) -> PyResult<Vec<String>> {
        let bundle = parse(py, bundle, "bundle")?;
        let bundle = &bundle;
        each!(Ws, &self.inner, ws => run(py, || ws.import_namespace(bundle)))
    }

    /// The record files the last walk over every record left out, each `(id, reason)`.
    fn skipped_records(&self) -> Vec<(String, String)> {
        each!(Ws, &self.inner, ws => ws.skipped_records())
    }

    /// Rebuild the index from the records (a no-op without one).
    fn rebuild_index(&self, py: Python<'_>) -> PyResult<()> {
        each!(Ws, &self.inner, ws => run(py, || ws.rebuild_index()))
    }

    /// The knowledge tools' definitions as the `tools` array of `format` (JSON text).
    fn tool_definitions(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format = ToolFormat::parse(format).map_err(|e| py_err(py, e))?;
        let definitions = each!(Ws, &self.inner, ws => ws.get_tool_definitions_as(format));
        Ok(to_json(&definitions))
    }
}

impl NativeWorkspace {
    /// The tokio host's workspace, on files or in a store.
    pub(crate) fn inner(&self) -> &Ws {
        &self.inner
    }
}
