//! The tool calls of a conversation: each call's tool name and input, by call id
//! (Anthropic `tool_use` blocks, OpenAI Chat `tool_calls`, Responses `function_call`).

use std::collections::HashMap;

use crate::json::view::{JsonView, Kind, Text};

/// Tool names by call id, from the calls in the conversation: Anthropic `tool_use`
/// blocks, OpenAI Chat `tool_calls[].function.name`, OpenAI Responses `function_call`.
pub(crate) fn tool_names<V: JsonView>(messages: &[V]) -> HashMap<String, String> {
    let mut names = HashMap::new();
    each_call(messages, &mut |id, name, _| {
        names.entry(id).or_insert(name);
    });
    names
}

/// The input of the call `id` as the call gave it (the first call with that id): an
/// Anthropic `tool_use` input as its `JSON.stringify`, OpenAI Chat and Responses
/// `arguments` as they are (already JSON text).
pub(crate) fn tool_input<V: JsonView>(messages: &[V], id: &str) -> Option<String> {
    let mut found: Option<Option<V>> = None;
    each_call(messages, &mut |call, _, input| {
        if found.is_none() && call == id {
            found = Some(input);
        }
    });
    found
        .flatten()
        .filter(|v| matches!(v.kind(), Kind::String | Kind::Object | Kind::Array))
        .and_then(|v| v.text().ok().map(|t| t.to_str().into_owned()))
}

/// Every tool call of `messages` with an id and a name: its id, name and input (or
/// arguments), in order.
fn each_call<V: JsonView>(messages: &[V], found: &mut dyn FnMut(String, String, Option<V>)) {
    let mut add = |id: Option<V>, name: Option<V>, input: Option<V>| {
        // An id with a lone surrogate is never a result's id (that is INVALID_ID), so it
        // must not lend its name to the U+FFFD spelling of it.
        let id = id.filter(|v| !v.has_lone_surrogate());
        if let (Some(id), Some(name)) = (
            id.and_then(|v| v.to_owned_string()),
            name.and_then(|v| v.to_owned_string()),
        ) {
            found(id, name, input);
        }
    };
    for message in messages {
        if message
            .field("type")
            .is_some_and(|t| t.is_str("function_call"))
        {
            add(
                message.field("call_id"),
                message.field("name"),
                message.field("arguments"),
            );
        }
        for (list, kind) in [("content", "tool_use"), ("tool_calls", "function")] {
            let Some(items) = message.field(list).filter(|l| l.kind() == Kind::Array) else {
                continue;
            };
            for i in 0..items.array_len() {
                let Some(item) = items.item(i) else { continue };
                if !item.field("type").is_some_and(|t| t.is_str(kind)) {
                    continue;
                }
                let (name, input) = if kind == "function" {
                    let function = item.field("function");
                    (
                        function.as_ref().and_then(|f| f.field("name")),
                        function.and_then(|f| f.field("arguments")),
                    )
                } else {
                    (item.field("name"), item.field("input"))
                };
                add(item.field("id"), name, input);
            }
        }
    }
}
