//! Tests of grep's pattern compilation: limits, the literal fast path, the DFA beside the engine.

use super::*;

fn reason(pattern: &str) -> String {
    match compile_pattern(pattern, false) {
        Err(OffloadError::InvalidPattern { reason, .. }) => reason,
        other => panic!("{pattern:?} compiled: {other:?}"),
    }
}

#[test]
fn catastrophic_backtracking_patterns_run_in_linear_time() {
    let p = compile_pattern("(a+)+$", false).unwrap();
    let row = "a".repeat(100_000) + "b";
    assert!(!p.is_match(&row));
    assert!(p.is_match("aaa"));
}

#[test]
fn many_literal_words_are_matched_by_the_dfa_as_the_engine_matches() {
    let words: Vec<String> = (0..MAX_SEARCHED_WORDS + 1)
        .map(|i| format!("w{i}x"))
        .collect();
    let rows = [
        "w0x", "a w64x b", "w6x", "W3X", "w100x", "none", "", "ww1xx",
    ];
    for (count, searched) in [(MAX_SEARCHED_WORDS, true), (MAX_SEARCHED_WORDS + 1, false)] {
        for ignore_case in [false, true] {
            let pattern = words[..count].join("|");
            let many = compile_pattern(&pattern, ignore_case).unwrap();
            assert_eq!(many.prefilter_words().is_some(), searched, "{count} words");
            assert_eq!(many.dfa.is_none(), searched, "{count} words");
            let engine = Pattern {
                literals: None,
                dfa: None,
                ..many.clone()
            };
            for row in rows {
                assert_eq!(many.is_match(row), engine.is_match(row), "{count}: {row:?}");
            }
        }
    }
}

#[test]
fn the_ignore_case_option_folds_the_required_literal_too() {
    // `out of range` is what every match must hold: with the option, in any case.
    let p = compile_pattern(r"Out of Range.*\d", true).unwrap();
    assert_eq!(
        p.prefilter_words(),
        Some((&["out of range".to_owned()][..], true))
    );
    assert!(p.is_match("index out of range 7"));
    assert!(p.is_match("INDEX OUT OF RANGE 7"));
    assert!(!compile_pattern(r"Out of Range.*\d", false)
        .unwrap()
        .is_match("out of range 7"));
}

#[test]
fn patterns_over_the_length_limit_are_invalid() {
    let at_limit = "a".repeat(MAX_PATTERN_CHARS);
    assert!(compile_pattern(&at_limit, false).is_ok());
    assert_eq!(
        reason(&"a".repeat(60_000)),
        "the pattern is 60,000 characters long; at most 1,000 are allowed"
    );
    // The message shows the start of the pattern, not all of it.
    let err = compile_pattern(&"a".repeat(60_000), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "invalid pattern {:?} …[cut: 59,900 more characters]: the pattern is 60,000 characters long; at most 1,000 are allowed",
            "a".repeat(100)
        )
    );
    // Counted in UTF-16 code units, as JavaScript counts: 😀 is two.
    assert!(compile_pattern(&"😀".repeat(MAX_PATTERN_CHARS / 2 + 1), false).is_err());
}

#[test]
fn unsupported_syntax_is_invalid_with_the_reason() {
    assert_eq!(reason("(?=a)b"), "look-around is not supported");
    assert_eq!(reason("(?<!a)b"), "look-around is not supported");
    assert_eq!(reason(r"(a)\1"), "backreferences are not supported");
    assert_eq!(reason("("), "found open group without closing ')'");
}

#[test]
fn counted_repetitions_past_the_compiled_limit_are_invalid() {
    assert!(reason("a{1000}{1000}").contains("size limit"));
}

#[test]
fn match_positions_are_on_character_boundaries() {
    let empty = compile_pattern("", false).unwrap();
    assert_eq!(empty.match_spans("😀x"), [(0, 0)]);
    let maybe = compile_pattern("x?", false).unwrap();
    assert!(maybe
        .match_spans("😀x😀")
        .iter()
        .all(|&(a, b)| "😀x😀".is_char_boundary(a) && "😀x😀".is_char_boundary(b)));
    let words = compile_pattern("ab|b|x", true).unwrap();
    assert_eq!(words.match_spans("AB x"), [(0, 2), (1, 2), (3, 4)]);
}

#[test]
fn ignore_case_folds_ascii_letters_only() {
    let p = compile_pattern("ERROR", true).unwrap();
    assert!(p.is_match("error: x"));
    assert!(!compile_pattern("ERROR", false)
        .unwrap()
        .is_match("error: x"));
    // Non-ASCII letters match as written.
    let p = compile_pattern("ÉCHEC", true).unwrap();
    assert!(p.is_match("ÉCHEC"));
    assert!(!p.is_match("échec"));
}

#[test]
fn literal_alternatives_match_exactly_the_rows_the_engine_matches() {
    let rows = [
        "",
        "Error: x",
        "an ERROR",
        "error",
        "Exception raised",
        "exception",
        "ok",
        "naïve Échec",
        "échec",
        "a|b",
        "x.y",
        "Err",
        "ErrorException",
    ];
    let patterns = [
        "Error|Exception",
        "error",
        "ERROR|ok",
        "échec",
        "Échec",
        "a",
        "|",
        "x|",
        "Err|",
        "r E",
        "naïve",
        "(?i)error",
        "(?i)Error|Exception",
        "(?i)échec",
        "(?i)",
    ];
    for pattern in patterns {
        for ignore_case in [false, true] {
            let fast = compile_pattern(pattern, ignore_case).unwrap();
            assert!(fast.literals.is_some(), "{pattern:?} takes the fast path");
            let engine = Pattern {
                literals: None,
                dfa: None,
                ..fast.clone()
            };
            for row in rows {
                assert_eq!(
                    fast.is_match(row),
                    engine.is_match(row),
                    "{pattern:?} (ignore_case {ignore_case}) on {row:?}"
                );
            }
        }
    }
    for pattern in [
        r"err\.", "e.r", "(a)", "^a", "a$", "[ab]", "a{2}", "a+", "(?i)a.b", "(?-i)a",
    ] {
        assert!(
            compile_pattern(pattern, false).unwrap().literals.is_none(),
            "{pattern}"
        );
    }
}
