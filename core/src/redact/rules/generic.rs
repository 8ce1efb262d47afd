//! Secrets of any provider: private keys, JWTs, a URL's password, and the values of
//! assignments whose name says they hold one.

use super::{rule, value, Hit, Rule};

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
    // The values of a Kubernetes Secret's `data:` (base64, whatever their names):
    // Kubernetes "Secrets" docs; gitleaks kubernetes.go. Only in a document of
    // `kind: Secret`, before or after `data:` as kubectl prints it.
    Rule {
        spans_lines: true,
        judge: kubernetes_data,
        ..rule(
            "kubernetes-secret",
            r"(?m)^[ \t]+[A-Za-z0-9_.\-]+:[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*\r?$",
            &["ata:\n", "ata:\r\n"],
            (1, 64 * 1024),
        )
    },
    // `password=`, `"secret": "…"`, `DB_PASSWORD=`, `api_key:`, `*_TOKEN=`: gitleaks'
    // generic-api-key (generic.go), its keywords, floor and allowlist, with the value
    // judged on its line ([`value::assignment`]): group 1 the name, 2 the value.
    Rule {
        judge: value::assignment,
        ..rule(
            "password",
            r#"([A-Za-z0-9_.\-]+)[\\"'\]]*[ \t]*(?::=|=>|=|:)[ \t]*(\\"(?:[^\\]|\\[^"])*\\"|"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`|[^\s,;&"'`]+)"#,
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

/// A value of the `data:` block that starts the window, in a `kind: Secret` document.
fn kubernetes_data(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let span = hit.groups[1]?;
    let v = &hit.line[span.0..span.1];
    let base64 = v.len() >= 8 && v.len().is_multiple_of(4) && value::entropy(v) >= 2.5;
    // `data:` starts the window; the block is the lines indented deeper (bounded:
    // blocks are short).
    // (Windows of nearby `data:` lines merge: the block is the last one's.)
    let before = &hit.line[..hit.start];
    let data_at = before
        .rfind("ata:\n")
        .or_else(|| before.rfind("ata:\r\n"))?;
    let data_line = before[..data_at].rfind('\n').map_or(0, |i| i + 1);
    let block = &before[data_line..];
    let first = block.find('\n')?;
    let data_indent = indent(&block[..first]);
    let in_block = block.len() < 16 * 1024
        && block[first + 1..]
            .split('\n')
            .all(|l| l.trim().is_empty() || indent(l) > data_indent);
    if !(base64 && in_block) {
        return None;
    }
    // The object round it: its lines at `data:`'s depth, back to where it starts and on
    // to where it ends (a shallower line, `---`, the next `- ` item; 4 KB each way).
    let at = hit.line_start + data_line;
    let mut from = at.saturating_sub(4096);
    while !hit.text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (at + hit.line.len())
        .min(at + 16 * 1024 + 4096)
        .min(hit.text.len());
    while !hit.text.is_char_boundary(to) {
        to += 1;
    }
    // An object has one `kind`: the first found says.
    let kind = |l: &str| {
        let l = l.trim_start().trim_start_matches("- ");
        (indent(l) == 0 && l.starts_with("kind:")).then(|| l.starts_with("kind: Secret"))
    };
    for l in hit.text[from..at].lines().rev() {
        if indent(l) == data_indent {
            if let Some(secret) = kind(l) {
                return secret.then_some(span);
            }
        }
        if l.starts_with("---") || indent(l) < data_indent || l.trim_start().starts_with("- ") {
            break;
        }
    }
    for l in hit.text[at..to].lines().skip(1) {
        if l.trim().is_empty() || indent(l) > data_indent {
            continue;
        }
        if l.trim_start().starts_with("- ") || l.starts_with("---") {
            break;
        }
        if indent(l) == data_indent {
            if let Some(secret) = kind(l) {
                return secret.then_some(span);
            }
        }
        if indent(l) < data_indent {
            break;
        }
    }
    None
}

/// How deep a YAML line is: its spaces, and a list item's `- ` as two more.
fn indent(line: &str) -> usize {
    let spaces = line.len() - line.trim_start_matches([' ', '\t']).len();
    match line[spaces..].starts_with("- ") {
        true => spaces + 2,
        false => spaces,
    }
}
