//! The steps of a vector: [`Op`] and its parsing, inputs resolved.

use tool_offload_core::json::LoneSurrogates;
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
    /// `read(ref, { offset, part, limit })`, defaults applied.
    Read {
        /// `ref`.
        reference: String,
        /// `offset` (0).
        offset: usize,
        /// `part` (1).
        part: usize,
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
        /// `ref`.
        reference: String,
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
    /// `materializeMessages(messages)`.
    Messages {
        /// `messages`.
        messages: Vec<Value>,
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
            offset: n("offset", 0),
            part: n("part", 1),
            limit: n("limit", 200),
            user_data,
        },
        Some("tail") => Op::Tail {
            reference: s("ref"),
            lines: n("lines", 200),
            user_data,
        },
        Some("grep") => Op::Grep {
            reference: s("ref"),
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
        },
        Some("export") => Op::Export {
            messages: messages(),
        },
        Some("import") => Op::Import {
            bundle: step["bundle"].clone(),
            user_data,
        },
        other => panic!("{id} step {i}: unknown op {other:?}"),
    }
}
