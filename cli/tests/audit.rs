//! `tool-offload audit`: hand-counted fixtures in the shapes Claude Code and Codex write,
//! the real corpus's persisted outputs when present, our own placeholders and refs.

mod common;

use std::path::{Path, PathBuf};

use common::{run, stderr, stdout, tempdir};
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

fn audit_json(dir: &Path, args: &[&str]) -> Value {
    let out = run(dir, &[&["audit"], args, &["--json"]].concat(), b"");
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(stdout(&out)).unwrap()
}

#[test]
fn the_fixtures_give_their_hand_counts() {
    let report = audit_json(&fixtures(), &["claude", "codex"]);
    let expected: Value =
        serde_json::from_slice(&std::fs::read(fixtures().join("expected.json")).unwrap()).unwrap();
    assert_eq!(report["totals"], expected["totals"]);
    let sessions = report["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 3);
    for (got, want) in sessions
        .iter()
        .zip(expected["sessions"].as_array().unwrap())
    {
        let mut got = got.clone();
        for item in got["items"].as_array_mut().unwrap() {
            item.as_object_mut().unwrap().remove("firstTextAfter");
        }
        let mut want = want.clone();
        want.as_object_mut().unwrap().remove("notes");
        assert_eq!(got, want);
    }
    // What the model said next, for an output it never read.
    let unread = &sessions[0]["items"][2];
    assert_eq!(unread["firstTextAfter"], "Skipped toolu_01Read3.txt.");
}

#[test]
fn the_text_report_names_what_was_never_read() {
    let out = run(&fixtures(), &["audit", "claude"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(": 3 shown in part, 2 read later, 1 never read\n"),
        "{text}"
    );
    assert!(
        text.contains("  Bash toolu_01Bash1 (61 chars): read 1 turn later\n"),
        "{text}"
    );
    assert!(
        text.contains("  Read toolu_01Read3 (38 chars): never read; next the model said: \"Skipped toolu_01Read3.txt.\"\n"),
        "{text}"
    );
    assert!(
        text.ends_with("total: 3 shown in part, 2 read later, 1 never read\n"),
        "{text}"
    );
}

#[test]
fn the_real_persisted_outputs_are_counted_as_the_corpus_says() {
    let corpus =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/claude-code-persisted");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is absent", corpus.display());
        return;
    }
    let report = audit_json(&corpus, &["."]);
    let counts: Vec<(u64, u64)> = report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["partial"].as_u64().unwrap(), s["read"].as_u64().unwrap()))
        .collect();
    // corpus/README.md: persisted outputs, and those a later tool call read.
    assert_eq!(counts, [(6, 0), (4, 1), (43, 36)]);
}

#[test]
fn our_own_refs_are_read_when_a_later_call_names_them() {
    let (_tmp, dir) = tempdir();
    let log: String = (0..400)
        .map(|i| format!("line {i}: compiling crate_{i}\n"))
        .collect();
    let conversation = json!([
        {"role": "user", "content": "build"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": log}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "make test"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": log}]},
        {"role": "assistant", "content": "Looked fine."}
    ]);
    std::fs::write(dir.join("c.json"), conversation.to_string()).unwrap();
    let out = run(
        &dir,
        &[
            "materialize",
            "c.json",
            "--user-data",
            "data",
            "-o",
            "m.json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut messages: Value =
        serde_json::from_slice(&std::fs::read(dir.join("m.json")).unwrap()).unwrap();
    // The agent reads the first artifact back, one turn after it.
    let reference = "ctx://c/tool/t1.txt";
    assert!(
        messages[2].to_string().contains(reference),
        "{}",
        messages[2]
    );
    messages.as_array_mut().unwrap().insert(
        4,
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t3", "name": "context_grep", "input": {"ref": reference, "pattern": "error"}}]}),
    );
    std::fs::write(dir.join("m.json"), messages.to_string()).unwrap();
    let report = audit_json(&dir, &["m.json"]);
    let items = &report["sessions"][0]["items"];
    assert_eq!(items.as_array().unwrap().len(), 2, "{report}");
    assert_eq!(items[0]["callId"], "t1");
    assert_eq!(items[0]["read"], true);
    assert_eq!(items[0]["turnsUntilRead"], 2);
    assert_eq!(items[1]["read"], false);
    assert_eq!(items[1]["firstTextAfter"], "Looked fine.");
}

#[test]
fn bad_input_exits_2_and_findings_exit_0() {
    let (_tmp, dir) = tempdir();
    std::fs::write(
        dir.join("bad.jsonl"),
        "{\"type\": \"session_meta\"}\nnot json\n",
    )
    .unwrap();
    let out = run(&dir, &["audit", "bad.jsonl"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    let out = run(&dir, &["audit", "missing.json"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&fixtures(), &["audit", "codex"], b"");
    assert_eq!(out.status.code(), Some(0));
}
