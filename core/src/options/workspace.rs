//! A Workspace's options, read from a host's options object.

use super::given::Given;
use super::leaves::{counts, id, invalid, object_with, optional_string, string};
use super::redaction::redaction;
use super::tools::tool_limits;
use crate::error::OffloadError;
use crate::option_keys::WORKSPACE_KEYS;
use crate::workspace::{
    JsonParser, WorkspaceOptions, DEFAULT_INLINE_LIMIT, DEFAULT_NAMESPACE, DEFAULT_TOKEN_THRESHOLD,
};

/// A Workspace's options from `options` (`{ root, namespace?, inlineLimit?, … }`; the
/// host's own keys — `writer`, `now`, `sha256`… — are the host's to read). `cwd` is the
/// working directory for `root`; `parse_json` how records are parsed (the host's
/// parser: the wasm host's is the engine's `JSON.parse`).
///
/// ```
/// use tool_offload_core::options::{workspace_options, Given};
/// use tool_offload_core::workspace::WorkspaceOptions;
/// let given = Given::from(&serde_json::json!({"root": "/w", "inlineLimit": 100}));
/// let parse = WorkspaceOptions::at("/").parse_json;
/// let options = workspace_options(&given, |_| Ok::<_, tool_offload_core::OffloadError>("/".into()), parse).unwrap();
/// assert_eq!((options.inline_limit, options.namespace.as_str()), (100, "default"));
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` (`INVALID_ID` for the namespace) naming the first option that is
/// wrong, or a key no reader knows.
pub fn workspace_options<E: From<OffloadError>>(
    options: &Given,
    cwd: impl FnOnce(&str) -> Result<String, E>,
    parse_json: JsonParser,
) -> Result<WorkspaceOptions, E> {
    // Generic only around the host's `cwd` (as `materializer_options`).
    let root = root_of(options)?;
    let cwd = cwd(&root)?;
    Ok(fields(options, root, cwd, parse_json)?)
}

fn root_of(options: &Given) -> Result<String, OffloadError> {
    object_with(
        options,
        "root and writer",
        "Workspace option",
        WORKSPACE_KEYS,
    )?;
    string(options.field("root"), "options.root")
}

fn fields(
    options: &Given,
    root: String,
    cwd: String,
    parse_json: JsonParser,
) -> Result<WorkspaceOptions, OffloadError> {
    let field = |key: &str| options.field(key);
    let mut core = WorkspaceOptions {
        cwd,
        root,
        namespace: DEFAULT_NAMESPACE.into(),
        agent_id: None,
        task_id: None,
        session_id: None,
        inline_limit: DEFAULT_INLINE_LIMIT,
        offload_tools: Vec::new(),
        tools: tool_limits(field("tools"))?,
        token_threshold: DEFAULT_TOKEN_THRESHOLD,
        redact: crate::redact::Redaction::off(),
        parse_json,
    };
    if !field("namespace").is_undefined() {
        core.namespace = id(field("namespace"), "namespace")?;
    }
    core.agent_id = optional_string(field("agentId"), "options.agentId")?;
    core.task_id = optional_string(field("taskId"), "options.taskId")?;
    core.session_id = optional_string(field("sessionId"), "options.sessionId")?;
    counts(
        options,
        &mut [
            ("inlineLimit", &mut core.inline_limit),
            ("tokenThreshold", &mut core.token_threshold),
        ],
    )?;
    core.redact = redaction(field("redact"), "options.redact")?;
    core.offload_tools = tool_names(field("offloadTools"))?;
    Ok(core)
}

/// `options.offloadTools`: the names of the tools whose results are offloaded.
fn tool_names(value: &Given) -> Result<Vec<String>, OffloadError> {
    let items = match value {
        Given::Undefined => return Ok(Vec::new()),
        Given::List(items) => items,
        other => {
            return Err(invalid(format!(
                "options.offloadTools must be an array of tool names, got {}",
                other.type_of()
            )))
        }
    };
    items
        .iter()
        .map(|name| {
            name.as_str().map(str::to_owned).ok_or_else(|| {
                invalid(format!(
                    "options.offloadTools must hold tool names (strings), got {}",
                    name.type_of()
                ))
            })
        })
        .collect()
}
