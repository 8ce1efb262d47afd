//! The shape of a JSON document in a few lines, and its first lines pretty-printed: what
//! a summary shows of a JSON output, which is often one line of megabytes. One pass over
//! the tokens, no tree built, memory bounded by the nesting depth.

/// Members of the top-level object listed at most.
pub const MAX_MEMBERS: usize = 24;
/// Keys named at most in an object's description (`object{id, sku, …}`).
const MAX_KEYS: usize = 8;

/// What [`synopsis`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synopsis {
    /// The document's own description: `object, 3 keys`, `array[5,000] of object{id, sku}`.
    pub top: String,
    /// For a top-level object, its first [`MAX_MEMBERS`] members: key and description.
    pub members: Vec<(String, String)>,
    /// Members not listed.
    pub more_members: usize,
    /// The largest array anywhere, when it has more than one item: its path (`$.items`,
    /// `$.data[0].rows`) and length.
    pub largest: Option<(String, usize)>,
}

/// One token of JSON text: its kind and its bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Open(u8),
    Close,
    Colon,
    Comma,
    /// A string, quotes included.
    Str(&'a str),
    /// A number, `true`, `false` or `null`.
    Scalar(&'a str),
}

/// The tokens of `text`, which must be JSON (a summary has checked it): anything else
/// ends them.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let b = self.text.as_bytes();
        while matches!(b.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
        let start = self.at;
        let c = *b.get(start)?;
        self.at += 1;
        Some(match c {
            b'{' | b'[' => Token::Open(c),
            b'}' | b']' => Token::Close,
            b':' => Token::Colon,
            b',' => Token::Comma,
            b'"' => {
                while let Some(&c) = b.get(self.at) {
                    self.at += 1;
                    match c {
                        b'\\' => self.at += 1,
                        b'"' => break,
                        _ => {}
                    }
                }
                self.at = self.at.min(b.len());
                Token::Str(&self.text[start..self.at])
            }
            // Not JSON (a caller's mistake): the tokens end, never inside a character.
            c if !c.is_ascii() => {
                self.at = b.len();
                return None;
            }
            _ => {
                while b
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'+'))
                {
                    self.at += 1;
                }
                Token::Scalar(&self.text[start..self.at])
            }
        })
    }
}

/// A scalar's kind.
fn kind(token: Token<'_>) -> &'static str {
    match token {
        Token::Str(_) => "string",
        Token::Scalar("true" | "false") => "boolean",
        Token::Scalar("null") => "null",
        _ => "number",
    }
}

/// An open container while the walk is inside it.
struct Frame {
    array: bool,
    /// Items (array) or members (object) so far.
    count: usize,
    path: String,
    /// An object's first keys.
    keys: Vec<String>,
    /// The key of the member being read.
    key: String,
    /// An array's item description, from its first item; `mixed` once another differs.
    item: Option<String>,
    /// For the top-level object: its members' descriptions.
    members: Option<Vec<(String, String)>>,
}

impl Frame {
    fn new(array: bool, path: String, top: bool) -> Frame {
        Frame {
            array,
            count: 0,
            path,
            keys: Vec::new(),
            key: String::new(),
            item: None,
            members: (top && !array).then(Vec::new),
        }
    }

    /// The description of the finished container.
    fn describe(&self) -> String {
        if self.array {
            match &self.item {
                None => "array[0]".to_owned(),
                Some(item) => format!("array[{}] of {item}", crate::text::thousands(self.count)),
            }
        } else {
            let mut keys = comma_list(self.keys.iter().map(String::as_str));
            if self.count > self.keys.len() {
                keys.push_str(", …");
            }
            format!("object{{{keys}}}")
        }
    }

    /// A finished value `desc` inside this container: an item of an array, or the value
    /// of the member whose key was read last.
    fn took(&mut self, desc: &str) {
        if self.array {
            self.count += 1;
            match &self.item {
                None => self.item = Some(desc.to_owned()),
                Some(item) if item != desc && item != "mixed" => {
                    // Objects with other keys are still objects.
                    let both_objects = item.starts_with("object") && desc.starts_with("object");
                    if !both_objects {
                        self.item = Some("mixed".to_owned());
                    }
                }
                Some(_) => {}
            }
        } else if let Some(members) = &mut self.members {
            if members.len() < MAX_MEMBERS {
                members.push((self.key.clone(), desc.to_owned()));
            }
        }
    }
}

/// The shape of the JSON document `text`.
///
/// ```
/// use tool_offload_core::json::synopsis;
/// let s = synopsis(r#"{"ok":true,"items":[{"id":1,"sku":"a"},{"id":2,"sku":"b"}],"meta":{"page":1}}"#);
/// assert_eq!(s.top, "object, 3 keys");
/// assert_eq!(s.members, [
///     ("ok".to_owned(), "boolean".to_owned()),
///     ("items".to_owned(), "array[2] of object{id, sku}".to_owned()),
///     ("meta".to_owned(), "object{page}".to_owned()),
/// ]);
/// assert_eq!(s.largest, Some(("$.items".to_owned(), 2)));
/// ```
pub fn synopsis(text: &str) -> Synopsis {
    let mut stack: Vec<Frame> = Vec::new();
    let mut top = String::new();
    let mut members = Vec::new();
    let mut top_count = 0;
    let mut largest: Option<(String, usize)> = None;
    let mut expect_key = false;
    for token in (Tokens { text, at: 0 }) {
        match token {
            Token::Open(c) => {
                let path = match stack.last() {
                    None => "$".to_owned(),
                    Some(parent) if parent.array => format!("{}[{}]", parent.path, parent.count),
                    Some(parent) => member_path(&parent.path, &parent.key),
                };
                let top_level = stack.is_empty();
                stack.push(Frame::new(c == b'[', path, top_level));
                expect_key = c == b'{';
            }
            Token::Close => {
                let Some(frame) = stack.pop() else { break };
                // The longest; of equals, the shallowest.
                let larger = match &largest {
                    None => frame.count > 1,
                    Some((path, n)) => {
                        frame.count > *n || (frame.count == *n && frame.path.len() < path.len())
                    }
                };
                if frame.array && larger {
                    largest = Some((frame.path.clone(), frame.count));
                }
                let desc = frame.describe();
                match stack.last_mut() {
                    Some(parent) => parent.took(&desc),
                    None => {
                        top_count = frame.count;
                        members = frame.members.unwrap_or_default();
                        top = if frame.array {
                            desc
                        } else {
                            format!(
                                "object, {}",
                                crate::text::measure::count(frame.count, "key")
                            )
                        };
                        break;
                    }
                }
            }
            Token::Comma => expect_key = stack.last().is_some_and(|f| !f.array),
            Token::Colon => expect_key = false,
            Token::Str(s) if expect_key => {
                if let Some(frame) = stack.last_mut() {
                    frame.count += 1;
                    frame.key.clear();
                    frame.key.push_str(&s[1..s.len().saturating_sub(1).max(1)]);
                    if frame.keys.len() < MAX_KEYS {
                        frame.keys.push(frame.key.clone());
                    }
                }
            }
            scalar => match stack.last_mut() {
                Some(parent) => parent.took(kind(scalar)),
                None => {
                    top = kind(scalar).to_owned();
                    break;
                }
            },
        }
    }
    let more_members = top_count.saturating_sub(members.len());
    Synopsis {
        top,
        members,
        more_members,
        largest,
    }
}

/// The path of member `key` of the container at `path`: `$.items`, `$["a b"]`.
fn member_path(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && !key.as_bytes()[0].is_ascii_digit()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
    if plain {
        format!("{path}.{key}")
    } else {
        format!("{path}[\"{key}\"]")
    }
}

/// `a, b, c` (`str::join` would add its own copy loop to the wasm).
pub(crate) fn comma_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for item in items {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(item);
    }
    out
}

/// The first `lines` lines of `text` (JSON) pretty-printed with two-space indents, as
/// `JSON.stringify(value, null, 2)` lays them out; strings as they are in the text.
///
/// ```
/// use tool_offload_core::json::pretty_head;
/// assert_eq!(pretty_head(r#"{"a":[1,2],"b":{}}"#, 10), ["{", "  \"a\": [", "    1,", "    2", "  ],", "  \"b\": {}", "}"]);
/// assert_eq!(pretty_head(r#"{"a":[1,2],"b":{}}"#, 2), ["{", "  \"a\": ["]);
/// ```
pub fn pretty_head(text: &str, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut closers: Vec<char> = Vec::new();
    let indent = |depth: usize| "  ".repeat(depth);
    let mut tokens = (Tokens { text, at: 0 }).peekable();
    while let Some(token) = tokens.next() {
        if out.len() >= lines {
            return out;
        }
        match token {
            Token::Open(c) => {
                if tokens.peek() == Some(&Token::Close) {
                    tokens.next();
                    line.push_str(if c == b'{' { "{}" } else { "[]" });
                } else {
                    line.push(c as char);
                    out.push(std::mem::take(&mut line));
                    closers.push(if c == b'{' { '}' } else { ']' });
                    line = indent(closers.len());
                }
            }
            Token::Close => {
                let close = closers.pop().unwrap_or('}');
                if !line.trim_ascii().is_empty() {
                    out.push(std::mem::take(&mut line));
                }
                line = indent(closers.len());
                line.push(close);
            }
            Token::Comma => {
                line.push(',');
                out.push(std::mem::take(&mut line));
                line = indent(closers.len());
            }
            Token::Colon => line.push_str(": "),
            Token::Str(s) | Token::Scalar(s) => line.push_str(s),
        }
    }
    if !line.trim_ascii().is_empty() && out.len() < lines {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_documents() {
        let s =
            synopsis(r#"[{"id":1,"tags":["a"]},{"id":2,"tags":[]},{"id":3,"tags":["b","c","d"]}]"#);
        assert_eq!(s.top, "array[3] of object{id, tags}");
        assert!(s.members.is_empty());
        assert_eq!(s.largest, Some(("$".to_owned(), 3)));
        let s = synopsis(r#"{"data":{"rows":[[1,"x"],[2,"y"],[3,"z"],[4,"w"]]},"a b":null}"#);
        assert_eq!(s.top, "object, 2 keys");
        assert_eq!(s.members[0], ("data".to_owned(), "object{rows}".to_owned()));
        assert_eq!(s.members[1], ("a b".to_owned(), "null".to_owned()));
        assert_eq!(s.largest, Some(("$.data.rows".to_owned(), 4)));
        let s = synopsis(r#"[1,"a",true]"#);
        assert_eq!(s.top, "array[3] of mixed");
        assert_eq!(synopsis("42").top, "number");
        let many: String = format!(
            "{{{}}}",
            (0..30)
                .map(|i| format!("\"k{i}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let s = synopsis(&many);
        assert_eq!((s.members.len(), s.more_members), (MAX_MEMBERS, 6));
        assert_eq!(s.top, "object, 30 keys");
        let nested = r#"{"o":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}}"#;
        assert_eq!(
            synopsis(nested).members[0].1,
            "object{a, b, c, d, e, f, g, h, …}"
        );
    }

    #[test]
    fn pretty_head_matches_json_stringify_layout() {
        let text = r#"{"a":{"b":[1,{"c":"x, y"}],"d":[]},"e":"\"q\""}"#;
        let all = pretty_head(text, 100).join("\n");
        assert_eq!(
            all,
            "{\n  \"a\": {\n    \"b\": [\n      1,\n      {\n        \"c\": \"x, y\"\n      }\n    ],\n    \"d\": []\n  },\n  \"e\": \"\\\"q\\\"\"\n}"
        );
    }
}
