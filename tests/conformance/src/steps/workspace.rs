//! The workspace steps, run the same way by both Rust hosts over core's `Workspace` (the
//! tokio host's, with its SQLite index, or a bare one in memory).
//!
//! `{ op: "workspace", options }` makes the vector's workspace under `/data`: `namespace`,
//! `agentId`, `taskId`, `sessionId`, `inlineLimit`, `offloadTools`, `tools`, `tokenThreshold`,
//! `now` (ms; the clock of every later call) and `countTokens: "words"` (tokens are the
//! space-separated words). `{ op: "ws", call, … }` calls one of its methods with the
//! step's fields as the JS method takes them.

use tool_offload_core::materialize::compile_pattern;
use tool_offload_core::options::Given;
use tool_offload_core::workspace::{
    KnowledgeInput, KnowledgeRecord, KnowledgeType, OffloadInfo, Query, TokenCounter,
    ToolResultInput, Workspace, WorkspaceOptions,
};
use tool_offload_core::{apply_edits, FileReader, FileWriter, Map, OffloadError, Value};

use super::StepError;

/// A workspace step's settings that are not `WorkspaceOptions`: the clock and counter.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceClock {
    /// `now` in ms.
    pub now: f64,
    /// `countTokens: "words"`.
    pub count_words: bool,
}

/// The core options and clock of a `workspace` step, `root` the host's `/data`.
pub fn workspace_options(step: &Value, root: &str) -> (WorkspaceOptions, WorkspaceClock) {
    let o = &step["options"];
    let defaults = WorkspaceOptions::new(root, "/");
    let given = super::vector::given(o, vec![("root".into(), Given::text(root))]);
    let cwd = |_: &str| Ok::<_, OffloadError>("/".to_owned());
    let options = tool_offload_core::options::workspace_options(&given, cwd, defaults.parse_json)
        .unwrap_or_else(|e| panic!("workspace options: {e}"));
    let clock = WorkspaceClock {
        now: o.get("now").and_then(Value::as_f64).unwrap_or(0.0),
        count_words: o.get("countTokens").and_then(Value::as_str) == Some("words"),
    };
    (options, clock)
}

fn words(text: &str) -> Result<usize, OffloadError> {
    Ok(text.split(' ').count())
}

/// Run `{ op: "ws", call, … }` on `ws`; paths in results relative to `root`.
pub async fn run_call<IO: FileWriter + FileReader + ?Sized>(
    ws: &Workspace,
    clock: &WorkspaceClock,
    step: &Value,
    io: &IO,
    root: &str,
) -> Result<Value, StepError> {
    let counter: Option<&TokenCounter<'_>> = if clock.count_words {
        Some(&words)
    } else {
        None
    };
    let str_of = |key: &str| step.get(key).and_then(Value::as_str).unwrap_or_default();
    let count = |key: &str, default: usize| {
        step.get(key)
            .and_then(Value::as_u64)
            .map_or(default, |n| n as usize)
    };
    let metadata = || {
        step.get("metadata")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    Ok(match str_of("call") {
        "offloadToolResult" => {
            let content = &step["content"];
            let (text, was_value) = tool_offload_core::materialize::output_text(content);
            let input = ToolResultInput {
                tool_call_id: str_of("toolCallId"),
                tool_name: str_of("toolName"),
                action_name: step.get("actionName").and_then(Value::as_str),
                text: &text,
                is_json: was_value,
                metadata: metadata(),
                known: Default::default(),
            };
            let done = ws
                .offload_tool_result(&input, counter, clock.now, io)
                .await?;
            let mut out = Map::new();
            out.insert("offloaded".into(), done.offloaded.into());
            let shown = done
                .replacement
                .clone()
                .map_or_else(|| content.clone(), Value::String);
            out.insert("content".into(), shown);
            if let Some(id) = done.artifact_id {
                out.insert("artifactId".into(), id.into());
            }
            if let Some(decision) = done.decision {
                out.insert("reason".into(), decision.reason.as_str().into());
            }
            Value::Object(out)
        }
        "add" => {
            let content = &step["content"];
            let (text, was_value) = tool_offload_core::materialize::output_text(content);
            let kind = KnowledgeType::resolve(
                step.get("type").and_then(Value::as_str),
                !was_value,
                &text,
            )?;
            let input = KnowledgeInput {
                id: str_of("id"),
                text: &text,
                kind,
                metadata: metadata(),
                known: Default::default(),
            };
            let stored = ws.add(&input, clock.now, io).await?;
            let mut out = stored.record.to_value();
            out["path"] = relative(&stored.path, root).into();
            out["reused"] = stored.reused.into();
            out
        }
        "offloadMessages" => {
            let messages = step["messages"].as_array().cloned().unwrap_or_default();
            let views: Vec<&Value> = messages.iter().collect();
            let done = ws.offload_messages(&views, counter, clock.now, io).await?;
            let mut out = messages.clone();
            for (index, edits) in done.changed {
                apply_edits(&mut out[index], edits);
            }
            let ids: Vec<Value> = done
                .results
                .iter()
                .filter_map(|(_, r)| r.artifact_id.clone().map(Value::String))
                .collect();
            let mut result = Map::new();
            result.insert("messages".into(), Value::Array(out));
            result.insert("artifactIds".into(), Value::Array(ids));
            if !done.unrecognized.is_empty() {
                let paths = done.unrecognized.into_iter().map(Value::String).collect();
                result.insert("unrecognized".into(), Value::Array(paths));
            }
            Value::Object(result)
        }
        "queryArtifacts" => {
            let mut query = Query::new(
                step.get("filter")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default(),
            );
            query.limit = count("limit", query.limit);
            query.offset = count("offset", 0);
            records(&ws.query(&query, io).await?)
        }
        "getToolResultOffloadInfo" => {
            let task = step.get("taskId").and_then(Value::as_str);
            let session = step.get("sessionId").and_then(Value::as_str);
            let infos = ws.tool_result_offload_info(task, session, io).await?;
            Value::Array(infos.iter().map(OffloadInfo::to_value).collect())
        }
        "getById" => {
            let knowledge = ws.get_by_id(str_of("id"), io).await?;
            let mut out = knowledge.record.to_value();
            out["content"] = knowledge.content.into();
            out
        }
        "getByLines" => {
            let start = count("startLine", 0);
            let end = count("endLine", start.saturating_add(199));
            ws.get_by_lines(str_of("id"), start, end, io).await?.into()
        }
        "grep" => {
            let ignore_case = step
                .get("ignoreCase")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let pattern = compile_pattern(str_of("pattern"), ignore_case)?;
            let page = ws
                .grep(
                    str_of("id"),
                    &pattern,
                    count("context", 2),
                    count("maxMatches", 50),
                    io,
                )
                .await?;
            page.into()
        }
        "exportNamespace" => ws.export_namespace(io).await?,
        "importNamespace" => {
            let ids = ws.import_namespace(&step["bundle"], io).await?;
            Value::Array(ids.into_iter().map(Value::String).collect())
        }
        other => panic!("unknown workspace call {other:?}"),
    })
}

fn records(records: &[KnowledgeRecord]) -> Value {
    Value::Array(records.iter().map(KnowledgeRecord::to_value).collect())
}

fn relative(path: &str, root: &str) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .trim_start_matches('/')
        .to_owned()
}
