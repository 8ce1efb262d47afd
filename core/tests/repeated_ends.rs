//! Boilerplate no wrapper marks: the end an output shares with an earlier one of the
//! conversation is named in one line instead of taking the summary's tail, decided on
//! earlier outputs only; a shared end that holds a failure line is still shown.

use futures_executor::block_on;
use serde_json::{json, Value};
use tool_offload_core::materialize::{Materializer, MaterializerOptions};
use tool_offload_core::{apply_edits, MemoryWriter};

const FOOTER: &str = "\n---\nSandbox: workspace-write; network disabled.\nTokens left in this session: plenty. Use them well.\n";

fn output(name: &str) -> String {
    let body: String = (1..=400)
        .map(|i| format!("{name} line {i} of the listing\n"))
        .collect();
    format!("{body}{FOOTER}")
}

fn result(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

/// The summaries `materialize_messages` gives, in order.
fn summaries(messages: &[Value]) -> Vec<String> {
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let views: Vec<&Value> = messages.iter().collect();
    let done = block_on(m.materialize_messages(&views, &MemoryWriter::new())).unwrap();
    let mut out = Vec::new();
    for (index, edits) in done.changed {
        let mut copy = messages[index].clone();
        apply_edits(&mut copy, edits);
        out.push(copy["content"].as_str().unwrap().to_owned());
    }
    out
}

#[test]
fn an_end_repeated_from_an_earlier_output_is_named_not_shown() {
    let first = [result("a", &output("alpha"))];
    let alone = summaries(&first);
    let both = summaries(&[result("a", &output("alpha")), result("b", &output("beta"))]);
    assert_eq!(
        both[0], alone[0],
        "a later output never changes an earlier summary"
    );
    assert!(
        both[0].contains("Tokens left in this session"),
        "{}",
        both[0]
    );
    assert!(
        !both[1].contains("Tokens left in this session"),
        "{}",
        both[1]
    );
    assert!(
        both[1].contains("--- lines 401-404: the same as the end of an earlier output (101 characters), not shown ---"),
        "{}",
        both[1]
    );
    assert!(
        both[1].contains("beta line 400 of the listing"),
        "the tail before it is shown"
    );
}

#[test]
fn a_repeated_end_with_a_failure_line_is_shown() {
    let verdict = "\nerror: could not compile `app` (bin \"app\") due to 2 previous errors\nwarning: build failed, waiting for other jobs to finish...\n";
    let log = |name: &str| {
        let body: String = (1..=400)
            .map(|i| format!("   Compiling {name}_{i} v0.1.0\n"))
            .collect();
        format!("{body}{verdict}")
    };
    let both = summaries(&[result("a", &log("one")), result("b", &log("two"))]);
    assert!(both[1].contains("could not compile `app`"), "{}", both[1]);
    assert!(!both[1].contains("the same as the end of an earlier output"));
}
