use super::compose::{pointer_line, summary_of};
use super::lines::Lines;
use super::*;
use crate::forms::reference::ArtifactKind;
use crate::forms::summary_header::summary_ref;
use crate::text::measure::Measure;
use crate::text::measure::MAX_PREVIEW_CHARS;
use crate::text::utf16_len;

/// The summary read from every line of the text: the sparse reading must give the same.
pub(super) fn summary_reading_every_line(input: &SummaryInput<'_>) -> String {
    summary_of(
        input,
        &Lines::every(input.output.text, input.snippet_lines, input.is_json),
    )
}

pub(super) fn build_log() -> String {
    let mut lines: Vec<String> = (1..=600)
        .map(|i| format!("   Compiling crate_{i} v0.1.{i}"))
        .collect();
    lines[299] = "error[E0308]: mismatched types".into();
    lines[300] = "  --> src/main.rs:42:24".into();
    lines[449] = format!("warning: {} long line", "x".repeat(900));
    lines.push("error: could not compile `agent` due to 1 previous error".into());
    lines.join("\n")
}

pub(super) fn input(text: &str, max_chars: usize) -> SummaryInput<'_> {
    SummaryInput {
        repeated_end: None,
        reference: "ctx://c1/tool/call_1.txt",
        output: ToolOutputRef {
            tool_call_id: "call_1",
            tool_name: "run_build",
            server_name: Some("ci"),
            text,
            was_value: false,
        },
        kind: ArtifactKind::Tool,
        measure: Measure::of(text),
        is_json: false,
        snippet_lines: 40,
        snippet_bytes: None,
        max_chars,
    }
}

#[test]
fn every_limit_is_kept_and_the_pointer_names_the_origin_whenever_it_fits() {
    let log = build_log();
    let tool = "t".repeat(900);
    for max_chars in 900..1200 {
        let mut i = input(&log, max_chars);
        i.output.tool_name = &tool;
        let s = summary(&i);
        assert!(utf16_len(&s) < max_chars, "{max_chars}: {}", utf16_len(&s));
        let origin = format!("ci/{tool} (call call_1)");
        let full = pointer_line(&i, &origin);
        let first = s.lines().next().unwrap_or_default();
        if utf16_len(&full) < max_chars {
            assert_eq!(first, full, "{max_chars}");
        } else {
            assert_eq!(first, pointer_line(&i, "tool"), "{max_chars}");
        }
        // Something after the pointer when there is room for more than the frame.
        let rest = max_chars.saturating_sub(utf16_len(first) + 1);
        assert_eq!(s.len() > first.len(), rest > 40, "{max_chars}");
    }
    for max_chars in (1000..6000).step_by(7) {
        let s = summary(&input(&log, max_chars));
        assert!(utf16_len(&s) < max_chars, "{max_chars}: {}", utf16_len(&s));
    }
}

#[test]
fn reading_only_the_lines_shown_gives_the_summary_of_every_line() {
    let many = (0..300)
        .map(|i| match i % 37 {
            0 => format!("ERROR at step {i}\r"),
            5 => "panic: next to\r".to_owned(),
            6 => "failed right after".to_owned(),
            7 => "\x1b[31merror[E0001]\x1b[0m: coloured".to_owned(),
            _ => format!("step {i} ok"),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let texts = [
        "error: on the first line\nsecond\nthird".to_owned(),
        "one\ntwo\nfatal: on the last line".to_owned(),
        "one\ntwo\nfatal: on the last line\n".to_owned(),
        "\n\nerror: after empty lines\n\n".to_owned(),
        "Traceback (most recent call last):\r\n  File \"x\"\r\nKeyError: 1\r\n".to_owned(),
        many.clone(),
        format!("{many}\n"),
        "x".repeat(5000),
        "error".to_owned(),
        build_log(),
        (1..=400)
            .map(|i| match i % 50 {
                1 => format!("{i:>6}→# Part {i}"),
                20 => format!("{i:>6}→## Section {i}"),
                _ => format!("{i:>6}→text {i}"),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        // Failure lines just before the last lines shown, and just after the first.
        (0..20)
            .map(|i| {
                if i == 16 || i == 3 {
                    "error: here"
                } else {
                    "ok"
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    ];
    for text in &texts {
        for (snippet_lines, snippet_bytes, max_chars) in [
            (40, None, 4000),
            (3, None, 4000),
            (5, Some(60), 4000),
            (40, None, 700),
            (40, None, 1500),
        ] {
            let mut i = input(text, max_chars);
            i.snippet_lines = snippet_lines;
            i.snippet_bytes = snippet_bytes;
            assert_eq!(
                summary(&i),
                summary_reading_every_line(&i),
                "{text:?} {snippet_lines} {snippet_bytes:?} {max_chars}"
            );
        }
    }
}

#[test]
fn the_failure_comes_first_with_its_context_then_head_and_tail() {
    let log = build_log();
    let s = summary(&input(&log, 4000));
    let first = s.lines().next().unwrap();
    assert_eq!(first, "[Output of ci/run_build (call call_1) stored as ctx://c1/tool/call_1.txt and not shown in full: read it with context_read, context_tail or context_grep.]");
    let errors = "Size: 19,919 bytes, 19,919 characters, 601 lines. JSON: no.\n\
        --- errors: 2 lines found; likely root cause at line 300 ---\n\
        300| error[E0308]: mismatched types\n\
        301|   --> src/main.rs:42:24\n\
        302|    Compiling crate_302 v0.1.302\n\
        303|    Compiling crate_303 v0.1.303\n\
        304|    Compiling crate_304 v0.1.304\n\
        ...\n\
        600|    Compiling crate_600 v0.1.600\n\
        601| error: could not compile `agent` due to 1 previous error\n\
        --- first ";
    assert!(s.contains(errors), "{s}");
    let errors_at = s.find("--- errors").unwrap();
    assert!(errors_at < s.find("--- first").unwrap());
    assert!(s.contains("--- last "));
    assert!(s.ends_with(
        "If you need more: context_tail(\"ctx://c1/tool/call_1.txt\", 200) or context_grep(\"ctx://c1/tool/call_1.txt\", \"error\", ignore_case: true)."
    ));
    assert!(utf16_len(&s) < 4000);
    assert!(s.lines().all(|l| utf16_len(l) <= MAX_PREVIEW_CHARS + 40));
}

#[test]
fn failure_excerpts_stay_when_head_and_tail_give_way() {
    let log = build_log();
    for max in [700, 1000, 1500, 2000] {
        let s = summary(&input(&log, max));
        assert!(
            s.contains("300| error[E0308]: mismatched types\n"),
            "{max}: {s}"
        );
        assert!(utf16_len(&s) < max);
    }
    // Too many to show: the rest are listed by line number, in order.
    let many: String = (1..=400)
        .map(|i| {
            if i % 20 == 0 {
                format!("src/m{i}.c:{i}:1: error: bad {i}\n")
            } else {
                format!("cc -c m{i}.c\n")
            }
        })
        .collect();
    let s = summary(&input(&many, 4000));
    assert!(s.contains("--- errors: 20 lines found; likely root cause at line 20 ---\n20| src/m20.c:20:1: error: bad 20\n21| cc -c m21.c\n22| cc -c m22.c\n23| cc -c m23.c\n...\n40| "), "{s}");
    assert!(
        s.contains(
            "--- more at lines 140, 160, 180, 200, 220, 240, 260, 280, 300, 320, 340, 360 … ---\n"
        ),
        "{s}"
    );
}

#[test]
fn a_byte_budget_bounds_head_and_tail_too() {
    let text: String = (1..=100).map(|i| format!("{i:0>99}\n")).collect();
    let s = summary(&SummaryInput {
        repeated_end: None,
        snippet_bytes: Some(2048),
        ..input(&text, 20_000)
    });
    // 100 bytes a line with its newline: 20 lines fit in 2 KB, head and tail each.
    assert!(s.contains("--- first 20 lines ---\n1| "), "{s}");
    assert!(s.contains("--- 60 lines omitted ---\n--- last 20 lines ---\n81| "));
    assert!(!s.contains("--- errors"));
    assert!(s.ends_with("\"error|exception|fail|panic|fatal\", ignore_case: true)."));
}

#[test]
fn a_pointer_too_long_for_the_limit_names_only_the_kind() {
    // Found by `make fuzz` (summary_paging): a 2000-unit tool name made the summary,
    // pointer alone, twice the 1000-unit limit.
    let log = build_log();
    let name = "n".repeat(2000);
    let s = summary(&SummaryInput {
        repeated_end: None,
        output: ToolOutputRef {
            tool_name: &name,
            ..input(&log, 1000).output
        },
        ..input(&log, 1000)
    });
    assert!(utf16_len(&s) < 1000, "{}", utf16_len(&s));
    assert!(s.starts_with("[Output of tool stored as ctx://c1/tool/call_1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 19,919 bytes"), "{s}");
    assert_eq!(summary_ref(&s), Some("ctx://c1/tool/call_1.txt"));
}

#[test]
fn short_outputs_show_every_line_once_in_head() {
    let s = summary(&input("a\nb\nc", 4000));
    assert!(s.contains("--- first 3 lines ---\n1| a\n2| b\n3| c\n"));
    assert!(!s.contains("omitted") && !s.contains("last"));
}

#[test]
fn lines_are_shown_as_a_terminal_shows_them() {
    let text = "\x1b[1m\x1b[32m   Compiling\x1b[0m foo v0.1.0\n\x1b[0m\x1b[1m\x1b[38;5;9merror[E0425]\x1b[0m\x1b[1m: cannot find value `x`\x1b[0m\n 10%\r 55%\r100% done";
    let s = summary(&input(text, 4000));
    assert!(!s.contains('\x1b') && !s.contains('\r'), "{s:?}");
    assert!(
        s.contains("2| error[E0425]: cannot find value `x`\n"),
        "{s}"
    );
    assert!(s.contains("3| 100% done\n"), "{s}");
}

#[test]
fn a_harness_trailer_is_named_not_shown() {
    let file: String = (1..=300)
        .map(|i| format!("{i:>6}→line {i} of the file\n"))
        .collect();
    let text = format!("{file}\n<system-reminder>\nWhenever you read a file, consider whether it is malware.\n</system-reminder>\n");
    let s = summary(&input(&text, 4000));
    assert!(
        s.contains("--- last 40 lines ---\n261→line 261 of the file\n"),
        "{s}"
    );
    assert!(s.contains("300→line 300 of the file\n--- lines 301-304: a <system-reminder> block (96 characters), not shown ---\nIf you need more"), "{s}");
    assert!(
        s.contains("Size: 8,988 bytes, 8,388 characters, 304 lines."),
        "{s}"
    );
    assert!(!s.contains("malware"));
}

#[test]
fn failure_words_without_a_marker_show_three_lines_alone() {
    let text: String = (1..=300)
        .map(|i| match i % 40 {
            0 => format!("Section {i} says what a failed upload does.\n"),
            _ => format!("Ordinary prose on line {i}.\n"),
        })
        .collect();
    let s = summary(&input(&text, 4000));
    assert!(
        s.contains("--- failure words on 7 lines; none is an error marker ---\n40| Section 40 says what a failed upload does.\n...\n80| Section 80"),
        "{s}"
    );
    assert!(
        s.contains("120| Section 120") && !s.contains("160| Section"),
        "{s}"
    );
    assert!(
        s.contains("--- more at lines 160, 200, 240, 280 ---"),
        "{s}"
    );
}
