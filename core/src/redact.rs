//! Secrets never written: well-known credentials in a tool output replaced by
//! `[REDACTED:<kind>]` before it is stored (the `redact` option). The shapes follow the
//! rules of gitleaks (MIT), the best-kept public set, cut to the credentials an agent's
//! tools print most: cloud and forge tokens, API keys, JWTs, private keys, and passwords
//! in assignments and connection strings. Matched with core's linear-time engine: no
//! pattern can run away on any output.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex_lite::Regex;

/// One rule: the kind named in the marker, and the pattern. When the pattern has a
/// capture group, only the group is replaced (the secret, not the `password=` before it).
const RULES: &[(&str, &str)] = &[
    (
        "private-key",
        r"(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----",
    ),
    (
        "aws-access-key",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b",
    ),
    (
        "github-token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b",
    ),
    ("gitlab-token", r"\bglpat-[A-Za-z0-9_\-]{20,}\b"),
    ("slack-token", r"\bxox[baprs]-[A-Za-z0-9\-]{10,}\b"),
    (
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b",
    ),
    ("anthropic-key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}"),
    ("openai-key", r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}"),
    (
        "jwt",
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    ),
    (
        "connection-string-password",
        r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+:([^\s@/]+)@",
    ),
    (
        "password",
        r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)["']?\s*[:=]\s*["']?([^\s"',;]{4,})"#,
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

fn rules() -> &'static [(&'static str, Regex)] {
    static COMPILED: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        RULES
            .iter()
            // The rules are constants checked by the tests: none fails to compile.
            .filter_map(|&(kind, pattern)| Regex::new(pattern).ok().map(|re| (kind, re)))
            .collect()
    })
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
    let mut current: Cow<'_, str> = Cow::Borrowed(text);
    let mut counts = Vec::new();
    for (kind, re) in rules() {
        let mut out = String::new();
        let mut last = 0;
        let mut n = 0;
        for caps in re.captures_iter(&current) {
            // The secret: the first group when the rule has one, else the whole match.
            let Some(secret) = caps.get(1).or_else(|| caps.get(0)) else {
                continue;
            };
            // A secret already replaced by an earlier rule is left as it is, and so is a
            // value that only stands for one (`****`, `${DB_PASSWORD}`, `<token>`).
            if secret.as_str().starts_with("[REDACTED:") || stands_for_one(secret.as_str()) {
                continue;
            }
            out.push_str(&current[last..secret.start()]);
            out.push_str("[REDACTED:");
            out.push_str(kind);
            out.push(']');
            last = secret.end();
            n += 1;
        }
        if n > 0 {
            out.push_str(&current[last..]);
            current = Cow::Owned(out);
            counts.push((*kind, n));
        }
    }
    Redacted {
        text: current,
        counts,
    }
}

/// Whether `value` is a mask or a reference, not a secret: `****`, `xxxx`, `${VAR}`,
/// `$VAR`, `<token>`.
fn stands_for_one(value: &str) -> bool {
    value.starts_with(['$', '<', '{'])
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
