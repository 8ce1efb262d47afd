//! The Materializer from the shell: `materialize`, `read`, `tail`, `grep` (pages equal
//! to the model's tools for the same ref), `ls`, `stats`, `export`, `import`, and each
//! subcommand's `--help` example.
mod common;

use std::sync::Arc;

use serde_json::{json, Value};
use tool_offload::json::{parse, stringify};
use tool_offload::{Materializer, ToolRegistry};

use common::*;

const REF: &str = "ctx://conv-1/tool/call_log.txt";

/// A conversation whose one tool result is a 150 KB log with a planted error line.
fn conversation() -> Value {
    let mut log = String::new();
    for i in 0..3000 {
        if i == 1234 {
            log.push_str("ERROR: disk quota exceeded on /var/lib/build\n");
        }
        log.push_str(&format!(
            "step {i:04}: compiling module number {i} of the build …\n"
        ));
    }
    json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_log", "name": "bash", "input": {"command": "make"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_log", "content": log}]},
    ])
}

/// `conversation()` written as conv-1.json and materialized into `root/data`.
fn materialize_into_data(root: &std::path::Path) {
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let out = run(
        root,
        &["materialize", "conv-1.json", "--user-data", "data"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// What the model's read-back tool gives for `params`, through the library.
fn tool_page(user_data: &std::path::Path, tool: &str, params: Value) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let materializer = Arc::new(Materializer::in_dir(user_data, "conv-1").unwrap());
    let mut registry = ToolRegistry::new();
    materializer.register_tools(&mut registry).unwrap();
    let result = runtime
        .block_on(registry.execute_tool("t", tool, params))
        .unwrap();
    assert!(!result.is_error, "{}", result.content);
    result.content
}

#[test]
fn materialize_then_read_tail_grep_give_the_tools_pages() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let out = run(
        &root,
        &[
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let messages = parse(stdout(&out).trim_end()).unwrap();
    let summary = messages[1]["content"][0]["content"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "[Output of bash (call call_log) stored as ctx://conv-1/tool/call_log.txt "
        ),
        "{summary}"
    );
    let report = parse(stderr(&out).trim_end()).unwrap();
    assert_eq!(report["conversation"], "conv-1");
    assert_eq!(report["refs"], json!([REF]));
    let artifact = root.join("data/context/conv-1/artifacts/tool/call_log.txt");
    assert_eq!(
        std::fs::read_to_string(&artifact).unwrap(),
        conversation()[1]["content"][0]["content"].as_str().unwrap()
    );

    let data = root.join("data");
    let cases: [(&[&str], &str, Value); 3] = [
        (
            &["read", REF, "--offset", "1230", "--limit", "10"],
            "context_read",
            json!({"ref": REF, "offset": 1230, "limit": 10}),
        ),
        (
            &["tail", REF, "-n", "5"],
            "context_tail",
            json!({"ref": REF, "lines": 5}),
        ),
        (
            &["grep", REF, "error: DISK", "-i", "-C", "1"],
            "context_grep",
            json!({"ref": REF, "pattern": "error: DISK", "ignore_case": true, "context": 1}),
        ),
    ];
    for (args, tool, params) in cases {
        let mut args = args.to_vec();
        args.extend(["--user-data", "data"]);
        let out = run(&root, &args, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        // The tool's page, but a read continues with the command that prints the next.
        let expected = tool_page(&data, tool, params).replace(
            &format!("context_read(\"{REF}\", 1240)"),
            &format!("tool-offload read {REF} --offset 1240 --limit 10 --user-data data"),
        );
        assert_eq!(stdout(&out), expected + "\n", "{args:?}");
    }
    // That command prints the page after it.
    let out = run(
        &root,
        &[
            "read",
            REF,
            "--offset",
            "1240",
            "--limit",
            "10",
            "--user-data",
            "data",
        ],
        b"",
    );
    assert!(stdout(&out).starts_with(&format!("[{REF}: lines 1241-1250 of 3,001.")));
    let out = run(
        &root,
        &["grep", REF, "quota", "--user-data", "data", "--json"],
        b"",
    );
    let page = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(page["ref"], REF);
    assert!(
        page["page"]
            .as_str()
            .unwrap()
            .contains("1235| ERROR: disk quota exceeded"),
        "{page}"
    );
}

#[test]
fn read_errors_are_one_line_with_the_exit_code() {
    let (_tmp, root) = tempdir();
    let out = run(
        &root,
        &["read", "ctx://conv-1/tool/nope.txt", "--user-data", "."],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("tool-offload: ctx://conv-1/tool/nope.txt: "),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out).lines().count(), 1);
    // It says where it looked: a wrong --user-data is the usual cause.
    assert!(
        stderr(&out)
            .trim_end()
            .ends_with("context/conv-1/artifacts/tool/nope.txt)"),
        "{}",
        stderr(&out)
    );
    let out = run(&root, &["tail", "not-a-ref", "--user-data", "."], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&root, &["grep", REF, "(unclosed", "--user-data", "."], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("INVALID_PATTERN") || stderr(&out).contains("pattern"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ls_and_stats_show_our_artifacts_only() {
    let (_tmp, root) = tempdir();
    materialize_into_data(&root);
    std::fs::write(root.join("data/notes.txt"), "not ours").unwrap();
    std::fs::create_dir_all(root.join("data/batch")).unwrap();
    std::fs::write(root.join("data/batch/tool-result-x.md"), "é").unwrap();
    // Links are never followed nor counted: one to a batch file elsewhere, one to a
    // directory of them, one to itself.
    let outside = root.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("tool-result-y.md"), "elsewhere").unwrap();
    std::os::unix::fs::symlink(
        outside.join("tool-result-y.md"),
        root.join("data/batch/tool-result-y.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, root.join("data/linked")).unwrap();
    std::os::unix::fs::symlink(root.join("data/batch"), root.join("data/batch/loop")).unwrap();

    let out = run(&root, &["ls", "data", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = parse(stdout(&out).trim_end()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    let tool = rows.iter().find(|r| r["kind"] == "tool").unwrap();
    assert_eq!(tool["ref"], REF);
    assert!(tool["bytes"].as_u64().unwrap() > 150_000);
    assert!(tool["modified"].as_str().unwrap().ends_with('Z'));
    let batch = rows.iter().find(|r| r["kind"] == "batch").unwrap();
    assert_eq!(batch["ref"], Value::Null);
    assert_eq!(batch["bytes"], 2);

    let out = run(&root, &["ls", "data"], b"");
    assert!(
        stdout(&out)
            .lines()
            .any(|l| l.starts_with(&format!("{REF}\ttool\t"))),
        "{}",
        stdout(&out)
    );

    let out = run(&root, &["stats", "data", "--json"], b"");
    let stats = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(stats["artifacts"], 2);
    assert_eq!(stats["conversations"], 1);
    assert_eq!(
        stats["byKind"],
        json!({"tool": 1, "terminal": 0, "batch": 1})
    );
    let log = conversation()[1]["content"][0]["content"]
        .as_str()
        .unwrap()
        .encode_utf16()
        .count();
    assert_eq!(stats["chars"], log + 1);

    let out = run(&root, &["ls", "missing"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn export_and_import_move_a_conversation_with_its_artifacts() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    run(
        &root,
        &[
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "-o",
            "m.json",
        ],
        b"",
    );
    let out = run(
        &root,
        &[
            "export",
            "m.json",
            "--conversation",
            "conv-1",
            "--user-data",
            "data",
            "-o",
            "bundle.json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(
        &root,
        &["import", "bundle.json", "--user-data", "elsewhere"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        parse(stdout(&out).trim_end()).unwrap(),
        parse(&std::fs::read_to_string(root.join("m.json")).unwrap()).unwrap()
    );
    assert!(
        stderr(&out).contains("conversation conv-1 restored, 1 artifact\n"),
        "{}",
        stderr(&out)
    );
    let out = run(
        &root,
        &["tail", REF, "-n", "1", "--user-data", "elsewhere"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A tampered bundle is refused.
    let tampered = std::fs::read_to_string(root.join("bundle.json"))
        .unwrap()
        .replace("step 0001", "step 9999");
    std::fs::write(root.join("bad.json"), tampered).unwrap();
    let out = run(&root, &["import", "bad.json", "--user-data", "third"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn every_subcommand_help_shows_an_example() {
    let (_tmp, root) = tempdir();
    for sub in [
        "offload",
        "materialize",
        "read",
        "tail",
        "grep",
        "ls",
        "stats",
        "export",
        "import",
    ] {
        let out = run(&root, &[sub, "--help"], b"");
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(
            stdout(&out).contains(&format!("Example:\n  tool-offload {sub} ")),
            "{sub}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn text_outputs_are_pinned() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let out = run(
        &root,
        &[
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "-o",
            "m.json",
        ],
        b"",
    );
    assert_eq!(
        stderr(&out),
        "conv-1.json: 2 messages, materialized 1 into data/context/conv-1/artifacts\n"
    );
    assert_eq!(stdout(&out), "");

    let bytes = std::fs::metadata(root.join("data/context/conv-1/artifacts/tool/call_log.txt"))
        .unwrap()
        .len();
    let out = run(&root, &["ls", "data"], b"");
    let line = stdout(&out).trim_end();
    let (head, time) = line.rsplit_once('\t').unwrap();
    assert_eq!(head, format!("{REF}\ttool\t{bytes}"));
    assert!(
        time.len() == 20 && time.as_bytes()[10] == b'T' && time.ends_with('Z'),
        "{time}"
    );

    let chars = conversation()[1]["content"][0]["content"]
        .as_str()
        .unwrap()
        .encode_utf16()
        .count();
    let out = run(&root, &["stats", "data"], b"");
    assert_eq!(
        stdout(&out),
        format!(
            "artifacts:     1 (1 tool, 0 terminal, 0 batch)\n\
             conversations: 1\n\
             size:          {}, {} kept out of conversations\n",
            tool_offload::core::materialize::count(bytes as usize, "byte"),
            tool_offload::core::materialize::count(chars, "character")
        )
    );

    let out = run(&root, &["gc", "data", "--max-size", "0", "--dry-run"], b"");
    assert_eq!(
        stdout(&out),
        format!(
            "would remove data/context/conv-1/artifacts/tool/call_log.txt\n\
             would remove 1 file ({}); 0 artifacts stay (0 bytes)\n",
            tool_offload::core::materialize::count(bytes as usize, "byte")
        )
    );
}

/// `offload` leaves `[Content offloaded to: ./tool-result-<id>.md]`; with `--offload-dir`
/// the read-back reads that file by the name the placeholder gives, and nothing else.
#[test]
fn read_tail_grep_read_the_files_offload_wrote() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let out = run(&root, &["offload", "conv-1.json", "--out", "out"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("[Content offloaded to: ./tool-result-call_log.md]"));
    let page = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--offload-dir", "out"]);
        let out = run(&root, &all, b"");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).to_owned()
    };
    let read = page(&[
        "read",
        "./tool-result-call_log.md",
        "--offset",
        "1234",
        "--limit",
        "1",
    ]);
    assert_eq!(
        read,
        "[./tool-result-call_log.md: lines 1235-1235 of 3,001. More: tool-offload read ./tool-result-call_log.md --offset 1235 --limit 1 --offload-dir out]\n1235| ERROR: disk quota exceeded on /var/lib/build\n"
    );
    let whole = page(&[
        "tail",
        "[Content offloaded to: ./tool-result-call_log.md]",
        "-n",
        "1",
    ]);
    assert!(
        whole.starts_with("[./tool-result-call_log.md: lines 3001-3001 of 3,001, the end.]"),
        "{whole}"
    );
    let grep = page(&["grep", "tool-result-call_log.md", "quota", "-C", "0"]);
    assert!(grep.contains("1235| ERROR: disk quota exceeded"), "{grep}");
    // Nothing but placeholder files: the conversation beside them is not readable.
    let out = run(
        &root,
        &["read", "../conv-1.json", "--offload-dir", "out"],
        b"",
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("not a ctx:// ref: \"../conv-1.json\""),
        "{}",
        stderr(&out)
    );
}

/// `read --path` shows what a JSON path selects in a JSON artifact.
#[test]
fn read_by_json_path() {
    let (_tmp, root) = tempdir();
    let items: Vec<Value> = (0..500)
        .map(|i| json!({"id": i, "sku": format!("S-{i}")}))
        .collect();
    let conversation = json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_q", "name": "api", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_q", "content": stringify(&json!({"items": items}))}]},
    ]);
    std::fs::write(root.join("conv-1.json"), stringify(&conversation)).unwrap();
    let out = run(
        &root,
        &["materialize", "conv-1.json", "--user-data", "data"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reference = "ctx://conv-1/tool/call_q.json";
    let args = [
        "read",
        reference,
        "--user-data",
        "data",
        "--path",
        "$.items[-1].sku",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("[{reference}: lines 1-1 of 1 at $.items[-1].sku, the end.]\n1| \"S-499\"\n")
    );
    let args = ["read", reference, "--user-data", "data", "--path", "$.item"];
    let out = run(&root, &args, b"");
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("$.item selects nothing: $ is an object with keys items"),
        "{}",
        stderr(&out)
    );
}

/// `grep PATTERN --conversation ID` searches every artifact of it, as context_grep
/// without a ref does; REF and --conversation together are refused.
#[test]
fn grep_across_a_conversations_artifacts() {
    let (_tmp, root) = tempdir();
    materialize_into_data(&root);
    let args = [
        "grep",
        "quota",
        "--conversation",
        "conv-1",
        "--user-data",
        "data",
        "-C",
        "0",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert_eq!(
        page,
        tool_page(
            &root.join("data"),
            "context_grep",
            json!({"pattern": "quota", "context": 0})
        ) + "\n"
    );
    assert!(page.starts_with("[ctx://conv-1: 1 matching row in 1 artifact (1 of 1 searched, newest first); all shown.]\n[ctx://conv-1/tool/call_log.txt: 1 matching row"), "{page}");
    let out = run(
        &root,
        &[
            "grep",
            REF,
            "quota",
            "--conversation",
            "conv-1",
            "--user-data",
            "data",
        ],
        b"",
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("give the PATTERN alone"),
        "{}",
        stderr(&out)
    );
}

/// `--tool NAME=never|always|N` sets one tool's limits; a bad one is refused by clap.
#[test]
fn materialize_with_per_tool_limits() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let materialize = |tool: &str| {
        let args = [
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "--tool",
            tool,
        ];
        run(&root, &args, b"")
    };
    let out = materialize("bash=never");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let messages = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(messages, conversation());
    // Names match exactly: another tool's entry leaves bash at the defaults.
    let out = materialize("Bash=never");
    let messages = parse(stdout(&out).trim_end()).unwrap();
    assert_ne!(messages, conversation());
    let out = materialize("*=1000");
    let messages = parse(stdout(&out).trim_end()).unwrap();
    let content = messages[1]["content"][0]["content"].as_str().unwrap();
    assert!(
        content.starts_with("[Output of bash (call call_log) stored as"),
        "{content}"
    );
    let out = materialize("bash=sometimes");
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("expected never, always, a number of characters or of tokens"),
        "{}",
        stderr(&out)
    );
}

/// `--message-budget-chars N` materializes the largest results of a message that are each
/// within the limits once together they exceed N.
#[test]
fn materialize_with_a_message_budget() {
    let (_tmp, root) = tempdir();
    let result = |id: &str, n: usize| json!({"type": "tool_result", "tool_use_id": id, "content": "y".repeat(n)});
    let conversation = json!([
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "bash", "input": {}},
            {"type": "tool_use", "id": "b", "name": "bash", "input": {}}
        ]},
        {"role": "user", "content": [result("a", 3000), result("b", 3500)]},
    ]);
    std::fs::write(root.join("conv-1.json"), stringify(&conversation)).unwrap();
    let materialize = |extra: &[&str]| {
        let mut args = vec!["materialize", "conv-1.json", "--user-data", "data"];
        args.extend_from_slice(extra);
        run(&root, &args, b"")
    };
    let out = materialize(&[]);
    assert_eq!(parse(stdout(&out).trim_end()).unwrap(), conversation);
    let out = materialize(&["--message-budget-chars", "5000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let messages = parse(stdout(&out).trim_end()).unwrap();
    let content = |k: usize| {
        messages[1]["content"][k]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(content(0), "y".repeat(3000));
    assert!(
        content(1).starts_with("[Output of bash (call b) stored as"),
        "{}",
        content(1)
    );
    let out = materialize(&["--message-budget-chars", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("must be a non-negative integer, got -1"),
        "{}",
        stderr(&out)
    );
}

/// `--context-window-tokens N [--result-share X]`: a result over its share of what the
/// messages before it leave free is materialized; a share out of (0, 1] is refused.
#[test]
fn materialize_with_a_context_window() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("conv-1.json"), stringify(&conversation())).unwrap();
    let materialize = |extra: &[&str]| {
        let mut args = vec![
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "--max-inline-chars",
            "10000000",
            "--max-inline-bytes",
            "10000000",
        ];
        args.extend_from_slice(extra);
        run(&root, &args, b"")
    };
    let out = materialize(&[]);
    assert_eq!(parse(stdout(&out).trim_end()).unwrap(), conversation());
    // The log is tens of thousands of tokens: over a quarter of a 100,000-token window.
    let out = materialize(&["--context-window-tokens", "100000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let messages = parse(stdout(&out).trim_end()).unwrap();
    let content = messages[1]["content"][0]["content"].as_str().unwrap();
    assert!(
        content.starts_with("[Output of bash (call call_log) stored as"),
        "{content}"
    );
    // All of a million-token window may be taken: it stays.
    let out = materialize(&["--context-window-tokens", "1000000", "--result-share", "1"]);
    assert_eq!(parse(stdout(&out).trim_end()).unwrap(), conversation());
    let out = materialize(&["--context-window-tokens", "1000", "--result-share", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("must be a number over 0 and at most 1, got \"1.5\""),
        "{}",
        stderr(&out)
    );
}

/// A negative or non-numeric count gets our message, not clap's "unexpected argument".
#[test]
fn counts_that_are_not_counts_are_named() {
    let (_tmp, root) = tempdir();
    for (args, message) in [
        (
            &["offload", "x.json", "--out", "o", "--threshold", "-5"][..],
            "must be a non-negative integer, got -5",
        ),
        (
            &["read", REF, "--offset", "abc"][..],
            "must be a non-negative integer (a count), got \"abc\"",
        ),
        (
            &["tail", REF, "-n", "-3"][..],
            "must be a non-negative integer, got -3",
        ),
    ] {
        let out = run(&root, args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// `materialize --redact`: a secret in an oversized output reaches neither the artifact
/// nor the summary.
#[test]
fn materialize_redact_keeps_secrets_off_disk() {
    let (_tmp, root) = tempdir();
    let mut conversation = conversation();
    let log = conversation[1]["content"][0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    conversation[1]["content"][0]["content"] = json!(format!("token {secret}\n{log}"));
    std::fs::write(root.join("conv-1.json"), stringify(&conversation)).unwrap();
    let args = [
        "materialize",
        "conv-1.json",
        "--user-data",
        "data",
        "--redact",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains(secret));
    let artifact =
        std::fs::read_to_string(root.join("data/context/conv-1/artifacts/tool/call_log.txt"))
            .unwrap();
    assert!(
        artifact.starts_with("token [REDACTED:github-token]\n"),
        "{}",
        &artifact[..80]
    );
    assert!(!artifact.contains(secret));
}
