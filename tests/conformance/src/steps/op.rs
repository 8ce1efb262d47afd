//! The steps of a vector: [`Op`] and its parsing, inputs resolved.

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::materialize::Within;
use tool_offload_core::Value;

use super::expand::resolve;

/// One step, inputs resolved.
#[derive(Debug, Clone)]
pub enum Op {
    /// `materialize({ toolCallId, toolName, serverName?, output })`.
    Materialize {
        /// `toolCallId`.
        tool_call_id: String,
        /// `toolName`.
        tool_name: String,
        /// `serverName`.
        server_name: Option<String>,
        /// `output`: a string or any JSON value.
        output: Value,
        /// `output` as a host receives it: a string's lone surrogates (read from the
        /// vector as stand-ins) as U+FFFD, what a JS host's TextEncoder gives.
        written: Value,
    },
    /// `materializeTerminal(snippetId, text)`.
    Terminal {
        /// `snippetId`.
        snippet_id: String,
        /// `text`.
        text: String,
        /// `text` with lone surrogates as U+FFFD, as for `Materialize`.
        written: String,
    },
    /// `read(ref, { offset, part, limit, path })`, defaults applied.
    Read {
        /// `ref`.
        reference: String,
        /// `path`: a JSON path, when given.
        path: Option<String>,
        /// `offset` (0).
        offset: usize,
        /// `char` when given, else `part` (1).
        within: Within,
        /// `limit` (200).
        limit: usize,
        /// A user-data directory relative to the root, for another materializer.
        user_data: Option<String>,
    },
    /// `tail(ref, lines)`, default applied.
    Tail {
        /// `ref`.
        reference: String,
        /// `lines` (200).
        lines: usize,
        /// As in `Read`.
        user_data: Option<String>,
    },
    /// `grep(ref, pattern, { context, maxMatches, ignoreCase })`, defaults applied.
    Grep {
        /// `ref`; none: every artifact (`grepAll`).
        reference: Option<String>,
        /// `pattern`.
        pattern: String,
        /// `context` (2).
        context: usize,
        /// `maxMatches` (50).
        max_matches: usize,
        /// `ignoreCase` (false).
        ignore_case: bool,
        /// As in `Read`.
        user_data: Option<String>,
    },
    /// `materializeMessages(messages, { remindUnread? })`.
    Messages {
        /// `messages`.
        messages: Vec<Value>,
        /// `remindUnread` (false).
        remind_unread: bool,
    },
    /// `readStats(messages)`.
    ReadStats {
        /// `messages`.
        messages: Vec<Value>,
    },
    /// `unreadRefs(messages)`.
    UnreadRefs {
        /// `messages`.
        messages: Vec<Value>,
    },
    /// `budget(messages, { triggerTokens, keepLast?, clearAtLeastTokens?, excludeTools? })`,
    /// each message counted as its `JSON.stringify` by the estimate.
    Budget {
        /// `messages`.
        messages: Vec<Value>,
        /// The options.
        options: tool_offload_core::materialize::BudgetOptions,
    },
    /// `exportConversation(messages)`.
    Export {
        /// `messages`.
        messages: Vec<Value>,
    },
    /// `importConversation(bundle, { userData })`.
    Import {
        /// `bundle`.
        bundle: Value,
        /// Relative to the root; `None` for the root itself.
        user_data: Option<String>,
    },
    /// `offloadToolResult(message, sessionId, outputDir, writer, { cwd })`.
    OffloadToolResult {
        /// `message`.
        message: Value,
        /// `sessionId`.
        session_id: String,
        /// `outputDir`.
        output_dir: String,
        /// The path (file, or directory to create) the writer fails on.
        fail_on: Option<String>,
    },
    /// `offloadToolResults(messages, { outputDir, threshold, writer, cwd })`.
    OffloadToolResults {
        /// `messages`.
        messages: Vec<Value>,
        /// `outputDir`.
        output_dir: String,
        /// `threshold`.
        threshold: Option<usize>,
        /// As for `OffloadToolResult`.
        fail_on: Option<String>,
    },
    /// `new ToolRegistry(options)`: the registry later steps use.
    Registry {
        /// `options.offload` (`{ outputDir, sessionId, thresholdChars?, failOn? }`,
        /// `outputDir` absolute).
        offload: Option<RegistryOffload>,
        /// `options.materialize`: the vector's materializer.
        materialize: bool,
    },
    /// `registry.register(definition, handler)`.
    Register {
        /// `definition`: `{ name, description, input_schema }`.
        definition: Value,
        /// What the handler does.
        handler: Handler,
    },
    /// `registerTodoTools(registry)`.
    RegisterTodoTools,
    /// `materializer.registerTools(registry)`.
    RegisterReadTools,
    /// `registry.getToolDefinitions({ format })`.
    Definitions {
        /// `format`, when given.
        format: Option<String>,
    },
    /// The materializer's `stats()`: `{ hits, inlined, savedChars }`.
    Stats,
    /// `new Workspace(options)` under `/data`: the workspace later `ws` steps use (the
    /// step itself, for [`workspace_options`](super::workspace_options)).
    Workspace(Value),
    /// A workspace method (the step itself, for
    /// [`run_workspace_call`](super::run_workspace_call)).
    Ws(Value),
    /// `workspace.registerTools(registry)`.
    RegisterKnowledgeTools,
    /// `registry.executeTool(toolUseId, name, params)`.
    Execute {
        /// `toolUseId`.
        tool_use_id: String,
        /// `name`.
        name: String,
        /// `params`.
        params: Value,
    },
}

/// `options.offload` of a registry.
#[derive(Debug, Clone)]
pub struct RegistryOffload {
    /// `outputDir`: absolute, so every host reads it alike.
    pub output_dir: String,
    /// `sessionId`.
    pub session_id: String,
    /// `thresholdChars`.
    pub threshold_chars: Option<usize>,
    /// The path its writer fails on.
    pub fail_on: Option<String>,
}

/// A handler, declared: what it does when called.
#[derive(Debug, Clone)]
pub enum Handler {
    /// `{ "returns": { content, is_error? } }`: resolves to that output.
    Returns {
        /// `content`.
        content: String,
        /// `is_error`.
        is_error: bool,
    },
    /// `{ "fails": message }`: throws (JS) or returns an error (Rust) with that message.
    Fails(String),
    /// `{ "echo": true }`: resolves to `{ content: JSON.stringify(params) }`.
    Echo,
}

impl Handler {
    /// What the handler gives for `params`: its output, or its failure's message.
    pub fn call(&self, params: &Value) -> Result<(String, bool), String> {
        match self {
            Handler::Returns { content, is_error } => Ok((content.clone(), *is_error)),
            Handler::Fails(message) => Err(message.clone()),
            Handler::Echo => Ok((tool_offload_core::json::stringify(params), false)),
        }
    }
}

pub(super) fn parse_op(
    step: &Value,
    actual: &[Value],
    id: &str,
    i: usize,
    lone: &LoneSurrogates,
) -> Op {
    let step = resolve(step, actual, false).expect("inputs hold no $core");
    let s = |key: &str| {
        step[key]
            .as_str()
            .unwrap_or_else(|| panic!("{id} step {i}: {key}"))
            .to_owned()
    };
    let n = |key: &str, default: usize| {
        step.get(key)
            .map_or(default, |v| v.as_u64().expect("a count") as usize)
    };
    let opt_s = |key: &str| step.get(key).and_then(Value::as_str).map(str::to_owned);
    let user_data = step
        .get("userData")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let messages = || {
        step["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("{id} step {i}: messages"))
            .clone()
    };
    match step["op"].as_str() {
        Some("materialize") => Op::Materialize {
            tool_call_id: s("toolCallId"),
            tool_name: s("toolName"),
            server_name: step
                .get("serverName")
                .and_then(Value::as_str)
                .map(str::to_owned),
            output: step["output"].clone(),
            written: match &step["output"] {
                Value::String(text) => Value::String(lone.to_written(text).into_owned()),
                other => other.clone(),
            },
        },
        Some("terminal") => Op::Terminal {
            snippet_id: s("snippetId"),
            text: s("text"),
            written: lone.to_written(&s("text")).into_owned(),
        },
        Some("read") => Op::Read {
            reference: s("ref"),
            path: opt_s("path"),
            offset: n("offset", 0),
            within: match step.get("char") {
                Some(_) => Within::Char(n("char", 0)),
                None => Within::Part(n("part", 1)),
            },
            limit: n("limit", 200),
            user_data,
        },
        Some("tail") => Op::Tail {
            reference: s("ref"),
            lines: n("lines", 200),
            user_data,
        },
        Some("grep") => Op::Grep {
            reference: opt_s("ref"),
            pattern: s("pattern"),
            context: n("context", 2),
            max_matches: n("maxMatches", 50),
            ignore_case: step
                .get("ignoreCase")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            user_data,
        },
        Some("materializeMessages") => Op::Messages {
            messages: messages(),
            remind_unread: step
                .get("remindUnread")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        },
        Some("readStats") => Op::ReadStats {
            messages: messages(),
        },
        Some("unreadRefs") => Op::UnreadRefs {
            messages: messages(),
        },
        Some("budget") => Op::Budget {
            messages: messages(),
            options: {
                let n = |key: &str| step.get(key).map(|v| v.as_u64().expect("a count") as usize);
                let mut o = tool_offload_core::materialize::BudgetOptions::new(
                    n("triggerTokens").expect("budget: triggerTokens"),
                );
                o.keep_last = n("keepLast").unwrap_or(o.keep_last);
                o.clear_at_least_tokens =
                    n("clearAtLeastTokens").unwrap_or(o.clear_at_least_tokens);
                o.exclude_tools = step
                    .get("excludeTools")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|t| t.as_str().expect("a tool name").to_owned())
                            .collect()
                    })
                    .unwrap_or_default();
                o
            },
        },
        Some("export") => Op::Export {
            messages: messages(),
        },
        Some("import") => Op::Import {
            bundle: step["bundle"].clone(),
            user_data,
        },
        Some("offloadToolResult") => Op::OffloadToolResult {
            message: step["message"].clone(),
            session_id: s("sessionId"),
            output_dir: s("outputDir"),
            fail_on: opt_s("failOn"),
        },
        Some("offloadToolResults") => Op::OffloadToolResults {
            messages: messages(),
            output_dir: s("outputDir"),
            threshold: step
                .get("threshold")
                .map(|v| v.as_u64().expect("a count") as usize),
            fail_on: opt_s("failOn"),
        },
        Some("registry") => Op::Registry {
            offload: step.get("offload").map(|o| RegistryOffload {
                output_dir: o["outputDir"].as_str().expect("offload.outputDir").into(),
                session_id: o["sessionId"].as_str().expect("offload.sessionId").into(),
                threshold_chars: o
                    .get("thresholdChars")
                    .map(|v| v.as_u64().expect("a count") as usize),
                fail_on: o.get("failOn").and_then(Value::as_str).map(str::to_owned),
            }),
            materialize: step.get("materialize") == Some(&Value::Bool(true)),
        },
        Some("register") => Op::Register {
            definition: step["definition"].clone(),
            handler: handler(&step["handler"], id, i),
        },
        Some("registerTodoTools") => Op::RegisterTodoTools,
        Some("registerReadTools") => Op::RegisterReadTools,
        Some("definitions") => Op::Definitions {
            format: step
                .get("format")
                .and_then(Value::as_str)
                .map(str::to_owned),
        },
        Some("stats") => Op::Stats,
        Some("workspace") => Op::Workspace(step.clone()),
        Some("ws") => Op::Ws(step.clone()),
        Some("registerKnowledgeTools") => Op::RegisterKnowledgeTools,
        Some("execute") => Op::Execute {
            tool_use_id: s("toolUseId"),
            name: s("name"),
            params: step.get("params").cloned().unwrap_or(Value::Null),
        },
        other => panic!("{id} step {i}: unknown op {other:?}"),
    }
}

fn handler(spec: &Value, id: &str, i: usize) -> Handler {
    if let Some(output) = spec.get("returns") {
        return Handler::Returns {
            content: output["content"]
                .as_str()
                .unwrap_or_else(|| panic!("{id} step {i}: handler.returns.content"))
                .to_owned(),
            is_error: output.get("is_error") == Some(&Value::Bool(true)),
        };
    }
    if let Some(message) = spec.get("fails").and_then(Value::as_str) {
        return Handler::Fails(message.to_owned());
    }
    if spec.get("echo") == Some(&Value::Bool(true)) {
        return Handler::Echo;
    }
    panic!("{id} step {i}: unknown handler {spec}")
}
