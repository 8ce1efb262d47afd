//! Results in canonical form, as the JavaScript API gives them, paths relative to the
//! root.

use std::collections::BTreeMap;
use std::path::Path;

use tool_offload_core::materialize::{ContextRef, Materialized};
use tool_offload_core::{Map, Value};

/// `path` relative to `root` (`<root>/…`); marked when outside it, so it cannot match.
pub fn relative(path: &str, root: &str) -> String {
    match path.strip_prefix(root).and_then(|p| p.strip_prefix('/')) {
        Some(rel) => rel.to_owned(),
        None => format!("OUTSIDE THE ROOT: {path}"),
    }
}

/// A ref as the vectors pin it: core's `ContextRef::to_value` without the hint's
/// `redacted` counts (the vectors predate them; every runner drops them alike).
pub fn context_ref(reference: &ContextRef) -> Value {
    let mut out = reference.to_value();
    if let Some(hint) = out["hint"].as_object_mut() {
        hint.shift_remove("redacted");
    }
    out
}

/// The result of `materialize` / `materializeTerminal`: `{ inline: true, content }` with
/// the output given, or `{ inline: false, content, ref, path }`.
pub fn materialized(done: &Materialized, output: &Value, root: &str) -> Value {
    let mut out = Map::new();
    match done {
        Materialized::Inline => {
            out.insert("inline".into(), true.into());
            out.insert("content".into(), output.clone());
        }
        Materialized::Redacted { content } => {
            out.insert("inline".into(), true.into());
            out.insert("content".into(), content.clone().into());
        }
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => {
            out.insert("inline".into(), false.into());
            out.insert("content".into(), summary.clone().into());
            out.insert("ref".into(), context_ref(reference));
            out.insert("path".into(), relative(path, root).into());
        }
    }
    Value::Object(out)
}

/// The result of `materializeMessages`: `{ messages, refs, paths }`, and `unrecognized`
/// when there are any.
/// What `readStats` returns: `[{ ref, toolCallId, reads, errors }]`.
pub fn read_stats_result(stats: &[tool_offload_core::audit::ShownRef]) -> Value {
    stats
        .iter()
        .map(|s| {
            let mut item = Map::new();
            item.insert("ref".into(), s.reference.clone().into());
            item.insert("toolCallId".into(), s.call_id.clone().into());
            item.insert("reads".into(), s.reads.into());
            item.insert("errors".into(), s.errors.into());
            Value::Object(item)
        })
        .collect()
}

/// What `budget` resolves to, as the vectors pin it: the messages, the results cleared
/// (`{ message, toolCallId, toolName, ref, chars }`: the token counts are each host's
/// counter's), where the cached prefix was rewritten, and the artifacts stored.
pub fn budget_result(
    messages: Vec<Value>,
    cleared: &[tool_offload_core::materialize::Cleared],
    rewritten_from_message: Option<usize>,
    stored: &[(ContextRef, String)],
    root: &str,
) -> Value {
    let mut out = Map::new();
    out.insert("messages".into(), Value::Array(messages));
    let cleared: Vec<Value> = cleared
        .iter()
        .map(|c| {
            let mut item = Map::new();
            item.insert("message".into(), c.message.into());
            item.insert("toolCallId".into(), c.tool_call_id.clone().into());
            item.insert("toolName".into(), c.tool_name.clone().into());
            item.insert("ref".into(), c.reference.clone().into());
            item.insert("chars".into(), c.chars.into());
            Value::Object(item)
        })
        .collect();
    out.insert("cleared".into(), Value::Array(cleared));
    out.insert(
        "rewrittenFromMessage".into(),
        rewritten_from_message.map_or(Value::Null, Value::from),
    );
    out.insert(
        "refs".into(),
        stored.iter().map(|(r, _)| context_ref(r)).collect(),
    );
    out.insert(
        "paths".into(),
        stored
            .iter()
            .map(|(_, p)| Value::from(relative(p, root)))
            .collect(),
    );
    Value::Object(out)
}

pub fn messages_result(
    messages: Vec<Value>,
    refs: &[ContextRef],
    paths: &[String],
    unrecognized: &[String],
    root: &str,
) -> Value {
    let mut out = Map::new();
    out.insert("messages".into(), Value::Array(messages));
    out.insert("refs".into(), refs.iter().map(context_ref).collect());
    out.insert(
        "paths".into(),
        paths
            .iter()
            .map(|p| Value::from(relative(p, root)))
            .collect(),
    );
    if !unrecognized.is_empty() {
        out.insert(
            "unrecognized".into(),
            unrecognized.iter().cloned().collect(),
        );
    }
    Value::Object(out)
}

/// The result of `importConversation`: `{ conversationId, messages, paths }`.
pub fn imported_result(
    conversation_id: &str,
    messages: Value,
    paths: &[String],
    root: &str,
) -> Value {
    let mut out = Map::new();
    out.insert("conversationId".into(), conversation_id.into());
    out.insert("messages".into(), messages);
    out.insert(
        "paths".into(),
        paths
            .iter()
            .map(|p| Value::from(relative(p, root)))
            .collect(),
    );
    Value::Object(out)
}

/// A bundle in canonical form: `{ format, version, conversationId, messages,
/// artifacts: [{ ref, path, sha256, content }] }`, other keys after them.
pub fn bundle_result(bundle: &Value) -> Value {
    let mut out = Map::new();
    for key in ["format", "version", "conversationId", "messages"] {
        out.insert(key.into(), bundle.get(key).cloned().unwrap_or(Value::Null));
    }
    let artifacts = bundle["artifacts"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|a| {
                    let mut o = Map::new();
                    for key in ["ref", "path", "sha256", "content"] {
                        o.insert(key.into(), a.get(key).cloned().unwrap_or(Value::Null));
                    }
                    Value::Object(o)
                })
                .collect()
        })
        .unwrap_or(Value::Null);
    out.insert("artifacts".into(), artifacts);
    if let Some(fields) = bundle.as_object() {
        for (k, v) in fields {
            if !out.contains_key(k) {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// Files under a real `root` standing for `/`, by virtual absolute path.
pub fn files_under(root: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    crate::collect(root, root, &mut found);
    found
}
