//! The budget and pages the read tools returned: cleared to the call that returns them.

use serde_json::{json, Value};

use super::tests::{applied, log, materializer, run, tokens};
use super::*;
use crate::forms::stored_form::StoredForm;
use crate::limits::budget::Cleared;
use crate::materialize::is_cleared;
use crate::memory::MemoryWriter;

/// A 4,000-line artifact read back page by page with `context_read`, as a model that
/// follows the summary's advice does (issue 48's repro).
fn reading_back(pages: usize) -> (Materializer, MemoryWriter, Vec<Value>) {
    let m = materializer();
    let fs = MemoryWriter::new();
    let output = log("big", 4_000);
    let first = futures_executor::block_on(m.materialize(
        &crate::materialize::ToolOutputRef {
            tool_call_id: "t0",
            tool_name: "bash",
            server_name: None,
            text: &output,
            was_value: false,
        },
        &fs,
    ))
    .unwrap();
    let Materialized::Artifact {
        reference,
        summary: content,
        ..
    } = first
    else {
        panic!("materialized inline")
    };
    let mut messages = vec![
        json!({"role": "user", "content": "build"}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t0", "name": "bash", "input": {"command": "make"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t0", "content": content}]}),
    ];
    for page in 0..pages {
        let (id, offset) = (format!("r{page}"), page * 200);
        let text = futures_executor::block_on(m.read(&reference.id, offset, 200, &fs)).unwrap();
        messages.push(json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "context_read",
            "input": {"ref": reference.id, "offset": offset, "limit": 200}}]}));
        messages.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text}]}));
    }
    (m, fs, messages)
}

#[test]
fn pages_read_back_are_cleared_to_the_call_that_returns_them() {
    let (m, fs, messages) = reading_back(12);
    let before: usize = tokens(&messages).iter().sum();
    let options = BudgetOptions {
        keep_last: 2,
        ..BudgetOptions::new(8_000)
    };
    assert!(before > 2 * 8_000, "{before}");
    let done = run(&m, &messages, &options, &fs);
    let after = applied(&messages, &done);
    let now: usize = tokens(&after).iter().sum();
    // Everything but the last two pages goes (19,419 → 4,727 tokens): under the trigger
    // again; before, only the summary was cleared and the history stayed at twice it.
    assert!(now < 8_000 / 5 * 3, "{before} → {now} tokens");
    assert_eq!(done.cleared.len(), 11, "the summary and ten pages");
    // The last two pages stay; every cleared page names its call, which returns it again.
    assert_eq!(&after[after.len() - 4..], &messages[messages.len() - 4..]);
    let pages: Vec<&Cleared> = done
        .cleared
        .iter()
        .filter(|c| c.tool_name == "context_read")
        .collect();
    assert_eq!(pages.len(), 10);
    for cleared in pages {
        let pointer = after[cleared.message]["content"][0]["content"]
            .as_str()
            .unwrap();
        assert!(is_cleared(pointer), "{pointer}");
        assert_eq!(
            crate::forms::stored_form::stored_form(pointer),
            Some(StoredForm::Cleared)
        );
        let input = &messages[cleared.message - 1]["content"][0]["input"];
        let call = format!(
            "the same call reads it again: context_read {}]",
            crate::json::stringify(input)
        );
        assert!(pointer.ends_with(&call), "{pointer}");
        let again = futures_executor::block_on(m.read(
            input["ref"].as_str().unwrap(),
            input["offset"].as_u64().unwrap() as usize,
            200,
            &fs,
        ))
        .unwrap();
        let original = &messages[cleared.message]["content"][0]["content"];
        assert_eq!(again, original.as_str().unwrap(), "byte for byte");
        assert_eq!(cleared.reference, input["ref"].as_str().unwrap());
    }
    // Frozen: budget again clears nothing already cleared.
    let again = run(&m, &after, &options, &fs);
    assert!(again.cleared.is_empty(), "{:?}", again.cleared);
}

#[test]
fn excluded_read_tools_keep_their_pages() {
    let (m, fs, messages) = reading_back(12);
    let options = BudgetOptions {
        keep_last: 2,
        exclude_tools: vec!["context_read".into()],
        ..BudgetOptions::new(8_000)
    };
    let done = run(&m, &messages, &options, &fs);
    assert!(done.cleared.iter().all(|c| c.tool_name != "context_read"));
}
