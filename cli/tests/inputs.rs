//! Inputs of `offload`: Claude Code session logs and Codex rollouts (`--from auto`
//! tells them apart and says so), several inputs and directories, a warning when no tool
//! result was recognised, and a truncated file named as such.
mod common;

use std::path::Path;

use serde_json::{json, Value};
use tool_offload::json::{parse, stringify};

use common::*;

/// JSON Lines from values.
fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| stringify(l) + "\n").collect()
}

/// A small Claude Code session log: a snapshot, a user prompt in two events, an
/// assistant message in two events (with thinking), a side chain, a large tool result,
/// and a `<persisted-output>` preview whose full text is in `toolUseResult`.
fn claude_code_log() -> String {
    let event = |kind: &str, content: Value| {
        json!({"parentUuid": null, "isSidechain": false, "type": kind, "uuid": "u", "sessionId": "s",
               "message": {"role": kind, "content": content}})
    };
    let mut side = event("user", json!("sub-agent prompt"));
    side["isSidechain"] = json!(true);
    let mut persisted = event(
        "user",
        json!([{"type": "tool_result", "tool_use_id": "toolu_2", "content": "<persisted-output>\nOutput too large. Preview:\nline 1\n</persisted-output>"}]),
    );
    persisted["toolUseResult"] = json!("line 1\n".repeat(50));
    jsonl(&[
        json!({"type": "file-history-snapshot", "messageId": "m", "snapshot": {}}),
        event("user", json!("Fix the build")),
        event("user", json!([{"type": "text", "text": "(details)"}])),
        event(
            "assistant",
            json!([{"type": "thinking", "thinking": "hmm", "signature": "x"}, {"type": "text", "text": "Looking."}]),
        ),
        event(
            "assistant",
            json!([{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "make"}}]),
        ),
        side,
        event(
            "user",
            json!([{"type": "tool_result", "tool_use_id": "toolu_1", "content": "error: x\n".repeat(30)}]),
        ),
        json!({"type": "system", "uuid": "sys", "content": "compacted"}),
        event(
            "assistant",
            json!([{"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}}]),
        ),
        persisted,
    ])
}

#[test]
fn a_claude_code_log_is_detected_converted_and_offloaded() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("session.jsonl"), claude_code_log()).unwrap();
    let out = run(&root, &["offload", "session.jsonl", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .starts_with("tool-offload: session.jsonl: read as a Claude Code session log\n"),
        "{}",
        stderr(&out)
    );
    let got = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(
        got,
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Fix the build"}, {"type": "text", "text": "(details)"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Looking."}, {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "make"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "[Content offloaded to: ./tool-result-toolu_1.md]"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "[Content offloaded to: ./tool-result-toolu_2.md]"}]},
        ])
    );
    let art = files(&root.join("art"));
    assert_eq!(art["tool-result-toolu_1.md"], "error: x\n".repeat(30));
    assert_eq!(art["tool-result-toolu_2.md"], "line 1\n".repeat(50));

    // Side chains on request; --from names the format without a note.
    let out = run(
        &root,
        &[
            "offload",
            "session.jsonl",
            "--out",
            "art2",
            "--from",
            "claude-code",
            "--include-sidechains",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("read as"), "{}", stderr(&out));
    assert!(stdout(&out).contains("sub-agent prompt"));
}

/// A `<persisted-output>` preview whose full text is not in the log but in
/// `<session>/tool-results/<id>.txt` (where Claude Code saved it) gets it back; one whose
/// file is missing is named on stderr, not offloaded silently as if it were the output.
#[test]
fn persisted_outputs_are_restored_from_the_sessions_tool_results() {
    let (_tmp, root) = tempdir();
    let preview = |id: &str| {
        format!("<persisted-output>\nOutput too large (40KB). Full output saved to: /home/u/.claude/projects/p/s1/tool-results/{id}.txt\n\nPreview (first 2KB):\nline 1\n</persisted-output>")
    };
    let event = |kind: &str, content: Value| json!({"type": kind, "isSidechain": false, "message": {"role": kind, "content": content}});
    let log = jsonl(&[
        event(
            "assistant",
            json!([{"type": "tool_use", "id": "toolu_a", "name": "Grep", "input": {}},
                                  {"type": "tool_use", "id": "toolu_b", "name": "Bash", "input": {}}]),
        ),
        event(
            "user",
            json!([{"type": "tool_result", "tool_use_id": "toolu_a", "content": preview("toolu_a")},
                             {"type": "tool_result", "tool_use_id": "toolu_b", "content": preview("toolu_b")}]),
        ),
    ]);
    std::fs::write(root.join("s1.jsonl"), log).unwrap();
    std::fs::create_dir_all(root.join("s1/tool-results")).unwrap();
    let full = "match: src/a.rs:12\n".repeat(3000);
    std::fs::write(root.join("s1/tool-results/toolu_a.txt"), &full).unwrap();
    let out = run(&root, &["offload", "s1.jsonl", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let art = files(&root.join("art"));
    assert_eq!(art["tool-result-toolu_a.md"], full);
    assert!(
        stderr(&out).contains(
            "s1.jsonl: 1 tool result is a <persisted-output> preview whose full text is not in"
        ),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("toolu_b"), "{}", stderr(&out));
}

/// A sub-agent's own log holds only side-chain events: it says so and names the flag,
/// rather than reporting an empty conversation. An older Codex rollout (untyped
/// metadata first, items at top level) is read as a rollout, not refused as an array.
#[test]
fn sidechain_only_logs_and_older_codex_rollouts_are_understood() {
    let (_tmp, root) = tempdir();
    let side = json!({"type": "user", "isSidechain": true, "uuid": "u",
                      "message": {"role": "user", "content": "sub-agent prompt"}});
    std::fs::write(root.join("agent-1.jsonl"), jsonl(&[side])).unwrap();
    let out = run(&root, &["offload", "agent-1.jsonl", "--out", "o"], b"");
    assert!(
        stderr(&out).contains("agent-1.jsonl: holds only side-chain (sub-agent) events (1), left out by default: add --include-sidechains"),
        "{}",
        stderr(&out)
    );
    let rollout = jsonl(&[
        json!({"id": "5973b6c0", "timestamp": "2025-05-07T17:24:21.123Z", "instructions": null}),
        json!({"record_type": "state"}),
        json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        json!({"type": "function_call_output", "call_id": "c1", "output": "x\n".repeat(200)}),
    ]);
    std::fs::write(root.join("rollout-old.jsonl"), rollout).unwrap();
    let out = run(&root, &["offload", "rollout-old.jsonl", "--out", "o2"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("read as a Codex"), "{}", stderr(&out));
    assert!(files(&root.join("o2")).contains_key("tool-result-c1.md"));
}

#[test]
fn a_codex_rollout_is_detected_and_its_function_call_outputs_offloaded() {
    let (_tmp, root) = tempdir();
    let rollout = jsonl(&[
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "s", "cwd": "/w"}}),
        json!({"timestamp": "t", "type": "turn_context", "payload": {}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "run tests"}]}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "reasoning", "summary": []}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "call_1"}}),
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_1", "output": "ok\n".repeat(100)}}),
    ]);
    std::fs::write(root.join("rollout-1.jsonl"), rollout).unwrap();
    let out = run(&root, &["offload", "rollout-1.jsonl", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("tool-offload: rollout-1.jsonl: read as a Codex rollout\n"));
    let got = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(got.as_array().unwrap().len(), 3);
    assert_eq!(
        got[2],
        json!({"type": "function_call_output", "call_id": "call_1", "output": "[Content offloaded to: ./tool-result-call_1.md]"})
    );
    assert_eq!(
        files(&root.join("art"))["tool-result-call_1.md"],
        "ok\n".repeat(100)
    );
}

#[test]
fn several_inputs_and_directories_each_get_their_output_and_summary() {
    let (_tmp, root) = tempdir();
    std::fs::create_dir(root.join("logs")).unwrap();
    std::fs::write(root.join("logs/a.jsonl"), claude_code_log()).unwrap();
    let chat = json!([{"role": "tool", "tool_call_id": "c1", "content": "y".repeat(200)}]);
    std::fs::write(root.join("logs/b.json"), stringify(&chat)).unwrap();
    std::fs::write(root.join("logs/notes.txt"), "not an input").unwrap();
    std::fs::write(root.join("c.json"), "[]").unwrap();

    let out = run(&root, &["offload", "logs", "c.json", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("3 inputs: pass -o DIR"),
        "{}",
        stderr(&out)
    );

    let out = run(
        &root,
        &[
            "offload", "logs", "c.json", "--out", "art", "-o", "done", "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let done = files(&root.join("done"));
    assert_eq!(
        done.keys().collect::<Vec<_>>(),
        ["a.json", "b.json", "c.json"]
    );
    assert_eq!(done["c.json"], "[]\n");
    assert!(done["b.json"].contains("[Content offloaded to: ./tool-result-c1.md]"));
    let summaries: Vec<Value> = stderr(&out)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| parse(l).unwrap())
        .collect();
    let inputs: Vec<&str> = summaries
        .iter()
        .map(|s| s["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["logs/a.jsonl", "logs/b.json", "c.json"]);
    assert_eq!(summaries[0]["offloaded"], 2);
    assert_eq!(summaries[1]["offloaded"], 1);
}

#[test]
fn messages_without_a_recognised_tool_result_are_said_to_be_so() {
    let (_tmp, root) = tempdir();
    let messages =
        json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]);
    std::fs::write(root.join("in.json"), stringify(&messages)).unwrap();
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains(
            "tool-offload: in.json: 2 messages read as messages, but no tool result was recognised in them"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn items_of_no_shape_we_know_are_counted_and_said_to_be_left() {
    let (_tmp, root) = tempdir();
    let messages = json!([
        {"role": "user", "content": [{"type": "mcp_tool_result", "tool_use_id": "m1", "content": "x".repeat(500)}]},
        {"type": "computer_call_output", "call_id": "c1", "output": {}},
    ]);
    std::fs::write(root.join("in.json"), stringify(&messages)).unwrap();
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "--json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("tool-offload: in.json: 2 items look like tool results but are of no shape we know; left as they are"),
        "{err}"
    );
    assert!(err.contains(r#""unrecognized":2"#), "{err}");
}

#[test]
fn a_truncated_array_is_named_as_such_not_as_a_message() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("in.json"), r#"[{"role":"user","content":"hi"},"#).unwrap();
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("tool-offload: in.json: the input ends before the JSON array does (truncated?): EOF while parsing"),
        "{err}"
    );
    assert!(!err.contains("message 1"), "{err}");
}

#[test]
fn a_session_log_with_a_bad_line_names_the_line() {
    let (_tmp, root) = tempdir();
    let mut log = claude_code_log();
    log.push_str("{not json\n");
    std::fs::write(root.join("s.jsonl"), log).unwrap();
    let out = run(&root, &["offload", "s.jsonl", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("s.jsonl: line 11: "),
        "{}",
        stderr(&out)
    );
}

/// The real Claude Code logs of `../shared/corpus/claude-code` convert exactly into
/// their counterparts in `anthropic/` (skipped when the corpus is absent).
#[test]
fn real_claude_code_logs_convert_into_the_corpus_counterparts() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let pairs = [
        (
            "7cdc4afb-8827-4b14-aba8-e240c3846109",
            "self-examples-7cdc4afb",
        ),
        (
            "c172889a-aa67-452b-b5c9-81f1e500de7d",
            "session-examples-c172889a",
        ),
        (
            "2a812dfa-814f-48b0-8520-a9f575a018fc",
            "repro-attempts-2a812dfa",
        ),
    ];
    if !corpus.join("claude-code").is_dir() {
        eprintln!("corpus absent: skipped");
        return;
    }
    let (_tmp, root) = tempdir();
    for (raw, converted) in pairs {
        let log = corpus.join(format!("claude-code/{raw}.jsonl"));
        let out = run(
            &root,
            &[
                "offload",
                log.to_str().unwrap(),
                "--out",
                "art",
                "--threshold",
                "100000000",
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let want =
            std::fs::read_to_string(corpus.join(format!("anthropic/{converted}.json"))).unwrap();
        assert_eq!(
            stdout(&out).trim_end(),
            stringify(&parse(&want).unwrap()),
            "{raw}"
        );
    }
}

/// Bytes that are not UTF-8 are refused at their offset, naming --lossy; with it they
/// are read as U+FFFD and counted.
#[test]
fn input_that_is_not_utf8_is_refused_or_read_lossily() {
    let (_tmp, root) = tempdir();
    let mut bytes = br#"[{"role":"tool","tool_call_id":"c1","content":"ab"#.to_vec();
    bytes.extend([0xff, 0xfe]);
    bytes.extend(br#"cd"}]"#);
    std::fs::write(root.join("bad.json"), &bytes).unwrap();
    let out = run(&root, &["offload", "bad.json", "--out", "o"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.json: not UTF-8 at byte 49: fix the input, or pass --lossy"),
        "{}",
        stderr(&out)
    );
    let args = [
        "offload",
        "bad.json",
        "--out",
        "o",
        "--lossy",
        "--threshold",
        "1",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("2 sequences of bytes that are not UTF-8 read as U+FFFD"));
    assert_eq!(
        files(&root.join("o"))["tool-result-c1.md"],
        "ab\u{FFFD}\u{FFFD}cd"
    );
}
