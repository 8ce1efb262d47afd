//! The built-in rules: the shapes of gitleaks (MIT), the best-kept public set, cut to the
//! credentials an agent's tools print most: cloud and forge tokens, API keys, JWTs,
//! private keys, and passwords in assignments and connection strings.

use std::sync::OnceLock;

use regex_lite::Regex;

use super::Span;

/// One rule: the kind named in the marker; the pattern (when it has a capture group,
/// only the group is replaced: the secret, not the `password=` before it); literals one
/// of which every match holds; and how far before and after such a literal a match can
/// reach, in bytes. The regex runs only round the literals, found first with `memchr`:
/// a log of 100 MB with no candidate costs the literal searches, not eleven regex passes.
struct Rule {
    kind: &'static str,
    pattern: &'static str,
    triggers: &'static [&'static str],
    before: usize,
    after: usize,
    /// Whether a match can go on past the end of the line its literal is on.
    spans_lines: bool,
}

const fn rule(
    kind: &'static str,
    pattern: &'static str,
    triggers: &'static [&'static str],
    (before, after): (usize, usize),
) -> Rule {
    Rule {
        kind,
        pattern,
        triggers,
        before,
        after,
        spans_lines: false,
    }
}

/// The rules, in order: an earlier rule's secret is not matched again by a later one.
const RULES: &[Rule] = &[
    Rule {
        spans_lines: true,
        ..rule(
            "private-key",
            r"(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----",
            &["-----BEGIN "],
            (0, 64 * 1024),
        )
    },
    rule(
        "aws-access-key",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b",
        &["AKIA", "ASIA", "AGPA", "AIDA", "AROA"],
        (0, 32),
    ),
    rule(
        "github-token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        (0, 512),
    ),
    rule(
        "gitlab-token",
        r"\bglpat-[A-Za-z0-9_\-]{20,}\b",
        &["glpat-"],
        (0, 512),
    ),
    rule(
        "slack-token",
        r"\bxox[baprs]-[A-Za-z0-9\-]{10,}\b",
        &["xox"],
        (0, 512),
    ),
    rule(
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b",
        &["k_live_", "k_test_"],
        (1, 512),
    ),
    rule(
        "anthropic-key",
        r"\bsk-ant-[A-Za-z0-9_\-]{20,}",
        &["sk-ant-"],
        (0, 512),
    ),
    rule(
        "openai-key",
        r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}",
        &["sk-"],
        (0, 512),
    ),
    rule(
        "jwt",
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        &["eyJ"],
        (0, 8 * 1024),
    ),
    rule(
        "connection-string-password",
        r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+:([^\s@/]+)@",
        &["://"],
        (64, 1024),
    ),
    rule(
        "password",
        r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)["']?\s*[:=]\s*["']?([^\s"',;]{4,})"#,
        &[
            "password",
            "Password",
            "PASSWORD",
            "passwd",
            "PASSWD",
            "pwd",
            "PWD",
            "secret",
            "Secret",
            "SECRET",
            "api_key",
            "api-key",
            "apikey",
            "apiKey",
            "ApiKey",
            "API_KEY",
            "APIKEY",
            "access_token",
            "accessToken",
            "ACCESS_TOKEN",
            "auth_token",
            "authToken",
            "AUTH_TOKEN",
        ],
        (0, 64 * 1024),
    ),
];

/// The byte ranges of `text` where `rule` can match: round each occurrence of one of its
/// literals, `before` bytes back and `after` on (not past the line, except for a rule
/// that spans lines), merged, on character boundaries.
fn windows(text: &str, rule: &Rule) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found: Vec<(usize, usize)> = Vec::new();
    for trigger in rule.triggers {
        // The line of the last literal found, `[start, end)`: looked for once per line,
        // not once per literal, which on one 10 MB line of minified JSON with a literal
        // every 80 bytes was quadratic (16 s).
        let mut line: Option<(usize, usize)> = None;
        for at in memchr::memmem::find_iter(bytes, trigger.as_bytes()) {
            let (line_start, line_end) = match line {
                Some(known) if at < known.1 => known,
                before => {
                    let from = before.map_or(0, |(_, end)| end);
                    let start =
                        memchr::memrchr(b'\n', &bytes[from..at]).map_or(from, |i| from + i + 1);
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                    *line.insert((start, end))
                }
            };
            let mut start = at.saturating_sub(rule.before).max(line_start);
            let limit = (at + trigger.len() + rule.after).min(bytes.len());
            let mut end = if rule.spans_lines {
                limit
            } else {
                limit.min(line_end)
            };
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            while !text.is_char_boundary(end) {
                end += 1;
            }
            found.push((start, end));
        }
    }
    crate::sort::sort_by(&mut found, |a, b| a.cmp(b));
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (start, end) in found {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// The kinds of the built-in rules, in order.
pub(super) fn kinds() -> impl Iterator<Item = &'static str> {
    RULES.iter().map(|rule| rule.kind)
}

fn compiled() -> &'static [(&'static Rule, Regex)] {
    static COMPILED: OnceLock<Vec<(&'static Rule, Regex)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        RULES
            .iter()
            // The rules are constants checked by the tests: none fails to compile.
            .filter_map(|rule| Regex::new(rule.pattern).ok().map(|re| (rule, re)))
            .collect()
    })
}

/// Add the secrets the built-in rules find in `text` to `found` (rule `i` as kind `i`),
/// each rule's after the earlier rules' and never overlapping them; a value in `keep`
/// (masks, references, the replacement itself) is not a secret.
pub(super) fn find(text: &str, found: &mut Vec<Span>, keep: &dyn Fn(&str) -> bool) {
    for (index, (rule, re)) in compiled().iter().enumerate() {
        let mut new = Vec::new();
        for (start, end) in windows(text, rule) {
            for caps in re.captures_iter(&text[start..end]) {
                let Some(secret) = caps.get(1).or_else(|| caps.get(0)) else {
                    continue;
                };
                let span = (start + secret.start(), start + secret.end());
                if !super::overlaps(found, span) && !keep(secret.as_str()) {
                    new.push((span.0, span.1, index));
                }
            }
        }
        super::merge(found, new);
    }
}

/// Whether `value` is a mask or a reference, not a secret: `****`, `xxxx`, `${VAR}`,
/// `$VAR`, `<token>`.
pub(super) fn stands_for_one(value: &str) -> bool {
    value.starts_with(['$', '<', '{'])
        || value
            .bytes()
            .all(|b| matches!(b, b'*' | b'x' | b'X' | b'.'))
}

#[cfg(test)]
#[test]
fn every_rule_compiles() {
    assert_eq!(compiled().len(), RULES.len());
    for rule in RULES {
        assert!(!rule.triggers.is_empty(), "{}", rule.kind);
    }
}
