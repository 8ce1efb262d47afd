use serde_json::{json, Value};

use super::*;
use crate::forms::pointer::cleared_pointer;
use crate::forms::summary_header::summary_parts;
use crate::materialize::{is_cleared, MaterializerOptions};
use crate::tokens::estimate_tokens;
use crate::{memory::MemoryWriter, message::apply_edits};

pub(super) fn log(id: &str, lines: usize) -> String {
    (0..lines)
        .map(|i| format!("{id} line {i}: compiling crate_{i}\n"))
        .collect()
}

/// A conversation of `n` bash calls answered by logs of `lines` lines.
fn conversation(n: usize, lines: usize) -> Vec<Value> {
    let mut messages = vec![json!({"role": "user", "content": "build"})];
    for i in 0..n {
        let id = format!("call_{i}");
        messages.push(json!({"role": "assistant", "tool_calls": [
            {"id": id, "type": "function", "function": {"name": "bash", "arguments": "{}"}}]}));
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": log(&id, lines)}));
    }
    messages
}

pub(super) fn tokens(messages: &[Value]) -> Vec<usize> {
    messages
        .iter()
        .map(|m| estimate_tokens(&crate::json::stringify(m)))
        .collect()
}

pub(super) fn run(
    m: &Materializer,
    messages: &[Value],
    options: &BudgetOptions,
    fs: &MemoryWriter,
) -> Budgeted {
    let views: Vec<&Value> = messages.iter().collect();
    futures_executor::block_on(m.budget(&views, &tokens(messages), options, fs)).unwrap()
}

pub(super) fn applied(messages: &[Value], done: &Budgeted) -> Vec<Value> {
    let mut out = messages.to_vec();
    for (i, edits) in &done.changed {
        apply_edits(&mut out[*i], edits.clone());
    }
    out
}

pub(super) fn materializer() -> Materializer {
    Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap()
}

#[test]
fn under_the_trigger_nothing_changes() {
    let messages = conversation(5, 100);
    let total: usize = tokens(&messages).iter().sum();
    let done = run(
        &materializer(),
        &messages,
        &BudgetOptions::new(total),
        &MemoryWriter::new(),
    );
    assert_eq!(done.tokens_before, total);
    assert_eq!(done.tokens_after, total);
    assert!(done.changed.is_empty() && done.cleared.is_empty());
    assert_eq!(done.rewritten_from_message, None);
}

#[test]
fn oldest_first_down_to_half_the_trigger_keeping_the_last() {
    let messages = conversation(8, 200);
    let total: usize = tokens(&messages).iter().sum();
    let fs = MemoryWriter::new();
    let m = materializer();
    let options = BudgetOptions::new(total - 1);
    let done = run(&m, &messages, &options, &fs);
    let ids: Vec<String> = done
        .cleared
        .iter()
        .map(|c| c.tool_call_id.clone())
        .collect();
    // Each result is a bit under an eighth of the history: the oldest go, one after the
    // other, until it is at most half the trigger, and not one more.
    let expected: Vec<String> = (0..ids.len()).map(|i| format!("call_{i}")).collect();
    assert_eq!(ids, expected);
    assert!((4..=5).contains(&ids.len()), "{ids:?}");
    let half = options.trigger_tokens / 2;
    assert!(done.tokens_after <= half, "{}", done.tokens_after);
    assert!(done.tokens_after + done.cleared.last().unwrap().tokens > half);
    assert_eq!(done.rewritten_from_message, Some(2));
    // Every cleared result reads back byte for byte.
    for c in &done.cleared {
        let path = format!("/data/context/c1/artifacts/tool/{}.txt", c.tool_call_id);
        assert_eq!(fs.read(&path).unwrap(), log(&c.tool_call_id, 200));
        assert_eq!(c.reference, format!("ctx://c1/tool/{}.txt", c.tool_call_id));
        assert_eq!(c.chars, log(&c.tool_call_id, 200).len());
    }
    let after = applied(&messages, &done);
    assert_eq!(
        after[2]["content"],
        cleared_pointer(
            "bash",
            "call_0",
            log("call_0", 200).len(),
            "ctx://c1/tool/call_0.txt"
        )
    );
    // The last results are never cleared, however small the trigger.
    let all = run(
        &m,
        &messages,
        &BudgetOptions {
            clear_at_least_tokens: 0,
            ..BudgetOptions::new(1)
        },
        &fs,
    );
    assert_eq!(all.cleared.len(), 5, "{:?}", all.cleared);
}

#[test]
fn frozen_a_pointer_is_never_cleared_again_and_budget_is_idempotent() {
    let messages = conversation(12, 200);
    let total: usize = tokens(&messages).iter().sum();
    let m = materializer();
    let fs = MemoryWriter::new();
    let options = BudgetOptions::new(total - 1);
    let done = run(&m, &messages, &options, &fs);
    let cleared = done.cleared.len();
    assert!(
        (1..9).contains(&cleared),
        "some older results are left: {cleared}"
    );
    let first = applied(&messages, &done);
    // Under the trigger now: nothing more, whatever comes after.
    let again = run(&m, &first, &options, &fs);
    assert!(again.changed.is_empty());
    // Over it again (a lower trigger): only results not yet cleared go, oldest first,
    // and the first rewritten message is the first of those.
    let lower = BudgetOptions {
        clear_at_least_tokens: 0,
        ..BudgetOptions::new(tokens(&first).iter().sum::<usize>() - 1)
    };
    let next = run(&m, &first, &lower, &fs);
    let ids: Vec<String> = next
        .cleared
        .iter()
        .map(|c| c.tool_call_id.clone())
        .collect();
    let expected: Vec<String> = (cleared..cleared + ids.len())
        .map(|i| format!("call_{i}"))
        .collect();
    assert!(!ids.is_empty());
    assert_eq!(ids, expected);
    assert_eq!(next.rewritten_from_message, Some(2 + 2 * cleared));
}

#[test]
fn a_summary_keeps_its_ref_and_its_size() {
    let m = materializer();
    let fs = MemoryWriter::new();
    let mut messages = conversation(6, 400);
    let views: Vec<&Value> = messages.iter().collect();
    let materialized = futures_executor::block_on(m.materialize_messages(&views, &fs)).unwrap();
    for (i, edits) in materialized.changed {
        apply_edits(&mut messages[i], edits);
    }
    let stored = fs.files().len();
    let options = BudgetOptions {
        clear_at_least_tokens: 0,
        ..BudgetOptions::new(1)
    };
    let done = run(&m, &messages, &options, &fs);
    assert_eq!(done.cleared[0].reference, "ctx://c1/tool/call_0.txt");
    assert_eq!(done.cleared[0].chars, log("call_0", 400).len());
    assert!(done.stored.is_empty());
    assert_eq!(fs.files().len(), stored, "no artifact written twice");
}

#[test]
fn excluded_tools_small_savings_and_bad_counts() {
    let m = materializer();
    let fs = MemoryWriter::new();
    let messages = conversation(6, 200);
    let total: usize = tokens(&messages).iter().sum();
    let excluded = BudgetOptions {
        exclude_tools: vec!["bash".into()],
        ..BudgetOptions::new(total - 1)
    };
    assert!(run(&m, &messages, &excluded, &fs).cleared.is_empty());
    // Not worth a rewrite: nothing at all.
    let dear = BudgetOptions {
        clear_at_least_tokens: total,
        ..BudgetOptions::new(total - 1)
    };
    assert!(run(&m, &messages, &dear, &fs).changed.is_empty());
    assert!(fs.files().is_empty());
    let views: Vec<&Value> = messages.iter().collect();
    let err = futures_executor::block_on(m.budget(&views, &[1, 2], &excluded, &fs)).unwrap_err();
    assert_eq!(err.code(), crate::error::ErrorCode::InvalidArgument);
}

#[test]
fn pointers_are_recognised_and_summary_sizes_read() {
    let p = cleared_pointer("Read", "t1", 1_234_567, "ctx://c/tool/t1.txt");
    assert!(is_cleared(&p));
    assert!(!is_cleared(&format!("{p}\nmore")));
    assert!(!is_cleared("[Earlier output of x] not ours"));
    let summary = "[Output of Bash (call t1) stored as ctx://c/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 36,403 bytes, 36,401 characters, 601 lines. JSON: no.\n";
    assert_eq!(summary_parts(summary).and_then(|p| p.chars), Some(36_401));
    assert_eq!(summary_parts("no size here"), None);
}

#[test]
fn stored_forms_other_than_summaries_stay() {
    let mut messages = conversation(6, 200);
    // Long ones, each worth clearing by its size: a page read back and a knowledge list
    // stay (neither is stored again); the results after them are cleared.
    let page = format!(
        "[ctx://c1/tool/x.txt: lines 1-200 of 900. More: context_read(\"ctx://c1/tool/x.txt\", 200)]\n{}",
        log("p", 200)
    );
    let list = format!("<knowledge_list>\n{}</knowledge_list>", log("k", 200));
    messages[2]["content"] = page.clone().into();
    messages[4]["content"] = list.clone().into();
    let total: usize = tokens(&messages).iter().sum();
    let mut options = BudgetOptions::new(total - 1);
    options.keep_last = 1;
    let done = run(&materializer(), &messages, &options, &MemoryWriter::new());
    let ids: Vec<&str> = done
        .cleared
        .iter()
        .map(|c| c.tool_call_id.as_str())
        .collect();
    assert_eq!(ids[..2], ["call_2", "call_3"], "{ids:?}");
    let after = applied(&messages, &done);
    assert_eq!(after[2]["content"], page.as_str());
    assert_eq!(after[4]["content"], list.as_str());
}

#[test]
fn a_redacted_result_is_pointed_to_with_the_stored_size() {
    let mut options = MaterializerOptions::new("/data", "c1", "/");
    options.redact = true.into();
    let m = Materializer::new(options).unwrap();
    let fs = MemoryWriter::new();
    let secret = "export GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\n";
    let mut messages = conversation(4, 20);
    messages[2]["content"] = format!("{secret}{}", log("call_0", 20)).into();
    let options = BudgetOptions {
        keep_last: 1,
        clear_at_least_tokens: 0,
        ..BudgetOptions::new(1)
    };
    let done = run(&m, &messages, &options, &fs);
    let stored = fs
        .read("/data/context/c1/artifacts/tool/call_0.txt")
        .unwrap();
    assert!(!stored.contains("ghp_0123"), "{stored}");
    assert_eq!(done.cleared[0].chars, crate::text::utf16_len(&stored));
    let after = applied(&messages, &done);
    let pointer = after[2]["content"].as_str().unwrap();
    assert!(
        pointer.contains(&format!("{} chars", crate::text::thousands(stored.len()))),
        "{pointer}"
    );
}

/// Results side by side in one message (Anthropic's parallel calls) are cleared as one
/// entry of `changed` holding an edit for each, so a host applies them to that message.
#[test]
fn results_of_one_message_are_cleared_as_one_change() {
    let block =
        |id: &str| json!({"type": "tool_result", "tool_use_id": id, "content": log(id, 400)});
    let call = |id: &str| json!({"type": "tool_use", "id": id, "name": "bash", "input": {}});
    let messages = vec![
        json!({"role": "assistant", "content": [call("a"), call("b")]}),
        json!({"role": "user", "content": [block("a"), block("b")]}),
        json!({"role": "assistant", "content": [call("c")]}),
        json!({"role": "user", "content": [block("c")]}),
    ];
    let options = BudgetOptions {
        keep_last: 1,
        ..BudgetOptions::new(1_000)
    };
    let done = run(&materializer(), &messages, &options, &MemoryWriter::new());
    assert_eq!(done.cleared.len(), 2, "{done:?}");
    assert_eq!(done.changed.len(), 1, "{:?}", done.changed);
    let (message, edits) = &done.changed[0];
    assert_eq!(*message, 1);
    assert_eq!(edits.len(), 2);
    let cleared = applied(&messages, &done);
    let blocks = cleared[1]["content"].as_array().unwrap();
    assert!(
        blocks
            .iter()
            .all(|b| is_cleared(b["content"].as_str().unwrap())),
        "{blocks:?}"
    );
}
