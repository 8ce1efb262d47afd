//! Walking JSON text without building a tree: the items of an array, the members of an
//! object, where a value ends, a string's value. The text must be valid JSON (checked
//! first with [`is_json_document`](super::is_json_document)); a path selects through it
//! in the memory of what it selects.

use super::validate::skip_ws;

/// JSON's whitespace.
pub(super) const WHITESPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The items of an array's text, each a value's text.
pub(super) fn items(array: &str) -> impl Iterator<Item = &str> {
    let mut at = 1;
    std::iter::from_fn(move || {
        at = skip_ws(array.as_bytes(), at);
        if matches!(array.as_bytes().get(at), Some(b']') | None) {
            return None;
        }
        let end = value_end(array, at);
        let item = &array[at..end];
        at = skip_ws(array.as_bytes(), end) + 1; // past the `,` (or the `]`)
        Some(item)
    })
}

/// The members of an object's text: each key's text (quotes included, escapes as
/// written) and value's text.
pub(super) fn members(object: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut at = 1;
    std::iter::from_fn(move || {
        at = skip_ws(object.as_bytes(), at);
        if object.as_bytes().get(at) != Some(&b'"') {
            return None;
        }
        let key_end = value_end(object, at);
        let key = &object[at..key_end];
        let start = skip_ws(object.as_bytes(), skip_ws(object.as_bytes(), key_end) + 1); // past the `:`
        let end = value_end(object, start);
        at = skip_ws(object.as_bytes(), end) + 1;
        Some((key, &object[start..end]))
    })
}

/// Where the value starting at byte `at` of valid JSON `text` ends.
fn value_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut i = at;
    let mut depth = 0usize;
    loop {
        match b.get(i) {
            None => return i,
            Some(b'"') => {
                i += 1;
                while let Some(&c) = b.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                if depth == 0 {
                    return i;
                }
                continue;
            }
            Some(b'{' | b'[') => depth += 1,
            // A scalar ends before its container's close; a container at its own.
            Some(b'}' | b']') if depth == 0 => return i,
            Some(b'}' | b']') => {
                if depth == 1 {
                    return i + 1;
                }
                depth -= 1;
            }
            Some(b',' | b' ' | b'\t' | b'\n' | b'\r' | b':') if depth == 0 => return i,
            Some(_) => {}
        }
        i += 1;
    }
}

/// A JSON string's text (quotes included) as the string it denotes; an escaped lone
/// surrogate as U+FFFD (a key holding one is matched by no path typed as text).
pub(super) fn unescape(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len().saturating_sub(1).max(1)];
    if !inner.contains('\\') {
        return inner.to_owned();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    let mut high: Option<u32> = None;
    while let Some(c) = chars.next() {
        let unit = if c == '\\' {
            match chars.next() {
                Some('u') => chars
                    .by_ref()
                    .take(4)
                    .fold(0, |n, h| n * 16 + h.to_digit(16).unwrap_or(0)),
                Some('b') => 0x08,
                Some('f') => 0x0C,
                Some('n') => 0x0A,
                Some('r') => 0x0D,
                Some('t') => 0x09,
                Some(other) => other as u32,
                None => break,
            }
        } else {
            c as u32
        };
        // UTF-16 surrogates pair up into one character; a lone one is U+FFFD.
        match (high.take(), unit) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let pair = 0x10000 + ((h - 0xD800) << 10) + (unit - 0xDC00);
                out.push(char::from_u32(pair).unwrap_or('\u{FFFD}'));
                continue;
            }
            (Some(_), _) => out.push('\u{FFFD}'),
            (None, _) => {}
        }
        match unit {
            0xD800..=0xDBFF => high = Some(unit),
            _ => out.push(char::from_u32(unit).unwrap_or('\u{FFFD}')),
        }
    }
    if high.is_some() {
        out.push('\u{FFFD}');
    }
    out
}

/// What a value (its JSON text) is, for a message: `an array of 3 items`, `an object
/// with keys id, items`, `a string`.
pub(super) fn describe(value: &str) -> String {
    match value.as_bytes().first() {
        Some(b'[') => {
            let n = items(value).count();
            format!(
                "an array of {} item{}",
                crate::text::thousands(n),
                if n == 1 { "" } else { "s" }
            )
        }
        Some(b'{') => {
            let keys: Vec<String> = members(value).take(13).map(|(k, _)| unescape(k)).collect();
            if keys.is_empty() {
                return "an empty object".into();
            }
            let mut listed = String::from("an object with keys ");
            for (i, key) in keys.iter().take(12).enumerate() {
                if i > 0 {
                    listed.push_str(", ");
                }
                listed.push_str(key);
            }
            if keys.len() > 12 {
                listed.push_str(", …");
            }
            listed
        }
        Some(b'"') => "a string".into(),
        Some(b't' | b'f') => "a boolean".into(),
        Some(b'n') => "null".into(),
        _ => "a number".into(),
    }
}
