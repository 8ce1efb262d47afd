//! Summaries of formats and of random texts, and the grep hint.
use super::compose::grep_pattern;
use super::lines::Lines;
use super::tests::{build_log, input, summary_reading_every_line};
use super::*;
use crate::text::utf16_len;

#[test]
fn the_grep_hint_finds_every_root_cause_and_verdict_found() {
    let logs = [
        build_log(),
        "FAIL src/a.test.js\n  ● sum › adds\n\n    expect(received).toBe(expected)\nTests: 1 failed, 1 passed".to_owned(),
        "=== RUN   TestAdd\n    add_test.go:12: got 3\n--- FAIL: TestAdd (0.00s)\nFAIL\nFAIL\tex.com/add\t0.01s".to_owned(),
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'".to_owned(),
        "main.c:3:5: error: x undeclared\nmake: *** [Makefile:2: main.o] Error 1".to_owned(),
    ];
    for log in &logs {
        let lines = Lines::every(log, 40, false);
        assert!(!lines.found.is_empty(), "{log}");
        let pattern = grep_pattern(log, &lines);
        let compiled = crate::grep::pattern::compile_pattern(&pattern, true).unwrap();
        assert!(
            compiled.literal_words().is_some(),
            "{pattern}: the fast literal path"
        );
        // Mentions (`add_test.go:12: got 3`) are left to the context around them.
        for d in lines
            .found
            .iter()
            .filter(|d| d.level >= detect::Level::Verdict)
        {
            assert!(
                compiled.is_match(&log[d.start..d.end]),
                "{pattern} misses {:?}",
                &log[d.start..d.end]
            );
        }
    }
}

#[test]
fn json_gets_its_shape_and_a_pretty_head_binary_only_its_kind() {
    let items: Vec<String> = (0..5000)
        .map(|i| format!(r#"{{"id":{i},"sku":"S-{i}","price":{i}.5}}"#))
        .collect();
    let text = format!(r#"{{"items":[{}],"total":5000}}"#, items.join(","));
    let s = summary(&SummaryInput {
        repeated_end: None,
        is_json: true,
        ..input(&text, 4000)
    });
    assert!(s.contains("JSON: yes.\n--- JSON: object, 2 keys ---\n  items: array[5,000] of object{id, sku, price}\n  total: number\n  largest array: $.items, 5,000 items\n"), "{s}");
    assert!(
        s.contains(
            "--- first 40 lines, pretty-printed ---\n{\n  \"items\": [\n    {\n      \"id\": 0,\n"
        ),
        "{s}"
    );
    assert!(!s.contains("1| {\"items\""), "{s}");
    assert!(utf16_len(&s) < 4000);
    let png = format!(
        "\u{FFFD}PNG\r\n\u{1A}\n\0\0\0\rIHDR{}",
        "\u{FFFD}\0x".repeat(3000)
    );
    let s = summary(&input(&png, 4000));
    assert!(s.contains("\n--- binary data: 15,018 bytes, looks like a PNG image; not shown ---\nIf you need more"), "{s}");
    assert!(!s.contains("1| "), "{s}");
}

/// Seeded pseudo-random texts built from the pieces summaries look at (failure markers,
/// decoys, ANSI escapes, gutters, headings, JSON, CSV, boilerplate, non-ASCII, long
/// lines): no panic, every limit kept, the sparse reading equal to the every-line one.
#[test]
fn random_texts_of_the_pieces_summaries_read() {
    const PIECES: [&str; 32] = [
        "error[E0308]: mismatched types",
        "  --> src/main.rs:4:18",
        "test result: FAILED. 1 passed; 1 failed",
        "test result: ok. 3 passed; 0 failed",
        "E       AssertionError: assert 1 == 2",
        "Traceback (most recent call last):",
        "KeyError: 'x'",
        "  ● sum › adds",
        "--- FAIL: TestX (0.00s)",
        "./main.go:3:2: undefined: x",
        "    x_test.go:9: got 1",
        "error_count=0 --ignore-errors \"error\": null",
        "\x1b[31merror\x1b[0m: red",
        " 10%\r100%",
        "    12→# Heading",
        "    13→def run():",
        "## Section",
        "<system-reminder>",
        "</system-reminder>",
        "{\"error\":\"boom\",\"items\":[1,2,3]}",
        "a,b,c",
        "1,2,3",
        "é😀 ünïcödé",
        "│ Error: box",
        "2024-05-01T10:00:00Z ##[error]Process completed with exit code 1.",
        "#8 0.523 npm ERR! code E404",
        "PASS src/x.test.ts",
        "ok  \tpkg\t0.01s",
        "main.c:1: undefined reference to `f'",
        "< HTTP/1.1 500 Internal Server Error",
        "",
        "plain text line",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..300 {
        let lines = 1 + next(120);
        let mut text = String::new();
        for _ in 0..lines {
            let piece = PIECES[next(PIECES.len())];
            if next(20) == 0 {
                text.push_str(&piece.repeat(1 + next(80)));
            } else {
                text.push_str(piece);
            }
            text.push(if next(10) == 0 { '\r' } else { '\n' });
        }
        if next(3) == 0 {
            text.push_str("\n<system-reminder>\nnote\n</system-reminder>\n");
        }
        for max_chars in [300, 700, 1500, 4000] {
            let mut i = input(&text, max_chars);
            i.is_json = next(4) == 0;
            i.snippet_lines = [3, 40][next(2)];
            let s = summary(&i);
            assert!(
                utf16_len(&s) < max_chars,
                "round {round}, {max_chars}: {}",
                utf16_len(&s)
            );
            assert_eq!(
                s,
                summary_reading_every_line(&i),
                "round {round}, {max_chars}: {text:?}"
            );
        }
    }
}
