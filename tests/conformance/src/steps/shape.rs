//! Invariants of summaries and pages that hold whatever a vector expects.

use tool_offload_core::materialize::MAX_PREVIEW_CHARS;
use tool_offload_core::{utf16_len, Value};

use super::{Op, Options};

/// Invariants of summaries and pages, whatever the vector expects: a failed one adds a
/// `problems` entry to the outcome, so it cannot match.
pub(super) fn shape_problems(op: &Op, result: &Value, options: &Options, i: usize) -> Vec<String> {
    let mut problems = Vec::new();
    let max = options.core.max_inline_chars;
    let summaries: Vec<(&str, &str)> = match op {
        Op::Materialize { .. } | Op::Terminal { .. } => {
            match (result["content"].as_str(), result["ref"]["id"].as_str()) {
                (Some(s), Some(r)) if result["inline"] == Value::Bool(false) => vec![(s, r)],
                _ => vec![],
            }
        }
        Op::Messages { .. } => {
            // Each summary names its ref on its first line.
            let mut found = Vec::new();
            let refs: Vec<&str> = result["refs"]
                .as_array()
                .map(|r| r.iter().filter_map(|r| r["id"].as_str()).collect())
                .unwrap_or_default();
            visit(&result["messages"], &mut |s| {
                if let Some(r) = refs.iter().find(|r| {
                    s.lines()
                        .next()
                        .is_some_and(|l| l.contains(&format!(" stored as {r} ")))
                }) {
                    found.push((s, *r));
                }
            });
            found
        }
        _ => vec![],
    };
    for (s, reference) in summaries {
        let first = s.lines().next().unwrap_or("");
        // A JSON summary advises reading by path; a document's, a part by line; every
        // other, the tail.
        let grep = format!(" or context_grep(\"{reference}\", \"");
        let tail = format!("If you need more: context_tail(\"{reference}\", 200){grep}");
        let path = format!("If you need more: context_read(\"{reference}\", path=\"$");
        let part = format!("If you need more: context_read(\"{reference}\", offset=");
        let advice_ok =
            s.contains(&tail) || ((s.contains(&path) || s.contains(&part)) && s.contains(&grep));
        if !(first.starts_with("[Output of ")
            && first.contains(&format!(" stored as {reference} ")))
        {
            problems.push(format!("step {i}: summary does not start with its pointer"));
        }
        if !s.lines().any(|l| l.starts_with("Size: ")) {
            problems.push(format!("step {i}: summary has no Size: line"));
        }
        if !(advice_ok && s.ends_with("\", ignore_case: true).")) {
            problems.push(format!("step {i}: summary has no reading advice"));
        }
        if utf16_len(s) >= max {
            problems.push(format!(
                "step {i}: summary is {} units, not under {max}",
                utf16_len(s)
            ));
        }
        if s.lines().skip(1).any(preview_too_long) {
            problems.push(format!(
                "step {i}: summary has a preview line over {MAX_PREVIEW_CHARS} + marker"
            ));
        }
    }
    if let (Op::Read { .. } | Op::Tail { .. } | Op::Grep { .. }, Some(page)) = (op, result.as_str())
    {
        if utf16_len(page) > max {
            problems.push(format!(
                "step {i}: page is {} units, over {max}",
                utf16_len(page)
            ));
        }
    }
    problems
}

/// Whether `line` is a numbered preview line (`12| …`) longer than
/// [`MAX_PREVIEW_CHARS`] without its cut marker.
fn preview_too_long(line: &str) -> bool {
    let Some((label, text)) = line.split_once("| ") else {
        return false;
    };
    if label.is_empty() || !label.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let text = match text.rfind(" …[cut: ") {
        Some(at) if text.ends_with(" more characters]") => &text[..at],
        _ => text,
    };
    utf16_len(text) > MAX_PREVIEW_CHARS
}

fn visit<'a>(value: &'a Value, f: &mut impl FnMut(&'a str)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().for_each(|v| visit(v, f)),
        Value::Object(fields) => fields.values().for_each(|v| visit(v, f)),
        _ => {}
    }
}
