//! One pass over a line's bytes, without parsing it: how deeply it nests, and what can be
//! told of its JSON-RPC envelope (the top-level `id`, whether there is a `method`) even
//! when the line is not JSON the proxy can read. A line cut short, or broken inside its
//! `params` or `result`, usually still has both before the break, so the request it
//! answers (or is) can be answered rather than left waiting.

use std::ops::Range;

/// What one pass over a line found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The deepest nesting of arrays and objects (`{}` is 1, `{"a":[]}` is 2).
    pub depth: usize,
    /// Where the top-level object's `id` is, when it is a string or a number.
    pub id: Option<Range<usize>>,
    /// Whether the top-level object has a `method` member.
    pub has_method: bool,
}

/// What the next byte at depth 1 of the top-level object is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A member's key (after `{` or `,`).
    Key,
    /// The value of the member `id` (after `"id":`).
    IdValue,
    /// Anything else.
    Other,
}

/// Scan `text`: its depth, and the envelope of its first top-level object. Nothing is
/// validated: a line that is not JSON yields whatever was found before it stopped
/// making sense.
///
/// ```ignore
/// let line = br#"{"jsonrpc":"2.0","id":7,"result":{"text":"cut \ud83d"}}"#;
/// let envelope = scan(line);
/// assert_eq!((envelope.depth, &line[envelope.id.unwrap()]), (2, &b"7"[..]));
/// ```
pub fn scan(text: &[u8]) -> Envelope {
    let mut found = Envelope::default();
    let mut depth = 0_usize;
    // Whether the first container of the line is an object and still open.
    let mut in_top_object = false;
    let mut seen_top = false;
    let mut expect = Expect::Other;
    let mut key: Option<Range<usize>> = None;
    let mut at = 0;
    while at < text.len() {
        let byte = text[at];
        let top = in_top_object && depth == 1;
        if top && expect == Expect::IdValue && !byte.is_ascii_whitespace() {
            expect = Expect::Other;
            if matches!(byte, b'-' | b'0'..=b'9') {
                let end = number_end(text, at);
                found.id = Some(at..end);
                at = end;
                continue;
            }
        }
        match byte {
            b'"' => {
                let end = string_end(text, at);
                if top && expect == Expect::Key {
                    key = Some(at + 1..end.saturating_sub(1).max(at + 1));
                    expect = Expect::Other;
                } else if top && found.id.is_none() && key_is(text, &key, b"id") {
                    found.id = Some(at..end);
                }
                at = end;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                found.depth = found.depth.max(depth);
                if depth == 1 && !seen_top {
                    seen_top = true;
                    in_top_object = byte == b'{';
                    expect = Expect::Key;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    in_top_object = false;
                }
            }
            b',' if top => {
                expect = Expect::Key;
                key = None;
            }
            b':' if top => {
                if key_is(text, &key, b"method") {
                    found.has_method = true;
                }
                if key_is(text, &key, b"id") {
                    expect = Expect::IdValue;
                }
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// Whether the key at `key` is `name` (spelled without escapes).
fn key_is(text: &[u8], key: &Option<Range<usize>>, name: &[u8]) -> bool {
    key.as_ref()
        .is_some_and(|range| text.get(range.clone()) == Some(name))
}

/// The index after the string that opens at `at` (a quote), or the end of the text.
fn string_end(text: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

/// The index after the number that starts at `at`.
fn number_end(text: &[u8], at: usize) -> usize {
    let len = text[at..]
        .iter()
        .take_while(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        .count();
    at + len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_of(line: &str) -> Option<&str> {
        scan(line.as_bytes()).id.map(|range| &line[range])
    }

    #[test]
    fn depth_counts_containers_not_brackets_in_strings() {
        assert_eq!(scan(b"{}").depth, 1);
        assert_eq!(scan(br#"{"a":[{"b":"[[[{{{"}]}"#).depth, 3);
        assert_eq!(scan(br#"["\"[", [[]]]"#).depth, 3);
        assert_eq!(scan(b"not json").depth, 0);
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(scan(deep.as_bytes()).depth, 10_000);
    }

    #[test]
    fn the_id_and_method_of_the_top_level_object_are_found() {
        let request = r#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"id":1}}"#;
        assert_eq!(id_of(request), Some(r#""a\"b""#));
        assert!(scan(request.as_bytes()).has_method);
        let response = r#"{ "result" : {"id": 9, "method": "x"}, "id" : -12.5e3 }"#;
        assert_eq!(id_of(response), Some("-12.5e3"));
        assert!(!scan(response.as_bytes()).has_method);
    }

    #[test]
    fn a_broken_line_still_yields_what_came_before_the_break() {
        let cut = r#"{"jsonrpc":"2.0","id":42,"result":{"content":[{"text":"cut \ud83"#;
        assert_eq!(id_of(cut), Some("42"));
        let bad = r#"{"id":"q","method":"ping","params":{oops}}"#;
        assert_eq!(id_of(bad), Some(r#""q""#));
        assert!(scan(bad.as_bytes()).has_method);
    }

    #[test]
    fn ids_that_are_not_strings_or_numbers_or_not_at_the_top_are_not_found() {
        for line in [
            r#"{"id":null,"result":1}"#,
            r#"{"id":{"n":1},"result":1}"#,
            r#"{"result":{"id":1}}"#,
            r#"[{"id":1}]"#,
            r#"{"ids":1,"xid":2}"#,
            r#"{"a":"id","b":1}"#,
            "this is not JSON-RPC",
        ] {
            assert_eq!(id_of(line), None, "{line}");
        }
        assert!(!scan(br#"{"params":{"method":"x"}}"#).has_method);
    }
}
