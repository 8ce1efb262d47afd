//! The offload steps (`offloadToolResult`, `offloadToolResults`) through core with a
//! host's writer: both native hosts run them this way, with their own writer.

use std::borrow::Cow;
use std::sync::atomic::Ordering;

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::{json, BatchOptions, FileReader, FileWriter, Map, OffloadError, Value};

use super::Op;
use crate::Failing;

/// Run an offload step with `writer` (made to fail on the step's `failOn` path) in the
/// virtual working directory `cwd`; the result in canonical form. `problems` gains what
/// no result shows: a directory created although nothing was written (`files_empty`
/// tells whether no file exists afterwards), an unchanged message handed back copied or
/// a changed one borrowed.
///
/// # Panics
/// On an op that is not an offload step.
pub async fn offload<W: FileWriter + FileReader>(
    op: &Op,
    writer: W,
    cwd: &str,
    lone: &LoneSurrogates,
    files_empty: impl FnOnce() -> bool,
    problems: &mut Vec<String>,
) -> Result<Value, OffloadError> {
    let fail_on = match op {
        Op::OffloadToolResult { fail_on, .. } | Op::OffloadToolResults { fail_on, .. } => fail_on,
        _ => panic!("not an offload step"),
    };
    let writer = Failing::new(writer, fail_on.clone());
    let result = run(op, &writer, cwd, lone, problems).await;
    let mkdirs = writer.mkdirs.load(Ordering::SeqCst);
    let write_failed = matches!(&result, Err(e) if matches!(e, OffloadError::WriteFailed { .. }));
    if mkdirs > 0 && !write_failed && files_empty() {
        problems.push(format!(
            "{mkdirs} directories created although nothing was written"
        ));
    }
    result
}

async fn run<W: FileWriter + FileReader>(
    op: &Op,
    writer: &W,
    cwd: &str,
    lone: &LoneSurrogates,
    problems: &mut Vec<String>,
) -> Result<Value, OffloadError> {
    let mut out = Map::new();
    match op {
        Op::OffloadToolResult {
            message,
            session_id,
            output_dir,
            ..
        } => {
            let done = if lone.is_empty() {
                tool_offload_core::offload_tool_result(message, session_id, output_dir, cwd, writer)
                    .await?
            } else {
                let view = lone.view(message);
                tool_offload_core::offload_tool_result_through(
                    message, view, session_id, output_dir, cwd, writer,
                )
                .await?
            };
            out.insert("message".into(), done.message);
            out.insert("freedChars".into(), done.freed_chars.into());
            out.insert("file".into(), done.file.into());
            out.insert("files".into(), strings(done.files));
        }
        Op::OffloadToolResults {
            messages,
            output_dir,
            threshold,
            ..
        } => {
            let mut options = BatchOptions::new(output_dir, cwd);
            if let Some(threshold) = threshold {
                options.threshold = *threshold;
            }
            let done = if lone.is_empty() {
                tool_offload_core::offload_tool_results(messages, &options, writer).await?
            } else {
                let view = |m| lone.view(m);
                tool_offload_core::offload_tool_results_through(messages, view, &options, writer)
                    .await?
            };
            problems.extend(identity_problems(messages, &done.messages));
            let copies = done.messages.into_iter().map(Cow::into_owned).collect();
            out.insert("messages".into(), Value::Array(copies));
            out.insert("offloadedCount".into(), done.offloaded_count.into());
            out.insert("freedChars".into(), done.freed_chars.into());
            out.insert("files".into(), strings(done.files));
            if !done.unrecognized.is_empty() {
                out.insert("unrecognized".into(), strings(done.unrecognized));
            }
        }
        _ => panic!("not an offload step"),
    }
    Ok(Value::Object(out))
}

/// Unchanged messages must come back borrowed from the input, changed ones as copies.
fn identity_problems(input: &[Value], got: &[Cow<'_, Value>]) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, (original, result)) in input.iter().zip(got).enumerate() {
        let changed = json::stringify(result) != json::stringify(original);
        match (changed, result) {
            (false, Cow::Borrowed(b)) if std::ptr::eq(*b, original) => {}
            (false, _) => problems.push(format!("messages[{i}] is unchanged but not borrowed")),
            (true, Cow::Borrowed(_)) => {
                problems.push(format!("messages[{i}] is changed but borrowed"))
            }
            (true, Cow::Owned(_)) => {}
        }
    }
    problems
}

fn strings(items: Vec<String>) -> Value {
    items.into_iter().map(Value::from).collect()
}
