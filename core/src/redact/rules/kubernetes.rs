//! A Kubernetes Secret's `data:` values: base64, whatever their names (`tls.key`,
//! `.dockerconfigjson`), as `kubectl get secret -o yaml` prints them. Kubernetes
//! "Secrets" docs; gitleaks kubernetes.go (MIT).

use super::{rule, value, Hit, Memo, Rule};

/// Each indented `name: base64` line; the judge says whether it is in the `data:` block
/// of an object of `kind: Secret` (before or after `data:`, as kubectl prints it; List
/// items too).
pub(super) const SECRET_DATA: Rule = Rule {
    spans_lines: true,
    judge: secret_data,
    ..rule(
        "kubernetes-secret",
        r"(?m)^[ \t]+[A-Za-z0-9_.\-]+:[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*\r?$",
        &["ata:\n", "ata:\r\n"],
        (1, 64 * 1024),
    )
};

/// How far a block, and the object round it, are read (real ones are a few KB), and the
/// work a text may cost past its own length before values are redacted unread.
const BLOCK: usize = 16 * 1024;
const AROUND: usize = 4096;
const BUDGET: usize = 1 << 20;

fn secret_data(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let span = hit.groups[1]?;
    let v = &hit.line[span.0..span.1];
    if !(v.len() >= 8 && v.len().is_multiple_of(4) && value::entropy(v) >= 2.5) {
        return None;
    }
    let text = hit.text;
    let at = hit.line_start + hit.start;
    let mut m = hit.memo.get();
    // The `data:` line: the last one before this value, looked for only since the last
    // value judged (windows of nearby blocks merge).
    let from = match m.key {
        key if key != 0 && m.upto >= hit.line_start && m.upto <= at => m.upto,
        _ => floor(text, at.saturating_sub(BLOCK).max(hit.line_start)),
    };
    let region = &text[from..at];
    if let Some(i) = region.rfind("ata:\n").or_else(|| region.rfind("ata:\r\n")) {
        let line = text[..from + i].rfind('\n').map_or(0, |n| n + 1);
        let end = from + i + text[from + i..].find('\n').unwrap_or(0) + 1;
        m = Memo {
            key: line + 1,
            upto: end,
            ok: true,
            verdict: None,
            spent: m.spent,
        };
    }
    if m.key == 0 || at - (m.key - 1) > BLOCK {
        return None;
    }
    let data_line = m.key - 1;
    let data_indent = indent(&text[data_line..]);
    // Still in the block: every line since the last value indented deeper.
    m.ok = m.ok
        && text[m.upto.min(at)..at]
            .split('\n')
            .all(|l| l.trim().is_empty() || indent(l) > data_indent);
    m.spent += at - m.upto.min(at);
    m.upto = at;
    if m.verdict.is_none() && m.ok {
        m.verdict = Some(if m.spent > BUDGET + 4 * text.len() {
            // Out of budget (a text built to cost): redact unread.
            true
        } else {
            let (secret, spent) = kind_is_secret(text, data_line, data_indent);
            m.spent += spent;
            secret
        });
    }
    hit.memo.set(m);
    (m.ok && m.verdict == Some(true)).then_some(span)
}

/// Whether the object round the `data:` line at `at` is of `kind: Secret`: its lines at
/// that depth, back to where it starts and on to where it ends (a shallower line, `---`,
/// a `- ` item, another `data:`; 4 KB each way past the block); and the bytes read.
fn kind_is_secret(text: &str, at: usize, depth: usize) -> (bool, usize) {
    // An object has one `kind`: the first found says.
    let kind = |l: &str| {
        let l = l.trim_start().trim_start_matches("- ");
        l.starts_with("kind:")
            .then(|| l.starts_with("kind: Secret"))
    };
    let ends = |l: &str| {
        let t = l.trim_start();
        l.starts_with("---")
            || indent(l) < depth
            || t.starts_with("data:")
            || t.starts_with("stringData:")
    };
    let from = floor(text, at.saturating_sub(AROUND));
    let mut read = 0;
    for l in text[from..at].lines().rev() {
        read += l.len() + 1;
        if indent(l) == depth {
            if let Some(secret) = kind(l) {
                return (secret, read);
            }
        }
        if ends(l) || l.trim_start().starts_with("- ") {
            break;
        }
    }
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let to = ceil(text, (line_end + BLOCK + AROUND).min(text.len()));
    for l in text[line_end..to].lines() {
        read += l.len() + 1;
        if l.trim().is_empty() || indent(l) > depth {
            continue;
        }
        if l.trim_start().starts_with("- ") || ends(l) {
            break;
        }
        if let Some(secret) = kind(l) {
            return (secret, read);
        }
    }
    (false, read)
}

fn floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// How deep a YAML line is: its spaces, and a list item's `- ` as two more.
fn indent(line: &str) -> usize {
    let spaces = line.len() - line.trim_start_matches([' ', '\t']).len();
    match line[spaces..].starts_with("- ") {
        true => spaces + 2,
        false => spaces,
    }
}
