//! One line against the rules: the line's body, and the first rule it matches.

use super::body::body;
use super::levels::word_byte;
use super::rules::{Level, Rule, Shape, RULES};
use crate::text::plain::plain;

/// What [`classify`] found: the level, the rule's index in [`RULES`], and the literal
/// to grep for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified {
    /// How strongly the line points at the failure.
    pub level: Level,
    /// Index in [`RULES`].
    pub rule: u16,
    /// A literal the line holds, ASCII case aside.
    pub key: &'static str,
}

/// The first rule `line` matches, if any (a [`Level::Not`] when a veto does).
///
/// ```
/// use tool_offload_core::materialize::detect::{classify, Level};
/// let level = |l: &str| classify(l).map(|c| c.level);
/// assert_eq!(level("src/a.ts(3,7): error TS2322: Type 'string' is not assignable"), Some(Level::Root));
/// assert_eq!(level("test result: FAILED. 3 passed; 1 failed; 0 ignored"), Some(Level::Verdict));
/// assert_eq!(level("tests/test_io.py::test_handles_error_case PASSED   [ 40%]"), Some(Level::Not));
/// assert_eq!(level("Found 0 errors. Watching for file changes."), None);
/// assert_eq!(level("rows=12 error_count=0 --ignore-errors"), None);
/// ```
pub fn classify(line: &str) -> Option<Classified> {
    let line = plain(line);
    let body = body(&line);
    RULES.iter().enumerate().find_map(|(i, rule)| {
        matches(rule, &line, body).map(|key| Classified {
            level: rule.level,
            rule: i as u16,
            key,
        })
    })
}

/// The key when `rule` matches: `line` whole (for contains and words), `body` for starts.
fn matches(rule: &Rule, line: &str, body: &str) -> Option<&'static str> {
    let nocase = rule.ignore_case;
    let found = match rule.shape {
        Shape::Start(text) => starts(body, text, nocase),
        Shape::StartWith(text, any) => {
            starts(body, text, nocase) && any.iter().any(|t| find(line, t, nocase, 0).is_some())
        }
        Shape::Contains(text) => find(line, text, nocase, 0).is_some(),
        // Not a setting's name either (`#failure=4`, `on_error=retry`).
        Shape::Word(text) => words(line, text, nocase).any(|at| {
            let end = at + text.len();
            !zero(line, at, end) && line.as_bytes().get(end) != Some(&b'=')
        }),
        Shape::Count(counted) => {
            // The key is the word's stem, so one alternative finds every form.
            return counted_word(line, counted).map(|w| {
                if w.starts_with("fail") {
                    "fail"
                } else {
                    "error"
                }
            });
        }
        Shape::ExceptionName => return exception_name(body),
        Shape::GoPosition => go_position(body),
        Shape::GoTestLine => go_test_line(body),
        Shape::HttpStatus => http_error_status(body),
        Shape::JsonError => json_error(line),
        Shape::LevelList => super::levels::level_list(line),
    };
    found.then_some(rule.key)
}

/// The first of `counted` that `line` holds with a nonzero count (see [`Shape::Count`]).
pub(super) fn counted_word(line: &str, counted: &[&'static str]) -> Option<&'static str> {
    counted.iter().copied().find(|w| {
        words(line, w, true).any(|at| {
            counted_before(line, at)
                // `Failures: 1`, `failed=1`; not `error: 502`.
                || (!matches!(*w, "error" | "failure") && counted_after(line, at + w.len()))
        })
    })
}

/// Whether `body` starts with `text`, and a text ending in a letter or digit ends a word
/// there (`FAIL` is not the start of `FAILOVER`).
fn starts(body: &str, text: &str, nocase: bool) -> bool {
    let head = body.as_bytes().get(..text.len());
    // The first byte before the rest: most rules fail on it, without a call to memcmp.
    let same = match head {
        Some(h) if nocase => {
            h[0].eq_ignore_ascii_case(&text.as_bytes()[0])
                && h.eq_ignore_ascii_case(text.as_bytes())
        }
        Some(h) => h[0] == text.as_bytes()[0] && h == text.as_bytes(),
        None => false,
    };
    same && !(text
        .as_bytes()
        .last()
        .is_some_and(u8::is_ascii_alphanumeric)
        && body
            .as_bytes()
            .get(text.len())
            .is_some_and(|&b| word_byte(b)))
}

/// Where `text` occurs in `line` from `from`, ASCII case-insensitively when `nocase`.
pub(super) fn find(line: &str, text: &str, nocase: bool, from: usize) -> Option<usize> {
    // One byte by memchr, then the whole compared: a line is short, and building a
    // memmem searcher for each of the rules' texts on each line cost more than the
    // search (a log with a decoy on every line classifies every line). The byte is the
    // first that is not a blank: rules like ` PASSED` would stop at every space.
    let hay = &line.as_bytes()[from..];
    let needle = text.as_bytes();
    let last = hay.len().checked_sub(needle.len())?;
    let k = needle.iter().position(|&b| b != b' ').unwrap_or(0);
    let same = |at: usize| {
        let window = &hay[at..at + needle.len()];
        if nocase {
            window.eq_ignore_ascii_case(needle)
        } else {
            window == needle
        }
    };
    let anchor = needle[k];
    let (upper, lower) = (anchor.to_ascii_uppercase(), anchor.to_ascii_lowercase());
    let candidates = &hay[k..=last + k];
    let found = if nocase && upper != lower {
        memchr::memchr2_iter(upper, lower, candidates).find(|&at| same(at))
    } else {
        memchr::memchr_iter(anchor, candidates).find(|&at| same(at))
    };
    found.map(|i| from + i)
}

/// Every place `text` occurs in `line` (case included), overlapping ones too.
fn all<'a>(line: &'a str, text: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = find(line, text, false, from)?;
        from = at + 1;
        Some(at)
    })
}

/// Where `text` occurs in `line` as a whole word: not inside a name, a path
/// (`/var/log/error.log`) or a member (`console.error`).
pub(super) fn words<'a>(
    line: &'a str,
    text: &'a str,
    nocase: bool,
) -> impl Iterator<Item = usize> + 'a {
    let b = line.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(at) = find(line, text, nocase, from) {
            from = at + 1;
            let end = at + text.len();
            let before_ok = at == 0
                || !(word_byte(b[at - 1]) || matches!(b[at - 1], b'.' | b'/' | b'$' | b'@'));
            let after_ok = match b.get(end) {
                None => true,
                Some(&c) if word_byte(c) || c == b'/' => false,
                // `error.log`, `fail.rs`: a dot that goes on into a name.
                Some(b'.') => !b.get(end + 1).is_some_and(|&c| c.is_ascii_alphanumeric()),
                Some(_) => true,
            };
            if before_ok && after_ok {
                return Some(at);
            }
        }
        None
    })
}

/// Whether the word at `line[at..end]` is counted as none: `0 failed`, `no errors`,
/// `error: null`, `"error": false`, `failed=0`.
fn zero(line: &str, at: usize, end: usize) -> bool {
    let before = line[..at].trim_ascii_end();
    let last = &before[before
        .bytes()
        .rposition(|b| !b.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1)..];
    if last == "0" || last.eq_ignore_ascii_case("no") || last.eq_ignore_ascii_case("zero") {
        return true;
    }
    let after = line[end..]
        .trim_start_matches(['"', '\''])
        .trim_ascii_start();
    let Some(value) = after.strip_prefix([':', '=']) else {
        return false;
    };
    let value = value.trim_ascii_start();
    ["0", "null", "false", "none", "nil", "[]", "{}", "\"\""]
        .iter()
        .any(|v| {
            value.len() >= v.len()
                && value.as_bytes()[..v.len()].eq_ignore_ascii_case(v.as_bytes())
                && !value
                    .as_bytes()
                    .get(v.len())
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'.')
        })
}

/// Whether a nonzero count stands before the word at `at`, directly or with one word
/// between: `1 failed`, `2 errors`, `1 test failed`, `3 previous errors`.
fn counted_before(line: &str, at: usize) -> bool {
    let mut before = line[..at].trim_ascii_end();
    if before.len() == at {
        return false;
    }
    let token = |s: &str| {
        s.bytes()
            .rposition(|b| !(b.is_ascii_alphanumeric() || b == b','))
            .map_or(0, |i| i + 1)
    };
    let mut start = token(before);
    let mut word = &before[start..];
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphabetic()) {
        before = before[..start].trim_ascii_end();
        start = token(before);
        word = &before[start..];
    }
    // A count of its own (`2 errors`, `(2 errors`), not a value (`routes=118 errors`) or
    // the end of a list (`Tests run: 17, Failures: 0`).
    let alone = start == 0 || matches!(before.as_bytes()[start - 1], b' ' | b'\t' | b'(' | b'[');
    alone
        && !word.is_empty()
        && !word.ends_with(',')
        && word.bytes().all(|b| b.is_ascii_digit() || b == b',')
        && word.bytes().any(|b| b.is_ascii_digit() && b != b'0')
}

/// Whether a nonzero count follows the word ending at `end`: `Failures: 1`,
/// `failed=2`.
fn counted_after(line: &str, end: usize) -> bool {
    let rest = line[end..].trim_ascii_start();
    let Some(rest) = rest.strip_prefix([':', '=']) else {
        return false;
    };
    let digits: &[u8] = rest.trim_ascii_start().as_bytes();
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    n > 0
        && digits[..n].iter().any(|&b| b != b'0')
        && !digits
            .get(n)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.')
}

/// Whether `body` is an HTTP status line of an error (4xx, 5xx): `HTTP/1.1 500 …`,
/// curl's `< HTTP/2 404`. (Not a log line quoting one.)
fn http_error_status(body: &str) -> bool {
    let b = body.as_bytes();
    let at = usize::from(body.starts_with("< ")) * 2;
    body[at..].starts_with("HTTP/") && {
        let version = b[at + 5..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .count();
        let code = at + 5 + version + 1;
        version > 0
            && b.get(code - 1) == Some(&b' ')
            && b.get(code..code + 3).is_some_and(|d| {
                matches!(d[0], b'4' | b'5') && d[1].is_ascii_digit() && d[2].is_ascii_digit()
            })
            && !b.get(code + 3).is_some_and(u8::is_ascii_alphanumeric)
    }
}

/// Whether `line` holds a JSON member `"error"` whose value is not empty: `null`,
/// `false`, `""`, `0`, `{}` and `[]` say there was none.
fn json_error(line: &str) -> bool {
    all(line, "\"error\"").any(|at| {
        let end = at + "\"error\"".len();
        let after = line[end..].trim_ascii_start();
        after.starts_with(':') && !zero(line, at + 1, end - 1)
    })
}

/// `Some("error")` or `Some("exception")` when `body` starts with an exception's name
/// (after `Uncaught ` or `Unhandled `) followed by `:`, ` [` or nothing, or ends with
/// one after `: `.
fn exception_name(body: &str) -> Option<&'static str> {
    exception(body).map(|(_, kind)| kind)
}

/// The exception's name [`exception_name`] finds in `body`, and its kind.
pub(super) fn exception<'b>(body: &'b str) -> Option<(&'b str, &'static str)> {
    let name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$');
    // A class name: its last segment starts with a capital (`java.io.IOException`,
    // `KeyError`; not `toApiError`, a function).
    let kind = |name: &str| {
        let last = name.rsplit('.').next().unwrap_or(name);
        ["Error", "Exception"]
            .into_iter()
            .find(|k| name.ends_with(k) && last.as_bytes()[0].is_ascii_uppercase())
            .map(|k| if k == "Error" { "error" } else { "exception" })
    };
    let named = |name: &'b str| kind(name).map(|k| (name, k));
    let rest = body
        .strip_prefix("Uncaught ")
        .or_else(|| body.strip_prefix("Unhandled "))
        .unwrap_or(body);
    let n = rest.bytes().take_while(|&b| name_byte(b)).count();
    let after = &rest[n..];
    if n > 0 && (after.is_empty() || after.starts_with(':') || after.starts_with(" [")) {
        if let Some(found) = named(&rest[..n]) {
            return Some(found);
        }
    }
    let end = body.trim_ascii_end();
    let n = end.bytes().rev().take_while(|&b| name_byte(b)).count();
    let name = &end[end.len() - n..];
    if n > 0 && end[..end.len() - n].ends_with(": ") {
        if let Some(found) = named(name) {
            return Some(found);
        }
    }
    // Within the line after `: `, followed by `: ` (`unhandled error in POST /orders:
    // TypeError: Cannot read …`).
    let b = body.as_bytes();
    all(body, ": ").find_map(|at| {
        let from = at + 2;
        let n = b[from..].iter().take_while(|&&c| name_byte(c)).count();
        (n > 0 && body[from + n..].starts_with(": "))
            .then(|| named(&body[from..from + n]))
            .flatten()
    })
}

/// Whether `body` starts with a Go test's log position, `x_test.go:12: `.
fn go_test_line(body: &str) -> bool {
    let Some(at) = find(body, "_test.go:", false, 0) else {
        return false;
    };
    let rest = &body[at + "_test.go:".len()..];
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    !body[..at].contains([' ', '\t']) && n > 0 && rest[n..].starts_with(": ")
}

/// Whether `body` starts with a Go source position with a column: `./main.go:12:2:`.
fn go_position(body: &str) -> bool {
    let Some(at) = find(body, ".go:", false, 0) else {
        return false;
    };
    let path = &body[..at];
    let rest = &body[at + 4..];
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    let column = rest[n..].strip_prefix(':').map_or(0, |r| {
        let c = r.bytes().take_while(u8::is_ascii_digit).count();
        if r[c..].starts_with(':') {
            c
        } else {
            0
        }
    });
    at > 0 && !path.contains([' ', '\t', '(', '"']) && n > 0 && column > 0
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
