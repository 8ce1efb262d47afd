//! What a replay reads in a conversation: where its turns are, where its tool results
//! are, and the text each message holds (what the agent said and asked for, what it was
//! shown).

use crate::json::stringify;
use crate::message::Slot;
use crate::message::{tool_results, At};
use serde_json::Value;

/// The indices of the messages that start an assistant turn: every assistant message
/// after the first message (the request at it sends every message before it). A
/// Responses item (`type` set) continues the turn of an assistant item right before it:
/// a response's reasoning, message and function calls are one turn.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::replay::turns;
/// let messages = [
///     json!({"role": "user", "content": "hi"}),
///     json!({"type": "reasoning", "summary": []}),
///     json!({"type": "function_call", "call_id": "c1", "name": "sh", "arguments": "{}"}),
///     json!({"type": "function_call_output", "call_id": "c1", "output": "ok"}),
///     json!({"role": "assistant", "content": "done"}),
/// ];
/// assert_eq!(turns(&messages), [1, 4]);
/// ```
pub fn turns(messages: &[Value]) -> Vec<usize> {
    (1..messages.len())
        .filter(|&i| {
            is_assistant(&messages[i])
                && !(messages[i].get("type").is_some() && is_assistant(&messages[i - 1]))
        })
        .collect()
}

/// Whether `message` is the agent's: an assistant message, or a Responses item the model
/// produced (a function or tool call, its reasoning).
pub(crate) fn is_assistant(message: &Value) -> bool {
    if message.get("role").and_then(Value::as_str) == Some("assistant") {
        return true;
    }
    matches!(
        message.get("type").and_then(Value::as_str),
        Some("function_call" | "custom_tool_call" | "local_shell_call" | "reasoning")
    )
}

/// One tool result: the message holding it and where in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultAt {
    /// The index of the message.
    pub message: usize,
    /// Where its content lives in that message.
    pub slot: Slot,
}

/// Every tool result of `messages`, in order, with its content. Results of no shape the
/// core knows are not counted.
pub fn results_in(messages: &[Value]) -> Vec<(ResultAt, Option<&Value>)> {
    results_with_tools(messages)
        .into_iter()
        .map(|(at, content, _)| (at, content))
        .collect()
}

/// [`results_in`] with each result's tool: the name the result itself gives, else its
/// call's (by call id), else `None`.
pub(crate) fn results_with_tools(
    messages: &[Value],
) -> Vec<(ResultAt, Option<&Value>, Option<String>)> {
    let views: Vec<&Value> = messages.iter().collect();
    let names = crate::message::tool_names(&views);
    let mut out = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        for found in tool_results(&message, At::Index(i), 0, &mut Vec::new()).unwrap_or_default() {
            let at = ResultAt {
                message: i,
                slot: found.slot,
            };
            let tool = found
                .tool_name
                .clone()
                .or_else(|| found.id().ok().and_then(|id| names.get(&id).cloned()));
            out.push((at, found.content, tool));
        }
    }
    out
}

/// The content of the tool result at `slot` of `message` (a later version of the
/// message that held it: what a policy sent instead).
pub fn content_at(message: &Value, slot: Slot) -> Option<&Value> {
    tool_results(&message, At::Alone, 0, &mut Vec::new())
        .ok()?
        .into_iter()
        .find(|found| found.slot == slot)
        .and_then(|found| found.content)
}

/// A tool result's content as the model reads it: a string as is, the `text` of an
/// array's text parts joined with newlines, anything else as `JSON.stringify` writes it,
/// nothing as empty.
pub fn content_text(content: Option<&Value>) -> String {
    match content {
        None => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match (p.get("type"), p.get("text")) {
                (Some(t), Some(Value::String(text))) if t == "text" => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => stringify(other),
    }
}

/// The string and number values of a tool call's input, in order: its keys are the
/// tool's schema, its values what the agent chose.
fn leaves(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Number(_) => out.push(stringify(value)),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// Arguments written as a JSON string (OpenAI): its leaves, or the string itself when it
/// is not JSON.
fn argument_leaves(arguments: Option<&Value>, out: &mut Vec<String>) {
    let Some(text) = arguments.and_then(Value::as_str) else {
        return;
    };
    match crate::json::parse(text) {
        Ok(value) => leaves(&value, out),
        Err(_) => out.push(text.to_owned()),
    }
}

/// The string and number values of the tool calls `message` makes (Anthropic `tool_use`
/// inputs, OpenAI Chat `tool_calls` arguments, Responses `function_call` arguments and
/// custom tool inputs), in order.
pub fn tool_call_values(message: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(Value::Array(blocks)) = message.get("content") {
        for block in blocks {
            if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                leaves(block.get("input").unwrap_or(&Value::Null), &mut out);
            }
        }
    }
    if let Some(Value::Array(calls)) = message.get("tool_calls") {
        for call in calls {
            argument_leaves(
                call.get("function").and_then(|f| f.get("arguments")),
                &mut out,
            );
        }
    }
    argument_leaves(message.get("arguments"), &mut out);
    if let Some(input) = message
        .get("input")
        .filter(|_| message.get("type").is_some())
    {
        leaves(input, &mut out);
    }
    out
}

/// What an agent message says: its text (content string, `text` and `output_text` parts).
pub fn said(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("text" | "output_text")
                )
            })
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// What an agent message says and asks for: its text ([`said`]), then its tool calls'
/// input values ([`tool_call_values`]), joined with newlines.
pub fn assistant_text(message: &Value) -> String {
    let mut parts = vec![said(message)];
    parts.extend(tool_call_values(message));
    parts.join("\n")
}

/// Every text of a message, for "did this identifier occur before?": an agent message's
/// [`assistant_text`]; else a string content, or a content's text blocks and tool
/// results; else the contents of the tool results it is.
pub fn message_text(message: &Value) -> String {
    if is_assistant(message) {
        return assistant_text(message);
    }
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => {
            let mut parts = Vec::new();
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(Value::String(text)) = block.get("text") {
                            parts.push(text.clone());
                        }
                    }
                    Some("tool_result") => parts.push(content_text(block.get("content"))),
                    _ => {}
                }
            }
            parts.join("\n")
        }
        _ => results_in(std::slice::from_ref(message))
            .into_iter()
            .map(|(_, content)| content_text(content))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}
