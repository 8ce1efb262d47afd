//! Secrets of any provider: private keys, JWTs, a URL's password, and the values of
//! assignments whose name says they hold one.

use super::{keyword_match, rule, value, Hit, Rule};

/// Before every other rule: a private key holds what would look like other tokens.
pub(super) const FIRST: &[Rule] = &[
    // PEM and OpenSSH private keys: gitleaks `private-key` (generic.go's sibling
    // privatekey.go); RFC 7468 labels (`RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`…).
    Rule {
        spans_lines: true,
        ..rule(
            "private-key",
            r"(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----",
            &["-----BEGIN "],
            (0, 64 * 1024),
        )
    },
];

/// After the providers' rules: a token after `Bearer` or in a URL keeps its own kind.
pub(super) const LAST: &[Rule] = &[
    // JWT: gitleaks jwt.go (`ey` header and claims, base64url, three parts); RFC 7519.
    rule(
        "jwt",
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        &["eyJ"],
        (0, 8 * 1024),
    ),
    // `Authorization: Bearer …`, `-H "Authorization: Basic …"`: RFC 6750 and RFC 7617;
    // gitleaks curl.go. An opaque token must look random (not `Basic usage`).
    Rule {
        judge: credential,
        ..rule(
            "bearer-token",
            r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/\-]{8,}=*)",
            &["earer ", "EARER "],
            (1, 8 * 1024),
        )
    },
    Rule {
        judge: credential,
        ..rule(
            "basic-auth",
            r"(?i)\bbasic[ \t]+([A-Za-z0-9+/]{8,}=*)",
            &["asic ", "ASIC "],
            (1, 1024),
        )
    },
    // The password of a URL (RFC 3986 userinfo `user:password@`, the user may be empty
    // as in `redis://:pw@host`): gitleaks' database.go and curl.go cover a few schemes;
    // any scheme here.
    Rule {
        judge: super::not_a_placeholder,
        ..rule(
            "connection-string-password",
            r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:([^\s@/]+)@",
            &["://"],
            (64, 1024),
        )
    },
    super::kubernetes::SECRET_DATA,
    // `password=`, `"secret": "…"`, `DB_PASSWORD=`, `api_key:`, `*_TOKEN=`: gitleaks'
    // generic-api-key (generic.go), its keywords, floor and allowlist, with the value
    // judged on its line ([`value::assignment`]): group 1 the name, 2 the value.
    // Its pattern is matched by hand ([`keyword_match`]): the engine's search cost a
    // microsecond or two a line, on logs with a candidate on every line.
    Rule {
        judge: value::assignment,
        by_hand: Some(keyword_match::captures_at),
        ..rule(
            "password",
            keyword_match::PATTERN,
            &[
                "assw", "ASSW", "ecret", "ECRET", "oken", "OKEN", "pwd", "PWD", "_key", "-key",
                "Key", "_KEY", "apikey", "APIKEY",
            ],
            // From the literal on: the judge reads the rest of the name on the line
            // (a regex pass over what comes before it cost four times as much).
            (0, 64 * 1024),
        )
    },
];

/// A header's credential: a random-looking value, not a word or a placeholder.
fn credential(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let span = hit.groups[1]?;
    let v = &hit.line[span.0..span.1];
    let letters_only = v.bytes().all(|b| b.is_ascii_alphabetic());
    let random = !letters_only && value::entropy(v) >= 2.5;
    (random && !value::stands_for_one(v)).then_some(span)
}
