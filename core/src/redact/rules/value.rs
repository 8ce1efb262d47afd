//! Whether a value is a literal secret: what keeps the keyword rule (`password=`,
//! `api_key:`, `*_TOKEN=`) off code, masks, references, placeholders, hashes and ids.
//! After gitleaks' `generic-api-key` (cmd/generate/config/rules/generic.go, MIT): a
//! floor of length and Shannon entropy (3.5 there), values of letters alone allowed
//! (`^[a-zA-Z_.-]+$`), stop words, and names that are no secret (`key_id`,
//! `secret_name`, `public_key`, `primaryKey`…); and, beyond it, the shape of code.

use super::words::{
    FIXTURE_STARTS, PLACEHOLDER_PARTS, STOP_AFTER, STOP_ANYWHERE, STOP_VALUES, TYPES,
};
use super::Hit;

/// How lenient the floor is: a password is chosen by a person (short, few symbols), a
/// token or key is random (long, dense).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Password,
    Token,
}

/// Whether `value` is a mask or a reference: `****`, `xxxx`, `${VAR}`, `$VAR`,
/// `<token>`, `{{ .Values.key }}`, `%(pw)s`. A token's shape is its own proof: nothing
/// more is asked of it (AWS's documented `AKIAIOSFODNN7EXAMPLE` is redacted too).
pub(in crate::redact) fn mask_or_reference(value: &str) -> bool {
    value.starts_with(['$', '<', '{', '%'])
        || value
            .chars()
            .all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '•' | '#' | '-' | '_' | '?'))
}

/// Whether a keyword's or a URL's `value` stands for a secret without being one: a mask
/// or reference, a stop word (`changeme`, `null`), a placeholder (`your_api_key_here`,
/// `<your-key>`, `sk-...`).
pub(super) fn stands_for_one(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    mask_or_reference(value)
        || STOP_VALUES.contains(&lower.as_str())
        || holds_any(lower.as_bytes(), PLACEHOLDER_PARTS)
        || FIXTURE_STARTS.iter().any(|start| lower.starts_with(start))
}

/// Whether one of `parts` is in `hay`: one pass, each part compared only where its first
/// byte is (a substring search per part cost more than the rest of the judgement).
fn holds_any(hay: &[u8], parts: &[&str]) -> bool {
    let mut first = [false; 256];
    for part in parts {
        if let Some(&b) = part.as_bytes().first() {
            first[usize::from(b)] = true;
        }
    }
    hay.iter().enumerate().any(|(i, &c)| {
        first[usize::from(c)]
            && parts.iter().any(|part| {
                let part = part.as_bytes();
                part.first() == Some(&c) && hay[i..].iter().take(part.len()).eq(part)
            })
    })
}

/// The words of a name: split at `_`, `-`, `.`, `:`, `/` and where lower case turns upper
/// (`SecretAccessKey` → secret, access, key), lower-cased.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

/// The family of the secret a name holds, or `None` when it holds none: the keyword
/// (`password`, `passwd`, `pwd`, `secret`, `token`, `…key` after another word,
/// `credential`) with no stop word after it.
fn family(name: &str) -> Option<Family> {
    // `PWD`, `OLDPWD`: the working directory in every `env` dump.
    if matches!(name, "PWD" | "OLDPWD") {
        return None;
    }
    let words = words(name);
    if words.iter().any(|w| STOP_ANYWHERE.contains(&w.as_str())) {
        return None;
    }
    let mut found = None;
    for (i, w) in words.iter().enumerate() {
        let password = w.contains("passw")
            || w.ends_with("pwd")
            || (w.contains("secret") && !w.contains("secretar"))
            || matches!(w.as_str(), "accesskey" | "secretkey" | "privatekey");
        let token = w.ends_with("token")
            || w.ends_with("apikey")
            || w.starts_with("credential")
            || (w == "key" && i > 0);
        let family = match (password, token) {
            (true, _) => Family::Password,
            (false, true) => Family::Token,
            (false, false) => continue,
        };
        if words[i + 1..]
            .iter()
            .any(|w| STOP_AFTER.contains(&w.as_str()))
        {
            return None;
        }
        found = Some(found.map_or(family, |f| if f == Family::Password { f } else { family }));
    }
    found
}

/// Shannon entropy of `s`, in bits per byte.
pub(super) fn entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// How many segments of identifier path `v` is (`a`, `a.b`, `a::b`, `a->b`): 0 when it
/// is none.
fn ident_path(v: &str) -> usize {
    let b = v.as_bytes();
    let mut i = 0;
    let mut segments = 0;
    loop {
        if i >= b.len() || !is_ident_start(b[i]) {
            return 0;
        }
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        segments += 1;
        if i == b.len() {
            return segments;
        }
        let sep = [".", "::", "->"].iter().find(|s| v[i..].starts_with(**s));
        match sep {
            Some(s) => i += s.len(),
            None => return 0,
        }
    }
}

/// Whether the unquoted `v` is code rather than a literal: a call, a subscript, a
/// generic, an attribute access, a reference, a symbol, a comparison; `literal_shape`
/// when the line is an env or config assignment, where a bare word is a value.
fn is_code(v: &str, colon: bool, literal_shape: bool) -> bool {
    if v.starts_with([
        '&', '!', '(', '[', '{', '@', ':', '=', '>', '?', '|', '\\', '-', '+',
    ]) {
        return true;
    }
    if v.contains(['(', '[', '<', '{', ')', ']', '}']) {
        return true;
    }
    // `process.env.API_KEY!` (TypeScript), `current_dir()?` (Rust), `valid?` (Ruby).
    let segments = ident_path(v.trim_end_matches(['!', '?']));
    if segments >= 2 && !v.contains("::") && !v.contains("->") && literal_shape {
        // `password: my.pass.word` in a config file: a value.
        return !v.bytes().any(|b| b.is_ascii_digit());
    }
    if segments >= 2 {
        return true;
    }
    if segments == 1 {
        let lower = v.to_ascii_lowercase();
        let digit = v.bytes().any(|b| b.is_ascii_digit());
        if TYPES.contains(&lower.as_str()) {
            return true;
        }
        // `token: Token`, `secret: SecretString`: a type, capitalised, no digit.
        if colon && v.as_bytes()[0].is_ascii_uppercase() && !digit && !v.contains('_') {
            return true;
        }
        return !literal_shape && !digit;
    }
    false
}

/// The judge of the keyword rule: group 1 the name, group 2 the value as written
/// (quoted or not). The value is the secret when the name holds one and the value is
/// a literal over the floor.
pub(super) fn assignment(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let (name_start, name_end) = hit.groups[1]?;
    let (value_start, value_end) = hit.groups[2]?;
    let line = hit.line;
    let bytes = line.as_bytes();
    // The name as the line has it, not as the window cut it.
    let mut name_start = name_start;
    while name_start > 0 && is_name_byte(bytes[name_start - 1]) {
        name_start -= 1;
    }
    let name = &line[name_start..name_end];
    // Most names on a line hold no keyword (`10:00:01`, `INFO connect`): said without
    // splitting them into words.
    if !has_keyword(name) {
        return None;
    }
    let family = family(name)?;
    let between = &line[name_end..value_start];
    let colon = between.contains(':');
    let raw = &line[value_start..value_end];
    let (mut s, mut e, quoted) = unquote(raw);
    if !quoted {
        while e > s
            && matches!(
                raw.as_bytes()[e - 1],
                b')' | b']' | b'}' | b'>' | b'.' | b'`'
            )
        {
            e -= 1;
        }
        while s < e && raw.as_bytes()[s] == b'"' {
            s += 1;
        }
    }
    let v = &raw[s..e];
    if v.is_empty() || stands_for_one(v) || is_no_secret(v, name) {
        return None;
    }
    let before = line[..name_start].trim_end_matches(['"', '\'', ' ', '\t']);
    let at_line_start = before.trim_start().is_empty()
        || before.trim_start() == "-"
        || before.trim_start() == "export";
    let env_shape = between == "="
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && (at_line_start || before.ends_with([' ', '\t', ';']));
    let to_end = line[value_end..].trim().is_empty();
    let yaml_shape = at_line_start && colon && to_end;
    let literal_shape = env_shape || yaml_shape;
    if !quoted && is_code(v, colon, literal_shape) {
        return None;
    }
    let letters_only = v
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || b"_.-".contains(&b));
    let (min_len, min_entropy) = match family {
        Family::Password => (6, 2.0),
        Family::Token => (10, 3.0),
    };
    let floor = v.chars().count() >= min_len && entropy(v) >= min_entropy;
    let shape = !letters_only || (family == Family::Password && (quoted || literal_shape));
    (floor && shape).then_some((value_start + s, value_start + e))
}

/// Whether `name` holds one of the keywords, in any case.
fn has_keyword(name: &str) -> bool {
    const KEYWORDS: [&[u8]; 6] = [b"pass", b"pwd", b"secret", b"token", b"key", b"credential"];
    let b = name.as_bytes();
    KEYWORDS
        .iter()
        .any(|k| b.windows(k.len()).any(|w| w.eq_ignore_ascii_case(k)))
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// The value inside its quotes, as offsets into `raw`, and whether it was quoted
/// (`"…"`, `'…'`, `` `…` ``, or `\"…\"` inside a JSON string).
fn unquote(raw: &str) -> (usize, usize, bool) {
    let b = raw.as_bytes();
    if let Some(inner) = raw.strip_prefix("\\\"") {
        let end = inner.find("\\\"").map_or(raw.len(), |i| i + 2);
        return (2, end, true);
    }
    match b.first() {
        Some(&q @ (b'"' | b'\'' | b'`')) if b.len() >= 2 && b[b.len() - 1] == q => {
            (1, b.len() - 1, true)
        }
        _ => (0, b.len(), false),
    }
}

/// Values that are no secret whatever their name: paths, URLs (their password has a
/// rule of its own), data URIs, numbers, hashes with their algorithm, the name itself.
fn is_no_secret(v: &str, name: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    v.starts_with(['/', '~', '.'])
        || v.contains("://")
        || lower.starts_with("data:")
        || v.as_bytes().get(1..3) == Some(b":\\")
        || v.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.:eE".contains(&b))
        || [
            "sha1-", "sha256-", "sha384-", "sha512-", "sha256:", "sha512:", "md5:",
        ]
        .iter()
        .any(|p| lower.starts_with(p))
        || lower == name.to_ascii_lowercase()
}
