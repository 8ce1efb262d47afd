//! A folder of logs with files that cannot be read (an empty `.jsonl`, a stray JSON file)
//! and a session still being written: `audit`, `replay`, `offload` and `materialize` name
//! each bad file on one line, report the rest, read the live log up to its last complete
//! line, and exit 3. One file named alone is still an error (exit 2).
mod common;

use std::path::Path;

use serde_json::{json, Value};
use tool_offload::json::stringify;

use common::*;

/// A small Claude Code log: a prompt, a call, a 27,000-character result, a reply.
fn log() -> String {
    let event = |kind: &str, content: Value| {
        json!({"type": kind, "uuid": "u", "sessionId": "s", "isSidechain": false,
               "message": {"role": kind, "content": content}})
    };
    [
        event("user", json!("Fix it")),
        event(
            "assistant",
            json!([{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "make"}}]),
        ),
        event(
            "user",
            json!([{"type": "tool_result", "tool_use_id": "toolu_1", "content": "error: x\n".repeat(3000)}]),
        ),
        event("assistant", json!([{"type": "text", "text": "Fixed."}])),
    ]
    .iter()
    .map(|l| stringify(l) + "\n")
    .collect()
}

/// `logs/` with a good log, an empty one, a stray JSON file and a live log (its last
/// line half-written, no line ending).
fn folder(root: &Path) {
    let dir = root.join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a-good.jsonl"), log()).unwrap();
    std::fs::write(dir.join("b-empty.jsonl"), "").unwrap();
    std::fs::write(dir.join("c-stray.json"), "{\"name\": \"pkg\"}\n").unwrap();
    std::fs::write(
        dir.join("d-live.jsonl"),
        log() + "{\"type\": \"user\", \"mess",
    )
    .unwrap();
}

/// The lines of `err` that name skipped files.
fn skipped(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.starts_with("tool-offload: skipped "))
        .collect()
}

fn assert_bad_files_skipped_and_named(err: &str) {
    let lines = skipped(err);
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("tool-offload: skipped logs/b-empty.jsonl: empty"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("tool-offload: skipped logs/c-stray.json: "),
        "{err}"
    );
    assert!(
        err.contains("logs/d-live.jsonl: line 5 is incomplete (a session still being written?): read up to line 4"),
        "{err}"
    );
    assert!(
        err.contains("tool-offload: 2 inputs of 4 skipped (named above), the rest reported"),
        "{err}"
    );
}

#[test]
fn audit_reports_the_readable_logs_of_a_folder_and_names_the_rest() {
    let (_tmp, root) = tempdir();
    folder(&root);
    let out = run(&root, &["audit", "logs", "--json"], b"");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_bad_files_skipped_and_named(stderr(&out));
    let report = tool_offload::json::parse(stdout(&out)).unwrap();
    let inputs: Vec<&str> = report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["logs/a-good.jsonl", "logs/d-live.jsonl"]);
}

#[test]
fn replay_reports_the_readable_logs_of_a_folder_and_names_the_rest() {
    let (_tmp, root) = tempdir();
    folder(&root);
    let out = run(
        &root,
        &[
            "replay", "logs", "--policy", "none", "--policy", "offload", "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_bad_files_skipped_and_named(stderr(&out));
    let report = tool_offload::json::parse(stdout(&out)).unwrap();
    assert!(stdout(&out).contains("d-live.jsonl"), "{report}");
    assert!(!stdout(&out).contains("b-empty"), "{report}");
}

#[test]
fn offload_and_materialize_write_the_readable_logs_of_a_folder() {
    let (_tmp, root) = tempdir();
    folder(&root);
    let out = run(
        &root,
        &["offload", "logs", "--out", "art", "-o", "out"],
        b"",
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_bad_files_skipped_and_named(stderr(&out));
    let written: Vec<String> = files(&root.join("out")).into_keys().collect();
    assert_eq!(written, ["a-good.json", "d-live.json"]);

    let out = run(
        &root,
        &["materialize", "logs", "-o", "m", "--user-data", "ud"],
        b"",
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_bad_files_skipped_and_named(stderr(&out));
    let written: Vec<String> = files(&root.join("m")).into_keys().collect();
    assert_eq!(written, ["a-good.json", "d-live.json"]);
}

#[test]
fn a_live_log_named_alone_is_read_up_to_its_last_complete_line() {
    let (_tmp, root) = tempdir();
    folder(&root);
    let out = run(&root, &["audit", "logs/d-live.jsonl"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("line 5 is incomplete"),
        "{}",
        stderr(&out)
    );
    // A bad line that is complete (it has its line ending) is still an error.
    std::fs::write(
        root.join("bad.jsonl"),
        log() + "{\"type\": \"user\", \"mess\n",
    )
    .unwrap();
    let out = run(&root, &["audit", "bad.jsonl"], b"");
    assert_one_line_error(&out, 2, &["bad.jsonl: line 5: "]);
}

#[test]
fn a_file_named_alone_or_a_folder_of_nothing_readable_is_still_an_error() {
    let (_tmp, root) = tempdir();
    folder(&root);
    let out = run(&root, &["audit", "logs/b-empty.jsonl"], b"");
    assert_one_line_error(&out, 2, &["logs/b-empty.jsonl: empty"]);
    std::fs::create_dir(root.join("bad")).unwrap();
    std::fs::write(root.join("bad/x.jsonl"), "").unwrap();
    std::fs::write(root.join("bad/y.json"), "[").unwrap();
    let out = run(&root, &["replay", "bad"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(skipped(stderr(&out)).len(), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("tool-offload: 2 inputs skipped, none could be read"),
        "{}",
        stderr(&out)
    );
}
