//! Substring search through one searcher.
//!
//! Grep's literal prefilter needs `memchr::memmem`; the standard library's `&str`
//! patterns (`find`, `split_once`, `replace`, `match_indices`) bring a second one, the
//! two-way `StrSearcher`, into the wasm. Core's few `&str` searches go through `memmem`
//! instead (native speed is the same or better).
//! Searches from the end (`rfind('/')`, `rsplit`, `lines().rev()`) likewise go through
//! `memchr::memrchr`, which read-back needs, not std's reverse `char` searcher.

use memchr::memmem;

/// Byte offset of the first `needle` in `haystack` (`str::find` with a `&str`).
pub(crate) fn find(haystack: &str, needle: &str) -> Option<usize> {
    memmem::find(haystack.as_bytes(), needle.as_bytes())
}

/// Whether `needle` is in `haystack` (`str::contains` with a `&str`).
pub(crate) fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// Byte offset of the last `needle` in `haystack` (`str::rfind` with a `&str`).
pub(crate) fn rfind(haystack: &str, needle: &str) -> Option<usize> {
    memmem::rfind(haystack.as_bytes(), needle.as_bytes())
}

/// `s` split around the first `separator` (`str::split_once` with a `&str`).
pub(crate) fn split_once<'a>(s: &'a str, separator: &str) -> Option<(&'a str, &'a str)> {
    let at = find(s, separator)?;
    // Both ends of a match of a whole `str` in a `str` are character boundaries.
    Some((&s[..at], &s[at + separator.len()..]))
}

/// Byte offset of the last of the non-overlapping matches of `needle` in `haystack`
/// found from the left (`match_indices(needle).last()`).
pub(crate) fn last_from_left(haystack: &str, needle: &str) -> Option<usize> {
    memmem::find_iter(haystack.as_bytes(), needle.as_bytes()).last()
}

/// `haystack` with every `from` replaced by `to` (`str::replace` with `&str`s); `from`
/// is not empty.
pub(crate) fn replace(haystack: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    for at in memmem::find_iter(haystack.as_bytes(), from.as_bytes()) {
        out.push_str(&haystack[last..at]);
        out.push_str(to);
        last = at + from.len();
    }
    out.push_str(&haystack[last..]);
    out
}

/// Byte offset of the last `/` in `s` (`s.rfind('/')`).
pub(crate) fn last_slash(s: &str) -> Option<usize> {
    memchr::memrchr(b'/', s.as_bytes())
}

/// What follows the last `/` in `s`, or all of `s` (`s.rsplit('/').next()`).
pub(crate) fn after_last_slash(s: &str) -> &str {
    &s[last_slash(s).map_or(0, |i| i + 1)..]
}

/// The lines of `text`, the last one first (`text.lines().rev()`).
pub(crate) fn lines_from_end(text: &str) -> impl Iterator<Item = &str> {
    // `lines` yields no empty line after a final newline, and drops a `\r` only before a
    // `\n`.
    let mut terminated = text.ends_with('\n');
    let mut rest = (!text.is_empty()).then(|| text.strip_suffix('\n').unwrap_or(text));
    std::iter::from_fn(move || {
        let r = rest?;
        let (line, before) = match memchr::memrchr(b'\n', r.as_bytes()) {
            Some(i) => (&r[i + 1..], Some(&r[..i])),
            None => (r, None),
        };
        rest = before;
        let line = match terminated {
            true => line.strip_suffix('\r').unwrap_or(line),
            false => line,
        };
        terminated = true;
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each helper gives what the standard library's `&str` pattern gives.
    #[test]
    fn every_helper_matches_std() {
        let cases = [
            ("", "a"),
            ("a", ""),
            ("", ""),
            ("abc", "b"),
            ("aaaa", "aa"),
            ("x</y</", "</"),
            ("é</é", "</"),
            ("/r/artifacts/artifacts", "/artifacts"),
            ("a stored as b stored as c", " stored as "),
            ("file.txt.json.txt", ".txt"),
            ("no match here", "zz"),
            ("😀a😀", "😀"),
        ];
        for (s, p) in cases {
            assert_eq!(find(s, p), s.find(p), "{s:?} {p:?}");
            assert_eq!(split_once(s, p), s.split_once(p), "{s:?} {p:?}");
            if !p.is_empty() {
                assert_eq!(replace(s, p, "<\\/"), s.replace(p, "<\\/"), "{s:?} {p:?}");
                let std_last = s.match_indices(p).last().map(|(i, _)| i);
                assert_eq!(last_from_left(s, p), std_last, "{s:?} {p:?}");
            }
        }
    }

    #[test]
    fn searches_from_the_end_match_std() {
        for s in ["", "/", "a", "/a/b", "a/b/", "é/😀", "//x"] {
            assert_eq!(last_slash(s), s.rfind('/'), "{s:?}");
            assert_eq!(Some(after_last_slash(s)), s.rsplit('/').next(), "{s:?}");
        }
        let texts = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\n\n",
            "\na",
            "a\r\nb\r\n",
            "a\r",
            "a\r\n\r",
            "\r\n",
            "x\ny\rz\n\r\n",
            "é\n😀\r\n",
        ];
        for t in texts {
            let std: Vec<&str> = t.lines().rev().collect();
            assert_eq!(lines_from_end(t).collect::<Vec<_>>(), std, "{t:?}");
        }
    }
}
