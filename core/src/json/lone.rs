//! JSON text with escaped lone UTF-16 surrogates (`"cut \ud83d"`), which `JSON.parse`
//! accepts but neither serde_json nor a Rust `String` can hold.
//!
//! [`LoneSurrogates::mark`] swaps each such escape for a stand-in: a character of the
//! Basic Multilingual Plane (U+0800 and up) that the document does not use anywhere, one
//! per surrogate value. Like the surrogate it stands for, a stand-in is one UTF-16 unit, and three
//! UTF-8 bytes as U+FFFD, so every size is what JavaScript measures. [`LoneView`] then
//! reads the parsed value as JavaScript sees it: string content as U+FFFD (what Node's
//! `fs` writes), array content as `JSON.stringify` writes it (`\ud83d`), and an id with
//! a stand-in has a lone surrogate (`INVALID_ID`). [`LoneSurrogates::restore`] turns the
//! stand-ins of output JSON back into the escapes `JSON.stringify` prints.

use std::borrow::Cow;

use super::stringify::stringify;
use super::view::{JsonView, Kind};
use crate::error::OffloadError;
use serde_json::Value;

/// The stand-ins of one JSON text, each with the surrogate it stands for.
///
/// ```
/// use tool_offload_core::json::{self, LoneSurrogates};
/// let text = br#"["cut \ud83d", "pair \ud83d\ude00"]"#;
/// let (marked, lone) = LoneSurrogates::mark(text).unwrap();
/// let value: serde_json::Value = serde_json::from_slice(&marked).unwrap();
/// assert_eq!(value[1], "pair 😀");
/// assert_eq!(lone.to_written(value[0].as_str().unwrap()), "cut \u{FFFD}");
/// assert_eq!(lone.restore(&json::stringify(&value)), r#"["cut \ud83d","pair 😀"]"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoneSurrogates {
    /// (stand-in, surrogate), sorted by either.
    stand_ins: Vec<(char, u16)>,
}

impl LoneSurrogates {
    /// `text` with every escaped lone surrogate inside a string replaced by its
    /// stand-in (borrowed when there is none), and the stand-ins. Text that is not
    /// valid JSON is left for the parser to report (only its columns may shift).
    ///
    /// # Errors
    /// `INVALID_MESSAGE` in the (theoretical) case that the document uses so many
    /// characters that too few are left to stand in.
    pub fn mark(text: &[u8]) -> Result<(Cow<'_, [u8]>, LoneSurrogates), OffloadError> {
        if !has_surrogate_escape(text) {
            return Ok((Cow::Borrowed(text), LoneSurrogates::default()));
        }
        let scan = Scan::of(text);
        if scan.lone.is_empty() {
            return Ok((Cow::Borrowed(text), LoneSurrogates::default()));
        }
        // Distinct surrogates and free characters, both ascending, so the pairs come out
        // sorted both ways (no sort: its code would grow the wasm build).
        let mut seen = vec![false; 0x800];
        for &(_, unit) in &scan.lone {
            seen[usize::from(unit - 0xD800)] = true;
        }
        let units = (0xD800..=0xDFFF_u16).filter(|u| seen[usize::from(u - 0xD800)]);
        let mut free = (0x0800..=0xD7FF_u32)
            .chain(0xE000..=0xFFFF)
            .filter(|&c| !scan.used[c as usize])
            .filter_map(char::from_u32);
        let mut stand_ins = Vec::new();
        for unit in units {
            let stand_in = free.next().ok_or_else(|| {
                OffloadError::InvalidMessage(
                    "the document uses too many different characters to hold its lone UTF-16 surrogates"
                        .into(),
                )
            })?;
            stand_ins.push((stand_in, unit));
        }
        let mut out = Vec::with_capacity(text.len());
        let mut copied = 0;
        let mut buf = [0; 4];
        for (at, unit) in scan.lone {
            out.extend_from_slice(&text[copied..at]);
            let i = stand_ins.partition_point(|&(_, u)| u < unit);
            out.extend_from_slice(stand_ins[i].0.encode_utf8(&mut buf).as_bytes());
            copied = at + ESCAPE_LEN;
        }
        out.extend_from_slice(&text[copied..]);
        Ok((Cow::Owned(out), LoneSurrogates { stand_ins }))
    }

    /// Whether the text had no lone surrogate (then nothing here changes anything).
    pub fn is_empty(&self) -> bool {
        self.stand_ins.is_empty()
    }

    /// The surrogate `c` stands in for, if it is a stand-in.
    fn surrogate(&self, c: char) -> Option<u16> {
        self.stand_ins
            .binary_search_by_key(&c, |&(s, _)| s)
            .ok()
            .map(|i| self.stand_ins[i].1)
    }

    /// Whether `s` holds a stand-in, i.e. a lone surrogate.
    pub fn contains(&self, s: &str) -> bool {
        !self.is_empty() && s.chars().any(|c| self.surrogate(c).is_some())
    }

    /// `s` as written to a file: each stand-in as U+FFFD, as Node's `fs` writes a lone
    /// surrogate.
    pub fn to_written<'s>(&self, s: &'s str) -> Cow<'s, str> {
        self.replace(s, |_, out| out.push('\u{FFFD}'))
    }

    /// JSON text made from the marked document (by [`stringify()`]) as
    /// `JSON.stringify` prints it: each stand-in as its escape, e.g. `\ud83d`. Only
    /// strings of the document may hold stand-ins; text added to it (placeholders, made
    /// of ids that hold none) never does.
    pub fn restore<'s>(&self, json: &'s str) -> Cow<'s, str> {
        self.replace(json, |unit, out| {
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(char::from(
                    b"0123456789abcdef"[usize::from(unit >> shift & 0xF)],
                ));
            }
        })
    }

    fn replace<'s>(&self, s: &'s str, with: impl Fn(u16, &mut String)) -> Cow<'s, str> {
        if !self.contains(s) {
            return Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(s.len() + 8);
        for c in s.chars() {
            match self.surrogate(c) {
                Some(unit) => with(unit, &mut out),
                None => out.push(c),
            }
        }
        Cow::Owned(out)
    }

    /// `value` (parsed from the marked text) as JavaScript sees it.
    pub fn view<'a>(&'a self, value: &'a Value) -> LoneView<'a> {
        LoneView { value, lone: self }
    }
}

/// `\uXXXX`
const ESCAPE_LEN: usize = 6;

/// Whether `text` has anything like `\uD800`–`\uDFFF` at all (the common case: no).
fn has_surrogate_escape(text: &[u8]) -> bool {
    text.windows(4).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && matches!(w[2], b'd' | b'D')
            && matches!(w[3], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    })
}

/// One pass over JSON text: where its lone-surrogate escapes are, and which BMP
/// characters it uses (literally or escaped), which cannot be stand-ins.
struct Scan {
    lone: Vec<(usize, u16)>,
    used: Vec<bool>,
}

impl Scan {
    fn of(text: &[u8]) -> Scan {
        let mut scan = Scan {
            lone: Vec::new(),
            used: vec![false; 0x10000],
        };
        let mut in_string = false;
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'"' => {
                    in_string = !in_string;
                    i += 1;
                }
                b'\\' if in_string => i += scan.escape(text, i),
                lead @ 0xE0..=0xEF => {
                    // A three-byte UTF-8 sequence: U+0800..U+FFFF.
                    if let [b1, b2] = text.get(i + 1..i + 3).unwrap_or_default() {
                        let c = (u32::from(lead & 0x0F) << 12)
                            | (u32::from(b1 & 0x3F) << 6)
                            | u32::from(b2 & 0x3F);
                        scan.used[c as usize] = true;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        scan
    }

    /// Read the escape at `at` (a backslash in a string); return its length.
    fn escape(&mut self, text: &[u8], at: usize) -> usize {
        if text.get(at + 1) != Some(&b'u') {
            return 2;
        }
        let Some(unit) = hex4(text, at + 2) else {
            return 2;
        };
        if (0xD800..=0xDBFF).contains(&unit)
            && text.get(at + ESCAPE_LEN + 1) == Some(&b'u')
            && text.get(at + ESCAPE_LEN) == Some(&b'\\')
            && hex4(text, at + ESCAPE_LEN + 2).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low))
        {
            return 2 * ESCAPE_LEN; // a surrogate pair: one astral character
        }
        if (0xD800..=0xDFFF).contains(&unit) {
            self.lone.push((at, unit));
        } else {
            self.used[usize::from(unit)] = true;
        }
        ESCAPE_LEN
    }
}

/// The four hex digits at `at`, if there are.
fn hex4(text: &[u8], at: usize) -> Option<u16> {
    let digits = text.get(at..at + 4)?;
    let s = std::str::from_utf8(digits).ok()?;
    if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

/// A value parsed from marked text, read as JavaScript reads the original: a lone
/// surrogate escape counts as the one UTF-16 unit JavaScript sees.
///
/// ```
/// use tool_offload_core::json::LoneSurrogates;
/// use tool_offload_core::view::JsonView;
/// let text = br#"{"tool_call_id": "c\udc00", "content": "cut \ud83d"}"#;
/// let (marked, lone) = LoneSurrogates::mark(text).unwrap();
/// let message: serde_json::Value = serde_json::from_slice(&marked).unwrap();
/// let view = lone.view(&message);
/// assert!(view.field("tool_call_id").unwrap().has_lone_surrogate());
/// assert_eq!(view.field("content").unwrap().text().unwrap(), "cut \u{FFFD}");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct LoneView<'a> {
    value: &'a Value,
    lone: &'a LoneSurrogates,
}

impl<'a> LoneView<'a> {
    fn wrap(&self, value: &'a Value) -> Self {
        LoneView {
            value,
            lone: self.lone,
        }
    }
}

impl<'a> JsonView for LoneView<'a> {
    type Text = Cow<'a, str>;

    fn kind(&self) -> Kind {
        self.value.kind()
    }
    fn field(&self, key: &'static str) -> Option<Self> {
        self.value.field(key).map(|v| self.wrap(v))
    }
    fn array_len(&self) -> usize {
        self.value.array_len()
    }
    fn item(&self, index: usize) -> Option<Self> {
        self.value.item(index).map(|v| self.wrap(v))
    }
    fn is_str(&self, expected: &'static str) -> bool {
        self.value.is_str(expected)
    }
    fn to_owned_string(&self) -> Option<String> {
        let s = self.value.as_str()?;
        Some(self.lone.to_written(s).into_owned())
    }
    fn has_lone_surrogate(&self) -> bool {
        self.value.as_str().is_some_and(|s| self.lone.contains(s))
    }
    fn as_f64(&self) -> Option<f64> {
        self.value.as_f64()
    }
    fn as_bool(&self) -> Option<bool> {
        self.value.as_bool()
    }
    fn text(&self) -> Result<Cow<'a, str>, OffloadError> {
        Ok(match self.value {
            Value::String(s) => self.lone.to_written(s),
            other => {
                let text = stringify(other);
                if self.lone.contains(&text) {
                    Cow::Owned(self.lone.restore(&text).into_owned())
                } else {
                    Cow::Owned(text)
                }
            }
        })
    }
    fn empty_text() -> Cow<'a, str> {
        Cow::Borrowed("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(text: &str) -> (Value, LoneSurrogates) {
        let (bytes, lone) = LoneSurrogates::mark(text.as_bytes()).unwrap();
        (serde_json::from_slice(&bytes).unwrap(), lone)
    }

    #[test]
    fn round_trips_as_json_stringify_prints() {
        // Expected values are JSON.stringify(JSON.parse(text)) in Node.
        let cases = [
            (r#"["\ud83d"]"#, r#"["\ud83d"]"#),
            (r#"["\uDC00x\uD800"]"#, r#"["\udc00x\ud800"]"#),
            (r#"["\ud83d\ude00"]"#, "[\"😀\"]"),
            (r#"["\ud83d\ud83d\ude00"]"#, "[\"\\ud83d😀\"]"),
            (r#"["\ude00\ud83d"]"#, r#"["\ude00\ud83d"]"#),
            (r#"["\\ud83d"]"#, r#"["\\ud83d"]"#),
            (r#"{"\ud800":"k"}"#, r#"{"\ud800":"k"}"#),
        ];
        for (text, want) in cases {
            let (value, lone) = marked(text);
            assert_eq!(lone.restore(&stringify(&value)), want, "{text}");
        }
    }

    #[test]
    fn stand_ins_avoid_characters_the_document_uses() {
        // U+0800 literally, U+0801 escaped: the stand-ins for \ud800 and \ud83d are
        // U+0802 and U+0803.
        let (value, lone) = marked("[\"\u{800}\\u0801\\ud83d\\ud800\"]");
        assert_eq!(value[0], "\u{800}\u{801}\u{803}\u{802}");
        let text = value[0].as_str().unwrap();
        assert_eq!(lone.to_written(text), "\u{800}\u{801}\u{FFFD}\u{FFFD}");
        assert_eq!(
            lone.restore(&stringify(&value)),
            "[\"\u{800}\u{801}\\ud83d\\ud800\"]"
        );
    }

    #[test]
    fn sizes_are_javascript_sizes() {
        let (value, lone) = marked(r#"["ab\ud83d", [{"t": "\udc00"}]]"#);
        let view = lone.view(&value);
        let text = view.item(0).unwrap().text().unwrap();
        assert_eq!((crate::text::utf16_len(&text), text.len()), (3, 5));
        // JSON.stringify([{t: "\udc00"}]) is 16 units.
        let array = view.item(1).unwrap().text().unwrap();
        assert_eq!(array, r#"[{"t":"\udc00"}]"#);
    }

    #[test]
    fn text_without_lone_surrogates_is_borrowed() {
        let text = br#"["a\u00e9\ud83d\ude00"]"#;
        let (marked, lone) = LoneSurrogates::mark(text).unwrap();
        assert!(matches!(marked, Cow::Borrowed(_)));
        assert!(lone.is_empty());
    }
}
