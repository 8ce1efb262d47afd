//! Conversation-wide calls of the materializer (`materialize_messages`, `budget`,
//! `read_stats`, import) and their results as JSON text for the Python package, in the
//! npm package's names (camelCase), which the package turns into its dataclasses.

use std::borrow::Cow;

use pyo3::prelude::*;
use serde_json::json;
use tool_offload::{
    BudgetOptions, ContextRef, FileReader, FileWriter, GcReport, MaterializeMessagesOptions,
    Materializer, Value,
};

use crate::bridge::{invalid, parse, parse_marked, run, to_json, Lone, Marked};

/// What `materialize_messages` returns to Python: the messages after (JSON text, `None`
/// when unchanged), the refs written (JSON), their paths and the unrecognized results.
pub(crate) type Changed = (Vec<Option<String>>, String, Vec<String>, Vec<String>);

/// The JSON array `text` as messages, with the stand-ins of its lone surrogates;
/// `INVALID_ARGUMENT` when it is not a list. (The conversation calls of the tokio host
/// take values, not views: an artifact stores a stand-in where a JavaScript host writes
/// U+FFFD; messages come back with the surrogates restored.)
pub(crate) fn list(py: Python<'_>, text: &str) -> PyResult<(Vec<Value>, Lone)> {
    let Marked { value, lone } = parse_marked(py, text, "messages")?;
    match value {
        Value::Array(items) => Ok((items, lone)),
        _ => Err(invalid(py, "messages must be a list")),
    }
}

/// A changed message as JSON text, lone surrogates restored; `None` for one borrowed
/// unchanged.
pub(crate) fn changed(lone: &Lone) -> impl Fn(Cow<'_, Value>) -> Option<String> + '_ {
    move |message| match message {
        Cow::Borrowed(_) => None,
        Cow::Owned(value) => Some(lone.text(&value)),
    }
}

pub(crate) fn materialize_messages<IO: FileWriter + FileReader + Send + Sync>(
    py: Python<'_>,
    m: &Materializer<IO>,
    messages: &str,
    remind_unread: bool,
) -> PyResult<Changed> {
    let (messages, lone) = list(py, messages)?;
    let mut options = MaterializeMessagesOptions::default();
    options.remind_unread = remind_unread;
    let done = run(py, || m.materialize_messages_with(&messages, &options))?;
    let refs: Vec<Value> = done.refs.iter().map(ref_value).collect();
    Ok((
        done.messages.into_iter().map(changed(&lone)).collect(),
        to_json(&refs),
        done.paths,
        done.unrecognized,
    ))
}

/// `budget(messages, { triggerTokens, keepLast?, clearAtLeastTokens?, excludeTools? })`.
pub(crate) fn budget<IO: FileWriter + FileReader + Send + Sync>(
    py: Python<'_>,
    m: &Materializer<IO>,
    messages: &str,
    options: &str,
    count_tokens: Option<Py<PyAny>>,
) -> PyResult<(Vec<Option<String>>, String)> {
    let (messages, lone) = list(py, messages)?;
    let o = parse(py, options, "options")?;
    let count =
        |key: &str| crate::options::count(&o, key, "").map_err(|e| crate::bridge::py_err(py, e));
    let trigger =
        count("triggerTokens")?.ok_or_else(|| invalid(py, "trigger_tokens is missing"))?;
    let mut options = BudgetOptions::new(trigger);
    options.keep_last = count("keepLast")?.unwrap_or(options.keep_last);
    options.clear_at_least_tokens =
        count("clearAtLeastTokens")?.unwrap_or(options.clear_at_least_tokens);
    if let Some(tools) = o.get("excludeTools").and_then(Value::as_array) {
        options.exclude_tools = tools
            .iter()
            .map(|t| t.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| invalid(py, "exclude_tools must be a list of tool names"))?;
    }
    let done = match count_tokens {
        None => run(py, || m.budget(&messages, &options))?,
        Some(count) => {
            let count = crate::callback::counter(count);
            run(py, || {
                m.try_budget_counted(&messages, &options, move |t| count(t))
            })?
        }
    };
    let cleared: Vec<Value> = done.cleared.iter().map(|c| c.to_value()).collect();
    let rest = json!({
        "cleared": cleared,
        "tokensBefore": done.tokens_before,
        "tokensAfter": done.tokens_after,
        "rewrittenFromMessage": done.rewritten_from_message,
        "refs": done.stored.iter().map(|(r, _)| ref_value(r)).collect::<Vec<_>>(),
        "paths": done.stored.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
    });
    let out = done.messages.into_iter().map(changed(&lone)).collect();
    Ok((out, to_json(&rest)))
}

/// A gc report as JSON text: `{ removed, bytes, kept, keptBytes }`.
pub(crate) fn gc_report(r: &GcReport) -> String {
    to_json(&r.to_value())
}

/// A ref as the npm package gives it (core's `ContextRef::to_value`).
pub(crate) fn ref_value(reference: &ContextRef) -> Value {
    reference.to_value()
}

/// [`ref_value`] as JSON text.
pub(crate) fn ref_json(reference: &ContextRef) -> String {
    to_json(&ref_value(reference))
}

/// Restore a bundle (JSON text) under `user_data` (in `storage`, a store's URL, when
/// given): `(conversation_id, messages_json, paths)`.
#[pyfunction]
#[pyo3(signature = (bundle, user_data, storage=None))]
pub fn import_conversation(
    py: Python<'_>,
    bundle: &str,
    user_data: &str,
    storage: Option<&str>,
) -> PyResult<(String, String, Vec<String>)> {
    let bundle = parse(py, bundle, "bundle")?;
    let location = crate::storage::Location::parse(py, "user_data", user_data, storage)?;
    let (io, dir) = (location.io(), location.rooted());
    let done = run(py, || {
        tool_offload::import_conversation_with(&bundle, &dir, &io)
    })?;
    Ok((done.conversation_id, to_json(&done.messages), done.paths))
}
