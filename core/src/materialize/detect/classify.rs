//! One line against the rules: the line's body, and the first rule it matches.

use super::rules::{Level, Rule, Shape, RULES};
use crate::materialize::plain::plain;

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

/// The part of a (plain) line the rules' starts are read from: without a pytest `E`
/// gutter, leading blanks, a box-drawing border (terraform's `│`), an ISO 8601
/// timestamp (CI runners, log files) or a BuildKit step prefix (`#8 0.523`).
///
/// ```
/// use tool_offload_core::materialize::detect::body;
/// assert_eq!(body("2024-05-01T10:00:00.1234567Z ##[error]Process completed"), "##[error]Process completed");
/// assert_eq!(body("#8 0.523 npm ERR! code E404"), "npm ERR! code E404");
/// assert_eq!(body("│ Error: Invalid reference"), "Error: Invalid reference");
/// assert_eq!(body("E       ValueError: bad"), "ValueError: bad");
/// assert_eq!(body("2024-05-01 10:00:00,123 ERROR db down"), "ERROR db down");
/// ```
pub fn body(line: &str) -> &str {
    // A file read's gutter (`    12→`, `cat -n`): a log read from a file reads the same.
    let line = match gutter(line) {
        Some(width) => &line[width..],
        None => line,
    };
    let mut s = match line.strip_prefix('E') {
        Some(rest) if rest.starts_with("   ") => rest,
        _ => line,
    };
    s = s.trim_ascii_start();
    for border in ["│", "┃", "╷", "╵"] {
        if let Some(rest) = s.strip_prefix(border) {
            s = rest.trim_ascii_start();
        }
    }
    if let Some(rest) = after_timestamp(s) {
        s = rest.trim_ascii_start();
    }
    if let Some(rest) = after_buildkit_step(s) {
        s = rest.trim_ascii_start();
    }
    s
}

/// The width of a file-read gutter at the start of `line`: Claude Code's `    12→` or
/// `cat -n`'s `    12\t`.
pub(crate) fn gutter(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').count();
    let digits = b[spaces..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let rest = &line[spaces + digits..];
    if rest.starts_with('\t') {
        Some(spaces + digits + 1)
    } else if rest.starts_with('→') {
        Some(spaces + digits + '→'.len_utf8())
    } else {
        None
    }
}

/// `s` after a leading `2024-05-01T10:00:00[.fff][Z|+01:00]` (or a space for the `T`).
fn after_timestamp(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let dash = b.get(4).filter(|&&c| c == b'-' || c == b'/');
    let shape = digits(0..4)
        && dash.is_some()
        && digits(5..7)
        && b.get(7) == dash
        && digits(8..10)
        && matches!(b.get(10), Some(b'T' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16);
    if !shape {
        return None;
    }
    let mut i = 16;
    while i < b.len() && (b[i].is_ascii_digit() || matches!(b[i], b':' | b'.' | b',')) {
        i += 1;
    }
    if b.get(i) == Some(&b'Z') {
        i += 1;
    } else if matches!(b.get(i), Some(b'+' | b'-')) && digits(i + 1..i + 3) {
        i += 3;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b':') {
            i += 1;
        }
    }
    (i == b.len() || b[i] == b' ').then(|| &s[i..])
}

/// `s` after BuildKit's `#8 0.523 ` (step number, seconds).
fn after_buildkit_step(s: &str) -> Option<&str> {
    let rest = s.strip_prefix('#')?;
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = rest[n..].strip_prefix(' ').filter(|_| n > 0)?;
    let t = rest
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    let after = rest[t..].strip_prefix(' ')?;
    (t > 0 && rest[..t].contains('.')).then_some(after)
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
            return counted
                .iter()
                .find(|w| {
                    words(line, w, true).any(|at| {
                        counted_before(line, at)
                                // `Failures: 1`, `failed=1`; not `error: 502`.
                                || (!matches!(**w, "error" | "failure")
                                    && counted_after(line, at + w.len()))
                    })
                })
                .map(|w| {
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
    };
    found.then_some(rule.key)
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
fn find(line: &str, text: &str, nocase: bool, from: usize) -> Option<usize> {
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

/// A byte that continues a word or a name: `error` is no word in `error_count`,
/// `error-chain`, `thiserror` or `errorHandler`.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
}

/// Where `text` occurs in `line` as a whole word: not inside a name, a path
/// (`/var/log/error.log`) or a member (`console.error`).
fn words<'a>(line: &'a str, text: &'a str, nocase: bool) -> impl Iterator<Item = usize> + 'a {
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

/// `Some("Error")` or `Some("Exception")` when `body` starts with an exception's name
/// (after `Uncaught ` or `Unhandled `) followed by `:`, ` [` or nothing, or ends with
/// one after `: `.
fn exception_name(body: &str) -> Option<&'static str> {
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
    let rest = body
        .strip_prefix("Uncaught ")
        .or_else(|| body.strip_prefix("Unhandled "))
        .unwrap_or(body);
    let n = rest.bytes().take_while(|&b| name_byte(b)).count();
    let after = &rest[n..];
    if n > 0 && (after.is_empty() || after.starts_with(':') || after.starts_with(" [")) {
        if let Some(k) = kind(&rest[..n]) {
            return Some(k);
        }
    }
    let end = body.trim_ascii_end();
    let n = end.bytes().rev().take_while(|&b| name_byte(b)).count();
    let name = &end[end.len() - n..];
    if n > 0 && end[..end.len() - n].ends_with(": ") {
        if let Some(k) = kind(name) {
            return Some(k);
        }
    }
    // Within the line after `: `, followed by `: ` (`unhandled error in POST /orders:
    // TypeError: Cannot read …`).
    let b = body.as_bytes();
    all(body, ": ").find_map(|at| {
        let from = at + 2;
        let n = b[from..].iter().take_while(|&&c| name_byte(c)).count();
        (n > 0 && body[from + n..].starts_with(": "))
            .then(|| kind(&body[from..from + n]))
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
mod tests {
    use super::super::scan::{EXACT_TRIGGERS, TRIGGERS};
    use super::*;

    /// Every rule's lines hold a trigger word, or the scan would never show them to it.
    #[test]
    fn every_rule_holds_a_trigger() {
        let holds = |t: &str| {
            EXACT_TRIGGERS.iter().any(|w| t.contains(w)) || {
                let t = t.to_ascii_lowercase();
                TRIGGERS.iter().any(|w| t.contains(w))
            }
        };
        for rule in RULES.iter().filter(|r| r.level != Level::Not) {
            let ok = match rule.shape {
                Shape::Start(t) | Shape::Contains(t) | Shape::Word(t) => holds(t),
                Shape::StartWith(t, any) => holds(t) || any.iter().all(|a| holds(a)),
                Shape::Count(words) => words.iter().all(|w| holds(w)),
                // Hold `error`/`exception`, `.go:`, `HTTP/`, `"error"` by their shape.
                Shape::ExceptionName
                | Shape::GoPosition
                | Shape::GoTestLine
                | Shape::HttpStatus
                | Shape::JsonError => true,
            };
            assert!(ok, "{rule:?}");
        }
    }

    #[test]
    fn keys_hold_no_regex_metacharacter_and_no_capital() {
        for rule in RULES {
            assert_eq!(rule.key, rule.key.to_ascii_lowercase(), "{rule:?}");
            assert!(
                !rule.key.contains(|c: char| "\\.+*?()[]{}^$|".contains(c)),
                "{rule:?}"
            );
        }
    }

    #[test]
    fn levels_of_real_lines() {
        use Level::*;
        for (line, level) in [
            ("error[E0308]: mismatched types", Some(Root)),
            ("\x1b[0m\x1b[1m\x1b[38;5;9merror[E0425]\x1b[0m\x1b[0m\x1b[1m: cannot find value", Some(Root)),
            ("error: could not compile `agent` (bin \"agent\") due to 1 previous error", Some(Verdict)),
            ("thread 'main' panicked at src/main.rs:4:5:", Some(Root)),
            ("Traceback (most recent call last):", Some(Verdict)),
            ("KeyError: 'user_id'", Some(Root)),
            ("E       AssertionError: assert 3 == 4", Some(Root)),
            ("tests/test_add.py:5: AssertionError", Some(Root)),
            ("FAILED tests/test_add.py::test_add - assert 3 == 4", Some(Verdict)),
            ("=========== 1 failed, 12 passed in 0.34s ===========", Some(Verdict)),
            ("tests/test_x.py::test_error_path PASSED", Some(Not)),
            (" FAIL  src/sum.test.js", Some(Verdict)),
            ("  ● sum › adds 1 + 2 to equal 3", Some(Root)),
            ("Tests:       1 failed, 5 passed, 6 total", Some(Verdict)),
            ("  ✓ handles errors gracefully (3 ms)", Some(Not)),
            (" PASS  src/errorHandler.test.ts", Some(Passed)),
            ("--- FAIL: TestAdd (0.00s)", Some(Root)),
            ("    add_test.go:12: Add(1, 2) = 4; want 3", Some(Mention)),
            ("    failover_test.go:71: all upstreams failed: 3 errors occurred", Some(Mention)),
            ("ok  \texample.com/add\t0.002s", Some(Passed)),
            ("=========== 12 passed in 0.34s ===========", Some(Passed)),
            ("[INFO] BUILD SUCCESS", Some(Passed)),
            ("./main.go:12:2: undefined: foo", Some(Root)),
            ("FAIL\texample.com/add\t0.002s", Some(Verdict)),
            ("ok  \texample.com/errors\t0.003s", Some(Passed)),
            ("panic: runtime error: index out of range [5] with length 3", Some(Root)),
            ("\t/usr/local/go/src/runtime/panic.go:884 +0x213", None),
            ("src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", Some(Root)),
            ("src/app.ts:12:5 - error TS2322: Type 'string'", Some(Root)),
            ("Found 2 errors in 1 file.", Some(Verdict)),
            ("Found 0 errors. Watching for file changes.", None),
            ("  12:5  error  'x' is assigned a value but never used  no-unused-vars", Some(Root)),
            ("✖ 3 problems (2 errors, 1 warning)", Some(Verdict)),
            ("npm ERR! code ELIFECYCLE", Some(Root)),
            ("npm error code 1", Some(Root)),
            (" ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  web@1.0.0 build: `vite build`", Some(Verdict)),
            ("error Command failed with exit code 1.", Some(Verdict)),
            ("> Task :app:compileJava FAILED", Some(Mention)),
            ("FAILURE: Build failed with an exception.", Some(Verdict)),
            ("[ERROR] /src/main/java/App.java:[12,8] cannot find symbol", Some(Root)),
            ("[INFO] BUILD FAILURE", Some(Verdict)),
            ("[WARNING] Using platform encoding (UTF-8 actually) to copy filtered resources", Some(Not)),
            ("main.c:12:5: error: 'count' undeclared (first use in this function)", Some(Root)),
            ("make: *** [Makefile:12: main.o] Error 1", Some(Verdict)),
            ("#8 0.523 npm ERR! 404 Not Found", Some(Root)),
            ("ERROR: failed to solve: process \"/bin/sh -c npm ci\" did not complete successfully: exit code: 1", Some(Root)),
            ("│ Error: Invalid reference", Some(Root)),
            ("  Warning  BackOff    3m (x12 over 5m)  kubelet  Back-off restarting failed container", Some(Root)),
            ("2024-05-01T10:00:00.1234567Z ##[error]Process completed with exit code 1.", Some(Verdict)),
            ("ERROR: Job failed: exit code 1", Some(Verdict)),
            ("Exception in thread \"main\" java.lang.IllegalStateException: boom", Some(Root)),
            ("Caused by: java.io.FileNotFoundException: config.yml", Some(Root)),
            ("fatal: not a git repository (or any of the parent directories): .git", Some(Root)),
            ("fatal: [web1]: FAILED! => {\"changed\": false}", Some(Root)),
            ("ls: cannot open directory '/root': Permission denied", Some(Root)),
            ("ERROR:  relation \"users\" does not exist", Some(Root)),
            ("warning: unused variable: `error`", Some(Not)),
            ("   Compiling error-chain v0.12.4", Some(Not)),
            ("  Downloaded thiserror v1.0.50", Some(Not)),
            ("test result: ok. 12 passed; 0 failed; 0 ignored", Some(Passed)),
            ("test tests::error_case ... ok", Some(Not)),
            ("pytest --ignore-errors -x --fail-fast", None),
            ("INFO stats error_rate=0.00 error_count=0 failOnWarnings: false", None),
            ("{\"error\": null, \"status\": \"ok\"}", None),
            ("No errors found.", None),
            ("    0 Error(s)", None),
            ("    1 Error(s)", Some(Verdict)),
            ("request failed, retrying", Some(Mention)),
            ("cannot open /var/log/error.log", None),
            ("console.error(err)", None),
            ("  Failure/Error: expect(user.name).to eq(\"Ann\")", Some(Root)),
            ("3 examples, 1 failure", Some(Verdict)),
            ("Unhandled exception. System.InvalidOperationException: boom", Some(Root)),
            ("Program.cs(12,5): error CS1002: ; expected [/src/app.csproj]", Some(Root)),
            ("x.py:12: error: Incompatible types in assignment  [assignment]", Some(Root)),
            ("< HTTP/1.1 500 Internal Server Error", Some(Verdict)),
            ("< HTTP/2 200", None),
            ("time=2024-05-14T10:00:01Z level=error msg=\"db down\"", Some(Verdict)),
            ("INFO httpx: HTTP Request: POST http://x/v1 \"HTTP/1.1 422 Unprocessable\"", None),
            ("    Liveness: http-get delay=20s #success=1 #failure=4", None),
            ("{\"error\":\"internal_error\",\"message\":\"insert failed\"}", Some(Root)),
            ("  toApiError", None),
            ("[INFO] Tests run: 17, Failures: 0, Errors: 0, Skipped: 0", None),
            ("[ERROR] Tests run: 17, Failures: 1, Errors: 0, Skipped: 0", Some(Root)),
            ("Tests run: 17, Failures: 1, Errors: 0", Some(Verdict)),
            ("PLAY RECAP web1 : ok=3 changed=0 unreachable=0 failed=1", Some(Verdict)),
            ("level=INFO msg=loaded routes=118 errors=0", None),
            ("retry.py:88: RuntimeWarning: giving up after 3 failures", Some(Not)),
            ("2024/05/14 10:21:33 health: error_count=0 upstreams=3", None),
            ("2024/05/14 10:21:34 ERROR upstream down", Some(Root)),
            ("[api] unhandled error in POST /orders: TypeError: Cannot read", Some(Root)),
            ("main.c:57: undefined reference to `config_load_file'", Some(Root)),
            (" ! [rejected]        main -> main (fetch first)", Some(Root)),
            ("      Reason:       OOMKilled", Some(Root)),
        ] {
            assert_eq!(classify(line).map(|c| c.level), level, "{line:?}");
        }
    }
}
