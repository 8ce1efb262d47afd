//! The `tool-offload` CLI reads escaped lone surrogates as `JSON.parse` does, in either
//! mode: untouched messages written back with the same escapes, offloaded content as
//! U+FFFD, ids holding one `INVALID_ID`.
mod common;

use std::collections::BTreeMap;

use common::*;

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
