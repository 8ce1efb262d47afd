//! The grep pattern a summary suggests: the markers its failure lines were found by
//! (`FAILED`, `AssertionError`, `panicked at`), not the generic words, which a run's
//! own test names can hold on every line (`test_error_handling_… PASSED`).

use super::body::body;
use super::classify::{counted_word, exception, find, words};
use super::detection::{ranked, Detection};
use super::rules::{Level, Shape, RULES};
use crate::text::plain::plain;

/// Alternatives a hint holds at most: the best-ranked lines' markers.
const MAX_MARKERS: usize = 6;

/// Markers shorter than this say too little (`E`, `FA`): the rule's key stands instead.
const MIN_MARKER: usize = 3;

/// Literal alternatives (`AssertionError|FAILED`) that find, ASCII case-insensitively,
/// the root-cause candidates and verdicts of `found` (lines of `text`), the likely root
/// cause first; the mere mentions only when there is nothing more. A marker that holds
/// another is left out (the shorter finds both). `None` when nothing was found.
///
/// ```
/// use tool_offload_core::materialize::detect::{detect, grep_pattern};
/// let log = "error[E0308]: mismatched types\nthread 'main' panicked at src/main.rs:2:5:\nerror: could not compile `x`";
/// assert_eq!(grep_pattern(log, &detect(log)).as_deref(), Some("error|panicked at"));
/// let pytest = "tests/test_errors.py::test_error_path PASSED\ntests/t.py:5: AssertionError\nFAILED tests/t.py::test_x - assert 1 == 2";
/// assert_eq!(grep_pattern(pytest, &detect(pytest)).as_deref(), Some("AssertionError|FAILED"));
/// ```
pub fn grep_pattern(text: &str, found: &[Detection]) -> Option<String> {
    // A mention is a generic word (`error` in `test_x[error] PASSED`): beside a root
    // cause or a verdict it would bring back every line the run's names hold it in.
    let floor = if found.iter().any(|d| d.level >= Level::Verdict) {
        Level::Verdict
    } else {
        Level::Mention
    };
    let mut markers: Vec<String> = Vec::new();
    for d in ranked(found).into_iter().map(|i| &found[i]) {
        if d.level < floor {
            continue;
        }
        let marker = marker(&text[d.start..d.end], d);
        let folded = marker.to_ascii_lowercase();
        // (memchr's searcher, not `str::contains`: the wasm holds one searcher.)
        let holds = |outer: &str, inner: &str| {
            crate::search::find(&outer.to_ascii_lowercase(), inner).is_some()
        };
        if markers
            .iter()
            .any(|m| holds(&folded, &m.to_ascii_lowercase()))
        {
            continue;
        }
        markers.retain(|m| !holds(m, &folded));
        if markers.len() == MAX_MARKERS {
            break;
        }
        markers.push(marker);
    }
    let mut pattern = String::new();
    for marker in &markers {
        if !pattern.is_empty() {
            pattern.push('|');
        }
        pattern.push_str(marker);
    }
    (!pattern.is_empty()).then_some(pattern)
}

/// The text `line` was found by: what its rule matched (the line's own spelling), or
/// the exception's name; the rule's key when that would hold a regex metacharacter
/// throughout, say too little, or be cut by the ANSI escapes of the raw line (which
/// grep reads).
fn marker(line: &str, d: &Detection) -> String {
    let shown = plain(line);
    let b = body(&shown);
    let rule = &RULES[usize::from(d.rule)];
    let matched = match rule.shape {
        Shape::Start(t) => b.get(..t.len()),
        Shape::Contains(t) => {
            find(&shown, t, rule.ignore_case, 0).map(|at| &shown[at..at + t.len()])
        }
        Shape::Word(t) => words(&shown, t, rule.ignore_case)
            .next()
            .map(|at| &shown[at..at + t.len()]),
        Shape::Count(counted) => counted_word(&shown, counted),
        Shape::ExceptionName => exception(b).map(|(name, _)| name),
        // A `StartWith`'s start says too little alone (`make`, `___`): the key.
        _ => None,
    };
    let raw = line.to_ascii_lowercase();
    match matched.map(literal).filter(|m| {
        m.len() >= MIN_MARKER && crate::search::find(&raw, &m.to_ascii_lowercase()).is_some()
    }) {
        Some(m) => m.to_owned(),
        None => d.key.to_owned(),
    }
}

/// The longest run of `text` without a regex metacharacter or a quote (the hint is
/// written in quotes), blanks trimmed: `[ERROR] Failed to execute goal` gives `Failed to
/// execute goal`, `java.io.IOException` gives `IOException`.
fn literal(text: &str) -> &str {
    let meta = |c: char| {
        matches!(
            c,
            '\\' | '.'
                | '+'
                | '*'
                | '?'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | '^'
                | '$'
                | '|'
                | '"'
        )
    };
    text.split(meta).map(str::trim_ascii).fold(
        "",
        |best, run| if run.len() > best.len() { run } else { best },
    )
}
