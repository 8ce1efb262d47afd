//! Whether a string is JSON text as `JSON.parse` accepts it: syntax only, any depth,
//! any number (`1e400` parses to `Infinity`), any `\u` escape (lone surrogates too).

/// Whether `text` is one JSON value (surrounded by JSON whitespace) that is an object or
/// an array: exactly the strings `JSON.parse` turns into one.
///
/// ```
/// use tool_offload_core::json::is_json_document;
/// assert!(is_json_document(" [1e400, \"\\ud800\", {\"a\": null}] \n"));
/// assert!(!is_json_document("123"));
/// assert!(!is_json_document("[1,]"));
/// assert!(!is_json_document("{\"a\": 1} x"));
/// ```
pub fn is_json_document(text: &str) -> bool {
    let bytes = text.as_bytes();
    let start = skip_ws(bytes, 0);
    matches!(bytes.get(start), Some(b'{' | b'[')) && {
        let mut p = Parser { bytes, at: start };
        p.value() && skip_ws(bytes, p.at) == bytes.len()
    }
}

/// The first byte at or after `at` that is not JSON whitespace.
pub(super) fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// A container being read: what comes next inside it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Array,
    Object,
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&mut self) -> Option<u8> {
        self.at = skip_ws(self.bytes, self.at);
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// One value; containers with an explicit stack, so depth costs no recursion.
    fn value(&mut self) -> bool {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // A value starts here.
            match self.peek() {
                Some(b'[') => {
                    self.at += 1;
                    if self.eat(b']') {
                        if !self.after_value(&mut stack) {
                            return false;
                        }
                    } else {
                        stack.push(Open::Array);
                        continue;
                    }
                }
                Some(b'{') => {
                    self.at += 1;
                    if self.eat(b'}') {
                        if !self.after_value(&mut stack) {
                            return false;
                        }
                    } else {
                        stack.push(Open::Object);
                        if !self.key() {
                            return false;
                        }
                        continue;
                    }
                }
                Some(_) => {
                    if !self.scalar() || !self.after_value(&mut stack) {
                        return false;
                    }
                }
                None => return false,
            }
            if stack.is_empty() {
                return true;
            }
        }
    }

    /// After a value inside the containers of `stack`: a comma (then the next key or
    /// item) or closing brackets. `true` when positioned at the next value, or when
    /// every container is closed.
    fn after_value(&mut self, stack: &mut Vec<Open>) -> bool {
        while let Some(&open) = stack.last() {
            let close = if open == Open::Array { b']' } else { b'}' };
            if self.eat(b',') {
                return open == Open::Array || self.key();
            }
            if !self.eat(close) {
                return false;
            }
            stack.pop();
        }
        true
    }

    /// `"key" :`.
    fn key(&mut self) -> bool {
        self.peek() == Some(b'"') && self.string() && self.eat(b':')
    }

    fn scalar(&mut self) -> bool {
        let rest = &self.bytes[self.at..];
        for literal in [&b"true"[..], b"false", b"null"] {
            if rest.starts_with(literal) {
                self.at += literal.len();
                return true;
            }
        }
        match rest.first() {
            Some(b'"') => self.string(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => false,
        }
    }

    fn string(&mut self) -> bool {
        self.at += 1; // the opening quote
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return true,
                b'\\' => {
                    let Some(&escape) = self.bytes.get(self.at) else {
                        return false;
                    };
                    self.at += 1;
                    match escape {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return false;
                            }
                            self.at += 4;
                        }
                        _ => return false,
                    }
                }
                0x00..=0x1f => return false,
                _ => {}
            }
        }
        false
    }

    fn number(&mut self) -> bool {
        let digits = |p: &mut Self| {
            let start = p.at;
            while p.bytes.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at > start
        };
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return false,
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !digits(self) {
                return false;
            }
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !digits(self) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::is_json_document;

    #[test]
    fn accepts_what_json_parse_accepts() {
        // Each of these is an object or array to JSON.parse (checked in Node 20).
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in [
            "[]",
            "{}",
            " \t\r\n[ 1 , -0.5e+3 , \"a\\u00e9\\n\" , true , false , null ] ",
            r#"{"a": {"b": [{}, []]}, "c": ""}"#,
            r#"["\ud800"]"#,
            "[1e400]",
            "[-0]",
            deep.as_str(),
        ] {
            assert!(is_json_document(text), "{text}");
        }
    }

    #[test]
    fn refuses_what_json_parse_refuses_or_is_not_a_container() {
        for text in [
            "",
            " ",
            "1",
            "\"[]\"",
            "null",
            "[",
            "[1,]",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[1e]",
            "[+1]",
            "[\"\\x\"]",
            "[\"\\u12\"]",
            "[\"a\nb\"]",
            "[] []",
            "[]x",
            "[tru]",
            "['a']",
            "[NaN]",
            "\u{feff}[]",
        ] {
            assert!(!is_json_document(text), "{text:?}");
        }
    }
}
