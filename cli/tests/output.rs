//! The `tool-offload` CLI, run as a process: output bytes, files and summaries in array
//! and `--jsonl` mode, matching the library byte for byte; re-runs into one directory.
mod common;

use std::collections::BTreeMap;

use serde_json::json;
use tool_offload::json::stringify;
use tool_offload::Value;

use common::*;

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

/// `-o` naming a FIFO (as `/dev/null` or a terminal would be): written into, never
/// replaced by a regular file renamed over it.
#[cfg(unix)]
#[test]
fn an_output_that_is_not_a_regular_file_is_written_into_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("in.json"), r#"[{"role":"user","content":"hi"}]"#).unwrap();
    let fifo = root.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "-o", "pipe"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        reader.join().unwrap(),
        "[{\"role\":\"user\",\"content\":\"hi\"}]\n"
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // No temporary file left beside it.
    let names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tool-offload-"))
        .collect();
    assert_eq!(names, Vec::<String>::new());
}
