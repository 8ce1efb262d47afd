//! The keyword rule's pattern, [`PATTERN`], matched by hand: the same matches, groups
//! and order as the regex engine's leftmost-first search (a test compares them on random
//! text), in one pass where the engine's NFA simulation cost some 2 µs a line. With a
//! candidate on every line (`password=` in each line of a log, a `"key":"value"` every
//! few bytes of minified JSON) this rule was most of the time.

/// The pattern: group 1 the name, 2 the value as written (quoted or not).
pub(super) const PATTERN: &str = r#"([A-Za-z0-9_.\-]+)[\\"'\]]*[ \t]*(?::=|=>|=|:)[ \t]*(\\"(?:[^\\]|\\[^"])*\\"|"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`|[^\s,;&"'`]+)"#;

use super::engine::Groups;

fn is_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// What a bare value may not hold: `\s` (ASCII whitespace, as the engine has it) and
/// `,;&"'` and the backtick.
fn ends_bare(b: u8) -> bool {
    matches!(
        b,
        b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' | b',' | b';' | b'&' | b'"' | b'\'' | b'`'
    )
}

/// The first match of [`PATTERN`] in `hay` starting at or after `from` (a character
/// boundary), as the engine's `captures_at` finds it.
pub(super) fn captures_at(hay: &str, from: usize) -> Option<Groups> {
    let b = hay.as_bytes();
    let n = b.len();
    let mut s = from;
    loop {
        // A name: every match starts at the first name byte of a run (a later start in
        // the run leads to the same rest), so each run is tried once.
        while s < n && !is_name(b[s]) {
            s += 1;
        }
        if s >= n {
            return None;
        }
        let name = s;
        while s < n && is_name(b[s]) {
            s += 1;
        }
        let mut p = s;
        while p < n && matches!(b[p], b'\\' | b'"' | b'\'' | b']') {
            p += 1;
        }
        while p < n && matches!(b[p], b' ' | b'\t') {
            p += 1;
        }
        // The operators in the pattern's order; after each, blanks, then the value.
        let ops = [
            b[p..].starts_with(b":=").then_some(p + 2),
            b[p..].starts_with(b"=>").then_some(p + 2),
            b[p..].starts_with(b"=").then_some(p + 1),
            b[p..].starts_with(b":").then_some(p + 1),
        ];
        for mut v in ops.into_iter().flatten() {
            while v < n && matches!(b[v], b' ' | b'\t') {
                v += 1;
            }
            if let Some(end) = value(b, v) {
                return Some([Some((name, end)), Some((name, s)), Some((v, end))]);
            }
        }
    }
}

/// Where a value starting at `v` ends: the first of the pattern's five forms that
/// matches there. A quoted form that finds no closing quote fails once per search: a
/// later opening after a name would be its closing quote (neither escape pairs a
/// backslash with an opening, which follows an operator or a blank).
fn value(b: &[u8], v: usize) -> Option<usize> {
    let first = *b.get(v)?;
    // `\"…\"`: a backslash pairs with what follows unless that is `"`; ends at `\"`.
    if b[v..].starts_with(b"\\\"") {
        let mut x = v + 2;
        while let Some(&c) = b.get(x) {
            match (c, b.get(x + 1)) {
                (b'\\', Some(b'"')) => return Some(x + 2),
                (b'\\', Some(_)) => x += 2,
                (b'\\', None) => break,
                _ => x += 1,
            }
        }
    }
    // `"…"`: a backslash pairs with any character but a line feed.
    if first == b'"' {
        let mut x = v + 1;
        while let Some(&c) = b.get(x) {
            match (c, b.get(x + 1)) {
                (b'"', _) => return Some(x + 1),
                (b'\\', Some(b'\n') | None) => break,
                (b'\\', Some(_)) => x += 2,
                _ => x += 1,
            }
        }
    }
    // `'…'` and `` `…` ``: to the next of the same quote.
    if first == b'\'' || first == b'`' {
        if let Some(i) = memchr::memchr(first, &b[v + 1..]) {
            return Some(v + 1 + i + 1);
        }
    }
    // A bare value: one byte or more, up to a blank or a separator.
    if ends_bare(first) {
        return None;
    }
    let len = b[v..]
        .iter()
        .position(|&c| ends_bare(c))
        .unwrap_or(b.len() - v);
    Some(v + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(re: &regex_lite::Regex, hay: &str, from: usize) -> Option<Groups> {
        let caps = re.captures_at(hay, from)?;
        let group = |i: usize| caps.get(i).map(|m| (m.start(), m.end()));
        Some([group(0), group(1), group(2)])
    }

    /// Random text of the pattern's own bytes (and some that are not): the hand matcher
    /// and the engine agree on every match from every start.
    #[test]
    fn matches_what_the_engine_matches() {
        let re = regex_lite::Regex::new(PATTERN).unwrap();
        let pieces = [
            "a", "Z9", "_", ".", "-", "pass", "\\", "\"", "'", "`", "]", " ", "\t", ":", "=", ">",
            ":=", "=>", ",", ";", "&", "\n", "\r", "\u{b}", "\u{c}", "é", "\u{a0}", "\u{2003}",
            "\\\"", "x", "(", "$", "/",
        ];
        let mut rng = crate::test_rng::Rng(0x00A5_516E);
        for _ in 0..40_000 {
            let len = rng.below(14);
            let hay: String = (0..len).map(|_| rng.pick(&pieces)).collect();
            for from in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
                assert_eq!(
                    captures_at(&hay, from),
                    engine(&re, &hay, from),
                    "{hay:?} from {from}"
                );
            }
        }
    }
}
