//! The `tool-offload` CLI's failures: exit codes (0 ok, 1 I/O failure, 2 bad input — a
//! missing INPUT file is bad input), one-line messages, and nothing left half-written.
mod common;

use tool_offload::json::stringify;

use common::*;

#[test]
fn malformed_json_names_the_message_and_writes_nothing() {
    let (_tmp, root) = tempdir();
    let first = stringify(&anthropic("t1", &"x".repeat(200)));
    std::fs::write(
        root.join("in.json"),
        format!("[{first},{{\"a\":1}} {{\"b\":2}}]"),
    )
    .unwrap();
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "-o", "out.json"],
        b"",
    );
    assert_one_line_error(
        &out,
        2,
        &["in.json: message 2: expected `,` or `]` at line 1 column"],
    );
    assert!(!root.join("art").exists() && !root.join("out.json").exists());

    std::fs::write(root.join("in.jsonl"), format!("{first}\n\n{{\"a\":1,}}\n")).unwrap();
    let out = run(
        &root,
        &[
            "offload", "in.jsonl", "--jsonl", "--out", "art", "-o", "out.json",
        ],
        b"",
    );
    assert_one_line_error(&out, 2, &["in.jsonl: message 1 (line 3): ", " at column 8"]);
    assert!(!root.join("art").exists() && !root.join("out.json").exists());
}

#[test]
fn unsafe_id_in_the_last_message_writes_nothing_in_either_mode() {
    let (_tmp, root) = tempdir();
    let mut messages = mixed();
    messages.push(anthropic("../evil", &"x".repeat(100)));
    write_json(&root.join("in.json"), &messages);
    write_jsonl(&root.join("in.jsonl"), &messages);
    for (input, extra) in [
        ("in.json", None),
        ("in.jsonl", Some("--jsonl")),
        ("-", Some("--jsonl")),
    ] {
        let mut args = vec!["offload", input, "--out", "art", "-o", "out"];
        args.extend(extra);
        let stdin = std::fs::read(root.join("in.jsonl")).unwrap();
        let out = run(&root, &args, &stdin);
        assert_one_line_error(
            &out,
            2,
            &[
                "message 5",
                "invalid messages[5].content[0].tool_use_id \"../evil\": ",
            ],
        );
        assert!(
            !root.join("art").exists() && !root.join("out").exists(),
            "{args:?}"
        );
    }
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    assert!(stderr(&out).starts_with("tool-offload: in.json: message 5: invalid messages[5]"));
}

#[test]
fn input_that_is_not_an_array_is_bad_input() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("in.json"), r#"{"role":"user"}"#).unwrap();
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    assert_one_line_error(
        &out,
        2,
        &["in.json: invalid type: map, expected a JSON array of messages"],
    );
    let out = run(&root, &["offload", "-", "--out", "art"], b"[1]");
    assert_one_line_error(
        &out,
        2,
        &["<stdin>: message 0: invalid message: messages[0] must be a JSON object"],
    );
}

#[test]
fn missing_input_file_is_bad_input() {
    let (_tmp, root) = tempdir();
    let out = run(&root, &["offload", "nope.json", "--out", "art"], b"");
    assert_one_line_error(&out, 2, &["nope.json: "]);
}

#[test]
fn write_failure_exits_1_and_leaves_no_output() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("file"), "").unwrap();
    write_json(&root.join("in.json"), &mixed());
    write_jsonl(&root.join("in.jsonl"), &mixed());
    // In JSONL mode OUTPUT's temporary file is open, holding message 0, when message 1 fails.
    for extra in [None, Some("--jsonl")] {
        let input = if extra.is_some() {
            "in.jsonl"
        } else {
            "in.json"
        };
        let mut args = vec!["offload", input, "--out", "file/art", "-o", "out.json"];
        args.extend(extra);
        let out = run(&root, &args, b"");
        assert_one_line_error(&out, 1, &["failed to write ", "file/art"]);
        assert!(!root.join("out.json").exists());
        let top: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(top.len(), 3, "temporary file left: {top:?}");
    }
    // An existing OUTPUT is left as it was.
    std::fs::write(root.join("out.json"), "old").unwrap();
    let out = run(
        &root,
        &[
            "offload", "in.jsonl", "--jsonl", "--out", "file/art", "-o", "out.json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(root.join("out.json")).unwrap(),
        "old"
    );
}

#[test]
fn usage_errors_and_help() {
    let (_tmp, root) = tempdir();
    let help = run(&root, &["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("offload"));
    let help = run(&root, &["offload", "--help"], b"");
    for flag in ["--out", "--threshold", "--output", "--json", "--jsonl"] {
        assert!(stdout(&help).contains(flag), "{flag}");
    }
    let version = run(&root, &["--version"], b"");
    assert_eq!(
        stdout(&version),
        format!("tool-offload {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        run(&root, &["offload", "in.json"], b"").status.code(),
        Some(2)
    );
    let negative = run(
        &root,
        &["offload", "in.json", "--out", "a", "--threshold", "-1"],
        b"",
    );
    assert_eq!(negative.status.code(), Some(2));
}
