//! The `tool-offload` command-line tool, run as a process: output bytes, files, the
//! summary, exit codes (0 ok, 1 I/O failure, 2 bad input — a missing INPUT file is bad
//! input) and that nothing is left half-written.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::json;
use tool_offload::json::stringify;
use tool_offload::{MemoryWriter, OffloadOptions, Value};

/// Run the tool in `dir` with `args`, feeding `stdin`.
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tool-offload"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The CLI may exit (rightly) before reading all of stdin, e.g. on an early error.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> &str {
    std::str::from_utf8(&out.stdout).unwrap()
}

fn stderr(out: &Output) -> &str {
    std::str::from_utf8(&out.stderr).unwrap()
}

/// A canonical temporary directory, so paths compare equal to what `getcwd` returns.
fn tempdir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    (tmp, root)
}

/// Every file under `dir` (recursively), by path relative to it, with its contents.
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_str().unwrap().to_owned();
                found.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    found
}

fn anthropic(id: &str, content: &str) -> Value {
    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content}]})
}

fn write_json(path: &Path, messages: &[Value]) {
    std::fs::write(path, stringify(&Value::Array(messages.to_vec()))).unwrap();
}

fn write_jsonl(path: &Path, messages: &[Value]) {
    let lines: Vec<String> = messages.iter().map(stringify).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// What the library does with `messages`: the output text and the files by path.
fn library(messages: &[Value], out: &Path, threshold: usize) -> (String, BTreeMap<String, String>) {
    let writer = MemoryWriter::new();
    let options = OffloadOptions {
        threshold,
        ..OffloadOptions::new(out)
    };
    let done = futures_executor::block_on(tool_offload::offload_tool_results(
        messages, &options, &writer,
    ))
    .unwrap();
    let output: Vec<Value> = done
        .messages
        .iter()
        .map(|m| m.clone().into_owned())
        .collect();
    let files = done
        .files
        .iter()
        .map(|f| (f.clone(), writer.read(f).unwrap()))
        .collect();
    (stringify(&Value::Array(output)) + "\n", files)
}

/// A conversation in all three formats, with a repeated id and a non-content number.
fn mixed() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "hi", "n": 1.0}),
        anthropic("t1", &"a".repeat(150)),
        json!({"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "b".repeat(120)}]}),
        json!({"type": "function_call_output", "call_id": "t1", "output": "c".repeat(99)}),
        json!({"role": "user", "content": [
            {"type": "text", "text": "é"},
            {"type": "tool_result", "tool_use_id": "t1", "content": "d".repeat(100)},
            {"type": "tool_result", "tool_use_id": "t2", "content": "short"}
        ]}),
    ]
}

fn assert_one_line_error(out: &Output, code: i32, contains: &[&str]) {
    assert_eq!(out.status.code(), Some(code), "stderr: {}", stderr(out));
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("tool-offload: "), "{err}");
    for part in contains {
        assert!(err.contains(part), "{err:?} lacks {part:?}");
    }
}

#[test]
fn array_to_stdout_is_byte_exact_and_writes_the_files() {
    let (_tmp, root) = tempdir();
    std::fs::write(
        root.join("in.json"),
        format!(
            r#"[{{"role":"user","content":"hi","n":1.0,"z":1e21}},{{"role":"tool","tool_call_id":"c1","content":"{}"}}]"#,
            "x".repeat(100)
        ),
    )
    .unwrap();
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "[{\"role\":\"user\",\"content\":\"hi\",\"n\":1,\"z\":1e+21},\
         {\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"[Content offloaded to: ./tool-result-c1.md]\"}]\n"
    );
    let art = files(&root.join("art"));
    assert_eq!(
        art,
        BTreeMap::from([("tool-result-c1.md".into(), "x".repeat(100))])
    );
}

#[test]
fn array_mode_matches_the_library_byte_for_byte() {
    let (_tmp, root) = tempdir();
    let messages = mixed();
    write_json(&root.join("in.json"), &messages);
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "-o", "out.json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let (expected, expected_files) = library(&messages, &root.join("art"), 100);
    assert_eq!(
        std::fs::read_to_string(root.join("out.json")).unwrap(),
        expected
    );
    let written: BTreeMap<String, String> = files(&root.join("art"))
        .into_iter()
        .map(|(name, text)| {
            (
                root.join("art").join(name).to_str().unwrap().to_owned(),
                text,
            )
        })
        .collect();
    assert_eq!(written, expected_files);
    // Repeated id t1: first file plain, then numbered, in walk order.
    let art = files(&root.join("art"));
    assert_eq!(
        art.keys().collect::<Vec<_>>(),
        [
            "tool-result-c1.md",
            "tool-result-t1-1.md",
            "tool-result-t1.md"
        ]
    );
    assert_eq!(art["tool-result-t1.md"], "a".repeat(150));
    assert_eq!(art["tool-result-t1-1.md"], "d".repeat(100));
    assert_eq!(
        art["tool-result-c1.md"],
        stringify(&json!([{"type": "text", "text": "b".repeat(120)}]))
    );
    // Nothing but the output and the artifacts (no temporary files).
    let top: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(top.len(), 3, "{top:?}");
}

#[test]
fn threshold_offloads_exactly_n_but_not_n_minus_1() {
    let (_tmp, root) = tempdir();
    let messages = [
        anthropic("at", &"x".repeat(50)),
        anthropic("below", &"y".repeat(49)),
    ];
    write_json(&root.join("in.json"), &messages);
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "--threshold", "50"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), library(&messages, &root.join("art"), 50).0);
    assert!(stdout(&out).contains(&"y".repeat(49)));
    let art = files(&root.join("art"));
    assert_eq!(
        art,
        BTreeMap::from([("tool-result-at.md".into(), "x".repeat(50))])
    );
}

#[test]
fn stdin_input_and_dash_output() {
    let (_tmp, root) = tempdir();
    let messages = mixed();
    let input = stringify(&Value::Array(messages.clone()));
    let out = run(
        &root,
        &["offload", "-", "--out", "art", "-o", "-"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), library(&messages, &root.join("art"), 100).0);
    assert_eq!(files(&root.join("art")).len(), 3);
}

#[test]
fn jsonl_matches_array_mode_line_for_line() {
    let (_tmp, root) = tempdir();
    let messages = mixed();
    let lines: Vec<String> = messages.iter().map(stringify).collect();
    // Blank lines (and CRLF endings) are skipped and are not messages.
    let input = format!(
        "\n{}\r\n\n  \n{}\n",
        lines[..2].join("\n"),
        lines[2..].join("\n")
    );
    std::fs::write(root.join("in.jsonl"), &input).unwrap();
    let out = run(
        &root,
        &[
            "offload",
            "in.jsonl",
            "--jsonl",
            "--out",
            "art",
            "-o",
            "out.jsonl",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (array, expected_files) = library(&messages, &root.join("art"), 100);
    let Value::Array(expected) = serde_json::from_str(&array).unwrap() else {
        panic!()
    };
    let expected: String = expected.iter().map(|m| stringify(m) + "\n").collect();
    assert_eq!(
        std::fs::read_to_string(root.join("out.jsonl")).unwrap(),
        expected
    );
    assert_eq!(files(&root.join("art")).len(), expected_files.len());
    let summary: Value = serde_json::from_str(stderr(&out).trim()).unwrap();
    assert_eq!(summary["messages"], 5);

    let piped = run(
        &root,
        &["offload", "-", "--jsonl", "--out", "art2"],
        input.as_bytes(),
    );
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), expected);
    assert_eq!(files(&root.join("art2")), files(&root.join("art")));
    // Stdin was spooled to an anonymous file: nothing is left behind.
    let mut top: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    top.sort();
    assert_eq!(top, ["art", "art2", "in.jsonl", "out.jsonl"]);
}

#[test]
fn json_summary_keys_and_values() {
    let (_tmp, root) = tempdir();
    write_json(&root.join("in.json"), &mixed());
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "--json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = json!({
        "messages": 5, "toolResults": 5, "offloaded": 3,
        // Offloaded: 150 + 147 (the block array's JSON) + 100; kept: 99 + 5.
        "freedChars": 397,
        "toolResultChars": 501,
        "freedPercent": 79.2, "files": 3, "outputDir": root.join("art").to_str().unwrap(),
    });
    assert_eq!(stderr(&out), stringify(&expected) + "\n");
}

#[test]
fn human_summary_mentions_the_counts() {
    let (_tmp, root) = tempdir();
    write_json(&root.join("in.json"), &mixed());
    let out = run(&root, &["offload", "in.json", "--out", "art"], b"");
    let err = stderr(&out);
    for part in [
        "messages:      5",
        "5 seen, 3 offloaded",
        "freed:         397 of 501 characters (79.2%)",
        "files written: 3 in ",
    ] {
        assert!(err.contains(part), "{err:?} lacks {part:?}");
    }
}

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

#[test]
fn runs_into_one_output_directory_never_overwrite_each_other() {
    // Two sessions using the same id, offloaded into the same directory one after the
    // other, in both modes: each placeholder keeps pointing at its own content.
    let (_tmp, root) = tempdir();
    let s1 = [anthropic("call_0", &"one ".repeat(100))];
    let s2 = [anthropic("call_0", &"two ".repeat(100))];
    write_json(&root.join("s1.json"), &s1);
    write_json(&root.join("s2.json"), &s2);
    write_jsonl(&root.join("s2.jsonl"), &s2);
    let offload = |args: &[&str]| {
        let out = run(&root, args, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).to_owned()
    };
    let first = offload(&["offload", "s1.json", "--out", "A"]);
    let again = offload(&["offload", "s1.json", "--out", "A"]);
    let second = offload(&["offload", "s2.json", "--out", "A"]);
    let streamed = offload(&["offload", "s2.jsonl", "--jsonl", "--out", "A"]);
    assert_eq!(again, first, "a re-run reuses the identical file");
    assert!(first.contains("./tool-result-call_0.md"), "{first}");
    assert!(second.contains("./tool-result-call_0-1.md"), "{second}");
    assert!(streamed.contains("./tool-result-call_0-1.md"), "{streamed}");
    let written = files(&root.join("A"));
    assert_eq!(
        written.into_iter().collect::<Vec<_>>(),
        [
            ("tool-result-call_0-1.md".to_owned(), "two ".repeat(100)),
            ("tool-result-call_0.md".to_owned(), "one ".repeat(100)),
        ]
    );
}

/// A conversation holding escaped lone surrogates, as `JSON.stringify` prints one cut
/// mid-emoji: in offloaded string content, offloaded array content, untouched content,
/// a key, and an id below the threshold. Raw JSON text: a `Value` cannot hold them.
fn with_lone_surrogates() -> [String; 4] {
    [
        format!(
            r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t1","content":"{}cut \ud83d"}}]}}"#,
            "a".repeat(96)
        ),
        r#"{"role":"user","content":"kept \ud83d, \udc00x and \ud83d\ude00","k\ud800":1}"#.into(),
        format!(
            r#"{{"role":"tool","tool_call_id":"c1","content":[{{"type":"text","text":"{}\ud800"}}]}}"#,
            "b".repeat(80)
        ),
        r#"{"role":"tool","tool_call_id":"x\udfff","content":"short \udfff"}"#.into(),
    ]
}

#[test]
fn escaped_lone_surrogates_are_read_as_json_parse_reads_them_in_either_mode() {
    let (_tmp, root) = tempdir();
    let lines = with_lone_surrogates();
    std::fs::write(root.join("in.json"), format!("[{}]", lines.join(","))).unwrap();
    std::fs::write(root.join("in.jsonl"), lines.join("\n") + "\n").unwrap();
    // JSON.stringify(JSON.parse(line)) with the offloaded contents replaced: untouched
    // text keeps its escapes exactly (a pair is one character).
    let expected = [
        r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"[Content offloaded to: ./tool-result-t1.md]"}]}"#,
        "{\"role\":\"user\",\"content\":\"kept \\ud83d, \\udc00x and 😀\",\"k\\ud800\":1}",
        r#"{"role":"tool","tool_call_id":"c1","content":"[Content offloaded to: ./tool-result-c1.md]"}"#,
        r#"{"role":"tool","tool_call_id":"x\udfff","content":"short \udfff"}"#,
    ];
    // String content is written with U+FFFD (EF BF BD), as Node's fs writes it; array
    // content as JSON.stringify writes it, the surrogate escaped.
    let written = BTreeMap::from([
        (
            "tool-result-t1.md".to_owned(),
            format!("{}cut \u{FFFD}", "a".repeat(96)),
        ),
        (
            "tool-result-c1.md".to_owned(),
            format!(r#"[{{"type":"text","text":"{}\ud800"}}]"#, "b".repeat(80)),
        ),
    ]);
    for (input, jsonl) in [("in.json", false), ("in.jsonl", true)] {
        let art = format!("art-{jsonl}");
        let mut args = vec!["offload", input, "--out", &art];
        if jsonl {
            args.push("--jsonl");
        }
        let out = run(&root, &args, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let want = if jsonl {
            expected.join("\n") + "\n"
        } else {
            format!("[{}]\n", expected.join(","))
        };
        assert_eq!(stdout(&out), want, "{input}");
        assert_eq!(files(&root.join(&art)), written, "{input}");
        // 100 units each (the lone surrogate is one, as JSON.parse reads it): offloaded
        // at the default threshold of 100.
        let bytes = std::fs::read(root.join(&art).join("tool-result-t1.md")).unwrap();
        assert_eq!(bytes[bytes.len() - 3..], [0xEF, 0xBF, 0xBD]);
    }
}

#[test]
fn ids_differing_only_in_a_lone_surrogate_are_invalid_id_in_either_mode() {
    let (_tmp, root) = tempdir();
    let big = "z".repeat(200);
    let lines = [
        format!(r#"{{"role":"tool","tool_call_id":"x\ud83d","content":"{big}"}}"#),
        format!(r#"{{"role":"tool","tool_call_id":"x\udc00","content":"{big}"}}"#),
    ];
    std::fs::write(root.join("in.json"), format!("[{}]", lines.join(","))).unwrap();
    std::fs::write(root.join("in.jsonl"), lines.join("\n") + "\n").unwrap();
    for (input, extra) in [("in.json", None), ("in.jsonl", Some("--jsonl"))] {
        let mut args = vec!["offload", input, "--out", "art", "-o", "out"];
        args.extend(extra);
        let out = run(&root, &args, b"");
        assert_one_line_error(
            &out,
            2,
            &[
                "message 0",
                "invalid messages[0].tool_call_id: contains a lone UTF-16 surrogate",
            ],
        );
        assert!(!root.join("art").exists() && !root.join("out").exists());
    }
}
