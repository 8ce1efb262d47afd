//! `tool_offload.Workspace`'s native half: the tokio host's knowledge store on real
//! files, its SQLite index by default. Results cross as JSON text in the npm package's
//! shapes (records in snake_case, as stored).

use std::sync::Arc;

use pyo3::prelude::*;
use serde_json::json;
use tool_offload::{GrepOptions, ToolResultCall, Value, Workspace, WorkspaceOptions};
use tool_offload_core::Map;

use crate::bridge::{invalid, parse, parse_marked, py_err, run, to_json};
use crate::core_paths::{Query, ToolFormat};
use crate::messages::{changed, list};
use crate::{callback, options};

/// What `offload_tool_result` returns: `(offloaded, replacement, artifact_id, reason)`.
type Offloaded = (bool, Option<String>, Option<String>, Option<String>);

/// What `offload_messages` returns: each message after (JSON text, `None` when
/// unchanged), the artifact ids and the unrecognized results.
type OffloadedMessages = (Vec<Option<String>>, Vec<String>, Vec<String>);

/// A workspace (`tool_offload.Workspace` wraps it).
#[pyclass(frozen, module = "tool_offload._native")]
pub struct NativeWorkspace {
    pub(crate) inner: Arc<Workspace>,
}

fn workspace_options(
    root: &str,
    o: &Value,
) -> Result<WorkspaceOptions, tool_offload::OffloadError> {
    let mut out = WorkspaceOptions::at(root);
    if let Some(namespace) = options::text(o, "namespace", "")? {
        out.namespace = namespace;
    }
    out.agent_id = options::text(o, "agentId", "")?;
    out.task_id = options::text(o, "taskId", "")?;
    out.session_id = options::text(o, "sessionId", "")?;
    if let Some(n) = options::count(o, "inlineLimit", "")? {
        out.inline_limit = n;
    }
    if let Some(n) = options::count(o, "tokenThreshold", "")? {
        out.token_threshold = n;
    }
    if let Some(tools) = o.get("offloadTools").filter(|t| !t.is_null()) {
        out.offload_tools = tools
            .as_array()
            .and_then(|a| a.iter().map(|t| t.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| {
                tool_offload::OffloadError::InvalidArgument(format!(
                    "offload_tools must be a list of tool names, got {tools}"
                ))
            })?;
    }
    out.tools = options::tool_limits(o.get("tools"))?;
    out.redact = options::redaction(o.get("redact"))?;
    Ok(out)
}

/// A workspace whose index is a PostgreSQL database (`config`: a libpq connection
/// string), its namespace keyed by the workspace's.
#[cfg(feature = "postgres")]
fn postgres_workspace(
    py: Python<'_>,
    options: WorkspaceOptions,
    config: &str,
) -> PyResult<Result<Workspace, tool_offload::OffloadError>> {
    let namespace = options.namespace.clone();
    let index = run(py, || {
        tool_offload::PostgresIndex::connect(config, &namespace)
    })?;
    Ok(
        Workspace::with_io(options, tool_offload::TokioFileWriter::new())
            .map(|ws| ws.with_index(Arc::new(index))),
    )
}

/// Without the `postgres` feature: refused.
#[cfg(not(feature = "postgres"))]
fn postgres_workspace(
    py: Python<'_>,
    _options: WorkspaceOptions,
    _config: &str,
) -> PyResult<Result<Workspace, tool_offload::OffloadError>> {
    Err(invalid(
        py,
        "this build has no PostgreSQL index (the feature postgres)",
    ))
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
    /// A workspace under `root`; `options` a JSON object of the npm package's options,
    /// `index` `"sqlite"` (default) or `"none"` (queries scan the records).
    #[new]
    #[pyo3(signature = (root, options="{}", count_tokens=None, now=None, index="sqlite", postgres=None))]
    fn new(
        py: Python<'_>,
        root: &str,
        options: &str,
        count_tokens: Option<Py<PyAny>>,
        now: Option<Py<PyAny>>,
        index: &str,
        postgres: Option<&str>,
    ) -> PyResult<Self> {
        let o = parse(py, options, "options")?;
        let options = workspace_options(root, &o).map_err(|e| py_err(py, e))?;
        let mut ws = match (index, postgres) {
            ("postgres", Some(config)) => postgres_workspace(py, options, config)?,
            ("postgres", None) => {
                return Err(invalid(
                    py,
                    "index \"postgres\" needs postgres=<connection string>",
                ));
            }
            (_, Some(_)) => {
                return Err(invalid(py, "postgres= is for index=\"postgres\""));
            }
            ("sqlite", None) => Workspace::new(options),
            ("none", None) => Workspace::with_io(options, tool_offload::TokioFileWriter::new()),
            (other, None) => {
                let message =
                    format!("index must be \"sqlite\", \"postgres\" or None, got {other:?}");
                return Err(invalid(py, &message));
            }
        }
        .map_err(|e| py_err(py, e))?;
        if let Some(count) = count_tokens {
            ws = ws.with_token_counter(callback::counter(count));
        }
        if let Some(now) = now {
            ws = ws.with_clock(callback::clock(now));
        }
        Ok(NativeWorkspace {
            inner: Arc::new(ws),
        })
    }

    /// The namespace this workspace stores into.
    #[getter]
    fn namespace(&self) -> String {
        self.inner.core().options().namespace.clone()
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
        let done = run(py, || self.inner.offload_tool_result(&call))?;
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
        let stored = run(py, || self.inner.add(id, &content, kind, &metadata))?;
        let mut out = stored.record.to_value();
        out["path"] = stored.path.into();
        out["reused"] = stored.reused.into();
        Ok(to_json(&out))
    }

    /// Every tool result of a conversation decided and stored: `(messages, artifact_ids,
    /// unrecognized)`, each message JSON text or `None` when unchanged.
    fn offload_messages(&self, py: Python<'_>, messages: &str) -> PyResult<OffloadedMessages> {
        let (messages, lone) = list(py, messages)?;
        let done = run(py, || self.inner.offload_messages(&messages))?;
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
        let found = run(py, || self.inner.query_artifacts(&query))?;
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
        let found = run(py, || {
            self.inner.tool_result_offload_info(task_id, session_id)
        })?;
        let items: Vec<Value> = found
            .iter()
            .map(|i| {
                let mut out = json!({"artifact_id": i.artifact_id, "biz_id": i.biz_id, "tool_name": i.tool_name});
                if let Some(action) = &i.action_name {
                    out["action_name"] = action.clone().into();
                }
                out["chars"] = i.chars.into();
                out["bytes"] = i.bytes.into();
                out["lines"] = i.lines.into();
                out["created_at"] = i.created_at.clone().into();
                out
            })
            .collect();
        Ok(to_json(&items))
    }

    /// A knowledge artifact's record with its whole `content`, as JSON text.
    fn get_by_id(&self, py: Python<'_>, id: &str) -> PyResult<String> {
        let knowledge = run(py, || self.inner.get_by_id(id))?;
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
        let end = end.unwrap_or(start.saturating_add(199));
        run(py, || self.inner.get_by_lines(id, start, end))
    }

    /// Rows matching `pattern` in one knowledge artifact, or every one when `id` is `None`.
    #[pyo3(signature = (id, pattern, ignore_case=false, context=2, max_matches=50))]
    fn grep(
        &self,
        py: Python<'_>,
        id: Option<&str>,
        pattern: &str,
        ignore_case: bool,
        context: usize,
        max_matches: usize,
    ) -> PyResult<String> {
        let options = GrepOptions {
            context,
            max_matches,
            ignore_case,
        };
        let ws = &self.inner;
        run(py, || async move {
            match id {
                Some(id) => ws.grep(id, pattern, options).await,
                None => ws.grep_all(pattern, options).await,
            }
        })
    }

    /// Every record of the namespace with its content, as one bundle (JSON text).
    fn export_namespace(&self, py: Python<'_>) -> PyResult<String> {
        Ok(to_json(&run(py, || self.inner.export_namespace())?))
    }

    /// Restore a bundle into this namespace: the ids.
    fn import_namespace(&self, py: Python<'_>, bundle: &str) -> PyResult<Vec<String>> {
        let bundle = parse(py, bundle, "bundle")?;
        run(py, || self.inner.import_namespace(&bundle))
    }

    /// The record files the last walk over every record left out, each `(id, reason)`.
    fn skipped_records(&self) -> Vec<(String, String)> {
        self.inner.skipped_records()
    }

    /// Rebuild the index from the records (a no-op without one).
    fn rebuild_index(&self, py: Python<'_>) -> PyResult<()> {
        run(py, || self.inner.rebuild_index())
    }

    /// The knowledge tools' definitions as the `tools` array of `format` (JSON text).
    fn tool_definitions(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format = ToolFormat::parse(format).map_err(|e| py_err(py, e))?;
        Ok(to_json(&self.inner.get_tool_definitions_as(format)))
    }
}
