//! Secrets never written: well-known credentials in a tool output replaced by
//! `[REDACTED:<kind>]` before it is stored (the `redact` option). The shapes follow the
//! rules of gitleaks (MIT), the best-kept public set, cut to the credentials an agent's
//! tools print most: cloud and forge tokens, API keys, JWTs, private keys, and passwords
//! in assignments and connection strings. Matched with core's linear-time engine: no
//! pattern can run away on any output.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex_lite::Regex;

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
        (0, 1024),
    ),
];

/// What [`redact`] did: the text, and how many secrets of each kind it replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The text with each secret replaced by `[REDACTED:<kind>]`.
    pub text: Cow<'a, str>,
    /// Kinds replaced, with their counts, in rule order.
    pub counts: Vec<(&'static str, usize)>,
}

fn rules() -> &'static [(&'static Rule, Regex)] {
    static COMPILED: OnceLock<Vec<(&'static Rule, Regex)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        RULES
            .iter()
            // The rules are constants checked by the tests: none fails to compile.
            .filter_map(|rule| Regex::new(rule.pattern).ok().map(|re| (rule, re)))
            .collect()
    })
}

/// The index of the rule that names secrets `kind`.
pub(crate) fn rule_index(kind: &str) -> Option<usize> {
    RULES.iter().position(|rule| rule.kind == kind)
}

/// `text` with the secrets it holds replaced by `[REDACTED:<kind>]`; borrowed when it
/// holds none.
///
/// ```
/// use tool_offload_core::redact::redact;
/// let r = redact("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nDATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app");
/// assert_eq!(r.text, "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\nDATABASE_URL=postgres://app:[REDACTED:connection-string-password]@db:5432/app");
/// assert_eq!(r.counts, [("aws-access-key", 1), ("connection-string-password", 1)]);
/// assert!(matches!(redact("nothing to hide").text, std::borrow::Cow::Borrowed(_)));
/// ```
pub fn redact(text: &str) -> Redacted<'_> {
    // (start, end, rule index) of each secret, sorted, no two overlapping: a rule's
    // matches never overlap each other, and one overlapping an earlier rule's is dropped.
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (index, (rule, re)) in rules().iter().enumerate() {
        let mut new = Vec::new();
        for (start, end) in windows(text, rule) {
            for caps in re.captures_iter(&text[start..end]) {
                let Some(secret) = caps.get(1).or_else(|| caps.get(0)) else {
                    continue;
                };
                let span = (start + secret.start(), start + secret.end());
                // A value that only stands for a secret (`****`, `${DB_PASSWORD}`) stays.
                if !overlaps(&found, span) && !stands_for_one(secret.as_str()) {
                    new.push((span.0, span.1, index));
                }
            }
        }
        if !new.is_empty() {
            found.extend(new);
            crate::sort::sort_by(&mut found, |a, b| a.0.cmp(&b.0));
        }
    }
    if found.is_empty() {
        return Redacted {
            text: Cow::Borrowed(text),
            counts: Vec::new(),
        };
    }
    let mut out = String::with_capacity(text.len());
    let mut per_rule = [0usize; RULES.len()];
    let mut last = 0;
    for &(start, end, index) in &found {
        out.push_str(&text[last..start]);
        out.push_str("[REDACTED:");
        out.push_str(RULES[index].kind);
        out.push(']');
        last = end;
        per_rule[index] += 1;
    }
    out.push_str(&text[last..]);
    let counts = RULES
        .iter()
        .zip(per_rule)
        .filter(|&(_, n)| n > 0)
        .map(|(rule, n)| (rule.kind, n))
        .collect();
    Redacted {
        text: Cow::Owned(out),
        counts,
    }
}

/// Whether `span` overlaps one of `found` (sorted by start, not overlapping).
fn overlaps(found: &[(usize, usize, usize)], span: (usize, usize)) -> bool {
    let after = found.partition_point(|&(start, _, _)| start < span.1);
    // Only the last secret starting before `span` ends can reach into it.
    after > 0 && found[after - 1].1 > span.0
}

/// The byte ranges of `text` where `rule` can match: round each occurrence of one of its
/// literals, `before` bytes back and `after` on (not past the line, except for a rule
/// that spans lines), merged, on character boundaries.
fn windows(text: &str, rule: &Rule) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found: Vec<(usize, usize)> = Vec::new();
    for trigger in rule.triggers {
        for at in memchr::memmem::find_iter(bytes, trigger.as_bytes()) {
            let line_start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
            let mut start = at.saturating_sub(rule.before).max(line_start);
            let limit = (at + trigger.len() + rule.after).min(bytes.len());
            let mut end = if rule.spans_lines {
                limit
            } else {
                memchr::memchr(b'\n', &bytes[at..limit]).map_or(limit, |i| at + i)
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

/// Whether `value` is a mask or a reference, not a secret: `****`, `xxxx`, `${VAR}`,
/// `$VAR`, `<token>`, or our own `[REDACTED:<kind>]` (so redacting twice changes nothing).
fn stands_for_one(value: &str) -> bool {
    value.starts_with(['$', '<', '{'])
        || value.starts_with("[REDACTED:")
        || value
            .bytes()
            .all(|b| matches!(b, b'*' | b'x' | b'X' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles() {
        assert_eq!(rules().len(), RULES.len());
        for rule in RULES {
            assert!(!rule.triggers.is_empty(), "{}", rule.kind);
        }
    }

    #[test]
    fn well_known_secrets_are_replaced_and_ordinary_text_is_not() {
        let pem =
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----";
        for (secret, kind) in [
            ("ghp_0123456789abcdefghijABCDEFGHIJ012345", "github-token"),
            ("glpat-abcdefghij0123456789", "gitlab-token"),
            ("xoxb-1234567890-abcdefghij", "slack-token"),
            ("sk_live_0123456789abcdefABCD", "stripe-key"),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "anthropic-key"),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-key"),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"),
            (pem, "private-key"),
        ] {
            let text = format!("before {secret} after");
            let r = redact(&text);
            assert_eq!(r.text, format!("before [REDACTED:{kind}] after"), "{kind}");
            assert_eq!(r.counts, [(kind, 1)], "{kind}");
        }
        let r = redact(r#"{"password": "hunter2!", "user": "ann"} and secret=abcd1234"#);
        assert_eq!(
            r.text,
            r#"{"password": "[REDACTED:password]", "user": "ann"} and secret=[REDACTED:password]"#
        );
        assert!(
            matches!(redact(&r.text).text, Cow::Borrowed(_)),
            "twice is once"
        );
        for ordinary in [
            "password: ****",
            "password=${DB_PASSWORD}",
            "api_key: <your key>",
            "error: could not compile `agent`",
            "git@github.com:org/repo.git",
            "https://example.com/a/b?x=1",
            "the token was rotated",
            "sk-short",
        ] {
            assert_eq!(redact(ordinary).text, ordinary);
        }
    }

    /// Linear time, whatever the text: a long run that almost matches costs a pass.
    #[test]
    fn adversarial_text_stays_linear() {
        let text = format!(
            "{}{}",
            "-----BEGIN PRIVATE KEY-----".repeat(2000),
            "a".repeat(200_000)
        );
        let r = redact(&text);
        assert_eq!(r.counts, []);
    }
}
