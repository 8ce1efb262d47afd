//! A path into a JSON document, so a model reads `$.items[10].sku` instead of paging
//! through megabytes of minified JSON. The subset every JSONPath dialect agrees on, and
//! JSON Pointer:
//!
//! - `$` the document; `.name` or `['name']` / `["name"]` a member; `.*` or `[*]` every
//!   member or item;
//! - `[3]` an item (`[-1]` the last); `[2:5]` items 2, 3 and 4 (either end may be left
//!   out or negative, as in Python and JSONPath);
//! - `/items/3/sku` (RFC 6901, `~1` for `/`, `~0` for `~`).
//!
//! A path without wildcards or slices selects one value; one with them, the list of what
//! it reached. Filters and recursive descent are left out: they are where dialects
//! disagree, and `context_grep` finds things by content.

use std::fmt::Write as _;

use super::walk::{describe, items, members, unescape, WHITESPACE};

/// One step of a [`JsonPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// An object's member.
    Key(String),
    /// An array's item; negative counts from the end.
    Index(i64),
    /// Items `start..end` of an array, either end from the end when negative.
    Slice(Option<i64>, Option<i64>),
    /// Every member or item.
    All,
}

/// A parsed path: see the module's documentation for the syntax.
///
/// ```
/// use tool_offload_core::json::JsonPath;
/// let doc = r#"{"items": [{"sku": "a"}, {"sku": "b"}, {"sku": "c"}]}"#;
/// let path = JsonPath::parse("$.items[-1].sku").unwrap();
/// assert_eq!(path.select(doc).unwrap(), r#""c""#);
/// assert_eq!(JsonPath::parse("$.items[0:2].sku").unwrap().select(doc).unwrap(), r#"["a","b"]"#);
/// assert_eq!(JsonPath::parse("/items/1").unwrap().select(doc).unwrap(), r#"{"sku": "b"}"#);
/// assert_eq!(
///     JsonPath::parse("$.items[7]").unwrap().select(doc).unwrap_err(),
///     "$.items[7] selects nothing: $.items is an array of 3 items"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPath {
    steps: Vec<Step>,
}

/// The longest path accepted, in bytes.
pub const MAX_PATH_BYTES: usize = 1_000;

impl JsonPath {
    /// Parse `text`: `$…` (JSONPath) or `/…` (JSON Pointer); an empty string or `$` is
    /// the whole document.
    ///
    /// # Errors
    /// A message naming the path and what is wrong at which character.
    pub fn parse(text: &str) -> Result<JsonPath, String> {
        if text.len() > MAX_PATH_BYTES {
            return Err(format!(
                "path is {} bytes long; at most {MAX_PATH_BYTES}",
                text.len()
            ));
        }
        let bad = |at: usize, what: &str| {
            format!("invalid path {text:?}: {what} at character {}", at + 1)
        };
        if text.is_empty() {
            return Ok(JsonPath { steps: Vec::new() });
        }
        if let Some(pointer) = text.strip_prefix('/') {
            let steps = pointer
                .split('/')
                .map(|token| {
                    let key = pointer_token(token);
                    let canonical = key == "0" || !key.starts_with('0');
                    match integer(&key, 0) {
                        Ok((Some(i), end)) if end == key.len() && i >= 0 && canonical => {
                            Step::Index(i)
                        }
                        _ => Step::Key(key),
                    }
                })
                .collect();
            return Ok(JsonPath { steps });
        }
        let b = text.as_bytes();
        if b[0] != b'$' {
            return Err(format!(
                "invalid path {text:?}: start with $ (JSONPath, e.g. $.items[0].id) or / (JSON Pointer, e.g. /items/0/id)"
            ));
        }
        let mut steps = Vec::new();
        let mut at = 1;
        while at < b.len() {
            match b[at] {
                b'.' => {
                    at += 1;
                    if b.get(at) == Some(&b'*') {
                        steps.push(Step::All);
                        at += 1;
                        continue;
                    }
                    let len = b[at..]
                        .iter()
                        .position(|&c| c == b'.' || c == b'[')
                        .unwrap_or(b.len() - at);
                    if len == 0 {
                        return Err(bad(at, "expected a member name"));
                    }
                    steps.push(Step::Key(text[at..at + len].to_string()));
                    at += len;
                }
                b'[' => {
                    let (step, end) = bracket(text, at + 1).map_err(|(i, what)| bad(i, what))?;
                    steps.push(step);
                    at = end;
                }
                _ => return Err(bad(at, "expected . or [")),
            }
        }
        Ok(JsonPath { steps })
    }

    /// Whether the path selects a list (it holds a wildcard or a slice) rather than one
    /// value.
    pub fn is_list(&self) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::All | Step::Slice(..)))
    }

    /// What the path selects in `text`, a JSON document (as
    /// [`is_json_document`](crate::json::is_json_document) checks): the value's JSON text
    /// as it is in `text`, or for a list path the array of the values reached (items and
    /// members in document order). The document is walked, not parsed into a tree: the
    /// memory is the selection's.
    ///
    /// # Errors
    /// When a single-value path reaches nothing, a message saying where it stopped and
    /// what is there (`$.items[7] selects nothing: $.items is an array of 3 items`).
    pub fn select(&self, text: &str) -> Result<String, String> {
        let mut reached: Vec<&str> = vec![text.trim_matches(WHITESPACE)];
        for (i, step) in self.steps.iter().enumerate() {
            let mut next = Vec::new();
            for value in &reached {
                take(step, value, &mut next);
            }
            if next.is_empty() && !self.is_list() {
                // One value at a time until here: `reached[0]` is where it stopped.
                let here = JsonPath {
                    steps: self.steps[..i].to_vec(),
                };
                return Err(format!(
                    "{self} selects nothing: {here} is {}",
                    describe(reached[0])
                ));
            }
            reached = next;
        }
        if !self.is_list() {
            return Ok(reached[0].to_owned());
        }
        let mut list =
            String::with_capacity(reached.iter().map(|r| r.len() + 1).sum::<usize>() + 2);
        list.push('[');
        for (i, value) in reached.iter().enumerate() {
            if i > 0 {
                list.push(',');
            }
            list.push_str(value);
        }
        list.push(']');
        Ok(list)
    }
}

/// The values `step` reaches from `value` (JSON text), appended to `out`.
fn take<'t>(step: &Step, value: &'t str, out: &mut Vec<&'t str>) {
    match (step, value.as_bytes().first()) {
        (Step::Key(key), Some(b'{')) => out.extend(
            members(value)
                .find(|(k, _)| unescape(k) == *key)
                .map(|(_, v)| v),
        ),
        // A JSON Pointer's `/0` names a member "0" of an object as well as an item.
        (Step::Index(i), Some(b'{')) => {
            let key = i.to_string();
            out.extend(
                members(value)
                    .find(|(k, _)| unescape(k) == key)
                    .map(|(_, v)| v),
            );
        }
        (Step::Index(i), Some(b'[')) => {
            let len = items(value).count();
            out.extend(resolve(*i, len).and_then(|i| items(value).nth(i)));
        }
        (Step::Slice(start, end), Some(b'[')) => {
            let len = items(value).count();
            let bound = |b: Option<i64>, default: usize| b.map_or(default, |b| clamp_index(b, len));
            let (start, end) = (bound(*start, 0), bound(*end, len));
            if start < end {
                out.extend(items(value).skip(start).take(end - start));
            }
        }
        (Step::All, Some(b'[')) => out.extend(items(value)),
        (Step::All, Some(b'{')) => out.extend(members(value).map(|(_, v)| v)),
        _ => {}
    }
}

/// A JSON Pointer token as the key it names: `~1` is `/`, `~0` is `~`.
fn pointer_token(token: &str) -> String {
    let mut key = String::with_capacity(token.len());
    let mut chars = token.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('~', Some('1')) => {
                chars.next();
                key.push('/');
            }
            ('~', Some('0')) => {
                chars.next();
                key.push('~');
            }
            _ => key.push(c),
        }
    }
    key
}

/// Index `i` of `len` items (negative from the end), if there is one.
fn resolve(i: i64, len: usize) -> Option<usize> {
    let len = i64::try_from(len).ok()?;
    let i = if i < 0 { len + i } else { i };
    usize::try_from(i).ok().filter(|&i| (i as i64) < len)
}

/// A slice bound clamped into `0..=len`.
fn clamp_index(b: i64, len: usize) -> usize {
    let n = i64::try_from(len).unwrap_or(i64::MAX);
    let b = if b < 0 { (n + b).max(0) } else { b.min(n) };
    usize::try_from(b).unwrap_or(len)
}

/// The step inside brackets starting at byte `at` (after `[`), and where it ends (after
/// `]`); or the byte where it went wrong and what was expected.
fn bracket(text: &str, at: usize) -> Result<(Step, usize), (usize, &'static str)> {
    let b = text.as_bytes();
    match b.get(at) {
        Some(&q @ (b'\'' | b'"')) => {
            let mut key = String::new();
            let mut i = at + 1;
            loop {
                match b.get(i) {
                    None => return Err((i, "expected a closing quote")),
                    Some(&c) if c == q => break,
                    Some(b'\\') if i + 1 < b.len() => {
                        let next = text[i + 1..].chars().next().unwrap_or('\\');
                        key.push(next);
                        i += 1 + next.len_utf8();
                    }
                    Some(_) => {
                        let c = text[i..].chars().next().unwrap_or('\\');
                        key.push(c);
                        i += c.len_utf8();
                    }
                }
            }
            close(b, i + 1).map(|end| (Step::Key(key), end))
        }
        Some(b'*') => close(b, at + 1).map(|end| (Step::All, end)),
        _ => {
            let (start, i) = integer(text, at)?;
            if b.get(i) == Some(&b':') {
                let (end, j) = integer(text, i + 1)?;
                return close(b, j).map(|e| (Step::Slice(start, end), e));
            }
            match start {
                Some(n) => close(b, i).map(|e| (Step::Index(n), e)),
                None => Err((at, "expected an index, a slice, * or a quoted name")),
            }
        }
    }
}

/// An optional integer at byte `at` (`-` and digits), and the byte after it.
fn integer(text: &str, at: usize) -> Result<(Option<i64>, usize), (usize, &'static str)> {
    let b = text.as_bytes();
    let sign = usize::from(b.get(at) == Some(&b'-'));
    let digits = b[(at + sign).min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 {
        return if sign == 1 {
            Err((at + 1, "expected a digit"))
        } else {
            Ok((None, at))
        };
    }
    let end = at + sign + digits;
    let mut n: i64 = 0;
    for &d in &b[at + sign..end] {
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(i64::from(d - b'0')))
            .ok_or((at, "index out of range"))?;
    }
    Ok((Some(if sign == 1 { -n } else { n }), end))
}

/// The byte after the `]` expected at `at`.
fn close(b: &[u8], at: usize) -> Result<usize, (usize, &'static str)> {
    if b.get(at) == Some(&b']') {
        Ok(at + 1)
    } else {
        Err((at, "expected ]"))
    }
}

impl std::fmt::Display for JsonPath {
    /// The path in JSONPath form: `$.items[3].sku`, `$['a b']`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::from("$");
        for step in &self.steps {
            match step {
                Step::Key(k) if is_name(k) => {
                    let _ = write!(out, ".{k}");
                }
                Step::Key(k) => {
                    let _ = write!(
                        out,
                        "[{}]",
                        super::stringify::stringify(&serde_json::Value::String(k.clone()))
                    );
                }
                Step::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
                Step::Slice(a, b) => {
                    let show = |x: &Option<i64>| x.map(|x| x.to_string()).unwrap_or_default();
                    let _ = write!(out, "[{}:{}]", show(a), show(b));
                }
                Step::All => out.push_str("[*]"),
            }
        }
        f.write_str(&out)
    }
}

/// Whether `key` can follow a `.` (letters, digits, `_`, `$`, not starting with a digit).
fn is_name(key: &str) -> bool {
    key.bytes().next().is_some_and(|c| !c.is_ascii_digit())
        && key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'-'))
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
