//! The DFA against the engine: every pattern it takes must match exactly the rows the
//! engine matches.

use super::Dfa;
use crate::test_rng::Rng;

/// Whether both compiled `pattern` (and so were compared).
fn agree(pattern: &str, ignore_case: bool, rows: &[&str]) -> bool {
    let Ok(engine) = regex_lite::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .build()
    else {
        return false;
    };
    let Some(dfa) = Dfa::new(pattern, ignore_case) else {
        return false;
    };
    for row in rows {
        assert_eq!(
            dfa.is_match(row),
            Some(engine.is_match(row)),
            "{pattern:?} (ignore_case {ignore_case}) on {row:?}"
        );
    }
    true
}

const ROWS: &[&str] = &[
    "",
    "a",
    "ab",
    "abc",
    "ERROR: order=1234567 failed",
    "error order=12345678",
    "Panic: index out of range",
    "panic",
    "xpanicx",
    "foo_bar baz",
    "  \t leading",
    "trailing  ",
    "naïve café — 😀 done",
    "é",
    "😀",
    "a\nb",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
    "word1 word2 word3",
    "[x] {y} (z) a|b a.b a+b",
    "2026-12-01T21:59:00Z INFO ok",
    "_",
    "-",
];

#[test]
fn the_patterns_models_write_match_as_the_engine_does() {
    let patterns = [
        r"(?i)panic: index",
        r"order=\d{7}\b",
        r"\d{7}\b",
        r"\bPanic\b",
        r"ERROR.*out of range",
        r"ERROR.*failed",
        r"^ERROR",
        r"done$",
        r"^$",
        r"\d+",
        r"\w+\s\w+",
        r"(\w+\s?)+$",
        r"(a|aa){40}c",
        r"(a+)+$",
        r"[^a-z ]",
        r"[a-]",
        r"[-a]",
        r"[\d\s]x?",
        r"[^\w]",
        r"\W\S",
        r"\B\w\B",
        r"é",
        r"caf.",
        r".😀",
        r"a.b",
        r"\.",
        r"\[x\]",
        r"\{y\}",
        r"a|b|",
        r"(|a)b",
        r"(?:ab)+c?",
        r"x{0}",
        r"a{2,}",
        r"a{1,3}?b",
        r"\t",
        r"[\]]",
        r"[a\-z]",
        r"\b",
        r"\B",
        r"(?i)ÉCHEC|é",
        r"[^\s\S]",
        r"[\S\s]",
    ];
    for pattern in patterns {
        for ignore_case in [false, true] {
            let compared = agree(pattern, ignore_case, ROWS);
            assert!(compared || pattern.contains("é|"), "{pattern} was compared");
        }
    }
}

#[test]
fn the_dfa_takes_the_everyday_patterns() {
    for pattern in [
        r"(?i)panic: index",
        r"order=\d{7}\b",
        r"\bPanic\b",
        r"ERROR.*x",
        r"(\w+\s?)+$",
    ] {
        assert!(Dfa::new(pattern, false).is_some(), "{pattern}");
    }
    // Outside the subset: the engine alone.
    for pattern in [
        r"\x41",
        r"(?s).",
        r"a(?i)b",
        r"[[:alpha:]]",
        r"[é]",
        r"a**",
        r"(?P<n>a)",
        r"\pL",
    ] {
        assert!(Dfa::new(pattern, false).is_none(), "{pattern}");
    }
}

/// `len` random letters `a` and `b`.
fn ab_row(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| {
            if rng.next().is_multiple_of(2) {
                'a'
            } else {
                'b'
            }
        })
        .collect()
}

#[test]
fn random_patterns_match_as_the_engine_does() {
    let atoms = [
        "a", "b", "A", "é", "😀", ".", r"\d", r"\w", r"\s", r"\D", r"\W", r"\S", "[ab]", "[^a]",
        "[a-c]", r"[\d_]", "[^ ]", r"\.", "-", " ", "0", "_", "^", "$", r"\b", r"\B", "[^A-C]",
        "[X-b]", r"\-", "[.]", r"[^\W_]", "B", "(?:a|b)",
    ];
    let repeats = [
        "", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "{2,}",
    ];
    let alphabet = [
        "a", "b", "A", "B", "C", "Z", "[", "`", "é", "😀", "0", "1", " ", "_", "-", ".", "\t",
        "ab", "ba",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    for _ in 0..3_000 {
        let mut pattern = String::new();
        let items = rng.next() % 6 + 1;
        let mut open = 0;
        for _ in 0..items {
            match rng.next() % 10 {
                0 => {
                    pattern.push('(');
                    open += 1;
                }
                1 if open > 0 => {
                    pattern.push(')');
                    open -= 1;
                    pattern.push_str(rng.pick(&repeats));
                }
                2 => pattern.push('|'),
                _ => {
                    pattern.push_str(rng.pick(&atoms));
                    pattern.push_str(rng.pick(&repeats));
                }
            }
        }
        for _ in 0..open {
            pattern.push(')');
        }
        let prefix = if rng.next().is_multiple_of(4) {
            "(?i)"
        } else {
            ""
        };
        let pattern = format!("{prefix}{pattern}");
        let rows: Vec<String> = (0..12)
            .map(|_| {
                (0..rng.next() % 10)
                    .map(|_| rng.pick(&alphabet))
                    .collect::<String>()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        compared += agree(&pattern, rng.next().is_multiple_of(3), &rows) as u32;
    }
    assert!(compared > 2_000, "only {compared} patterns compared");
}

#[test]
fn a_cache_that_thrashes_gives_the_row_back_to_the_engine() {
    // A 20-from-the-end pattern has a million states: the cache clears, then gives up.
    let dfa = Dfa::new(r"a[ab]{20}$", false).unwrap();
    let mut rng = Rng(7);
    let row = ab_row(&mut rng, 400_000);
    let engine = regex_lite::Regex::new(r"a[ab]{20}$").unwrap();
    match dfa.is_match(&row) {
        Some(m) => assert_eq!(m, engine.is_match(&row)),
        None => assert!(
            dfa.is_match("a").is_none(),
            "once given up, always the engine"
        ),
    }
}

#[test]
fn a_small_cache_clears_and_stays_right_then_gives_up() {
    let pattern = r"a[ab]{6}$";
    let engine = regex_lite::Regex::new(pattern).unwrap();
    let dfa = Dfa::new(pattern, false).unwrap();
    // Room for 20 states (6 byte classes each): a row of 30 random letters meets up
    // to 30 new ones, so rows clear the cache now and then.
    dfa.lazy
        .lock()
        .unwrap()
        .as_mut()
        .unwrap()
        .limit_cache(20 * 6);
    let mut rng = Rng(11);
    let mut answered = 0;
    for _ in 0..200 {
        let row = ab_row(&mut rng, 30);
        match dfa.is_match(&row) {
            Some(m) => {
                assert_eq!(m, engine.is_match(&row), "{row}");
                answered += 1;
            }
            None => break,
        }
    }
    // It answered rows across clears (each row overflows the cache) before giving up
    // after its eighth clear, and from then on leaves every row to the engine.
    assert!((2..200).contains(&answered), "answered {answered} rows");
    assert!(dfa.is_match("a").is_none(), "gave up");
}

#[test]
fn a_pattern_prints_its_dfa() {
    let dfa = Dfa::new("a", false).unwrap();
    assert_eq!(format!("{dfa:?}"), "Dfa");
}

#[test]
fn large_state_keys_count_against_the_cache_too() {
    // 120 NFA states and 5 byte classes: the table stays small while the states' keys
    // (the NFA states each holds) grow; they clear the cache as the table would.
    let pattern = "(a|aa){40}c";
    let engine = regex_lite::Regex::new(pattern).unwrap();
    let dfa = Dfa::new(pattern, false).unwrap();
    dfa.lazy
        .lock()
        .unwrap()
        .as_mut()
        .unwrap()
        .limit_cache(1_000);
    let row = "a".repeat(200) + "c";
    if let Some(m) = dfa.is_match(&row) {
        assert_eq!(m, engine.is_match(&row));
    }
    let clears = dfa
        .lazy
        .lock()
        .unwrap()
        .as_ref()
        .map_or(u32::MAX, |l| l.clears());
    assert!(clears >= 1, "the keys cleared the cache ({clears})");
}
