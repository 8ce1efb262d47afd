//! `JSON.stringify` for [`Value`], byte for byte.
//!
//! Three details differ from serde_json's own serialiser and matter for identical files:
//! numbers use ECMAScript `Number.prototype.toString` (`1.0` → `1`, `1e21` → `1e+21`,
//! `-0` → `0`); object keys that are array indices come first in ascending order, as in
//! every JavaScript object; and only `"`, `\` and control characters are escaped.

use serde_json::Value;
use serde_json::{Map, Number};

/// Serialise `value` exactly as `JSON.stringify(value)` does in JavaScript (no spaces).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::json::stringify;
/// let v = json!({"b": 1.0, "10": true, "2": null, "a": "é\n\u{2028}"});
/// assert_eq!(stringify(&v), "{\"2\":null,\"10\":true,\"b\":1,\"a\":\"é\\n\u{2028}\"}");
/// ```
pub fn stringify(value: &Value) -> String {
    let mut out = String::with_capacity(size_hint(value));
    stringify_into(value, &mut out);
    out
}

/// About the size of `value`'s `JSON.stringify` (exact but for escapes and numbers), so
/// the output is allocated once: content arrays run to megabytes, and growing the buffer
/// by doubling copied each one twice over.
fn size_hint(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(items) => items.iter().map(|v| size_hint(v) + 1).sum::<usize>() + 2,
        Value::Object(map) => {
            map.iter()
                .map(|(k, v)| k.len() + 4 + size_hint(v))
                .sum::<usize>()
                + 2
        }
    }
}

/// [`stringify()`] appending to an existing buffer.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::json::stringify_into;
/// let mut out = String::from("data=");
/// stringify_into(&json!([1e21]), &mut out);
/// assert_eq!(out, "data=[1e+21]");
/// ```
pub fn stringify_into(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                stringify_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(map, out),
    }
}

fn write_number(n: &Number, out: &mut String) {
    // JavaScript numbers are doubles: every JSON number becomes the nearest f64 first,
    // so integers beyond 2^53 print as JavaScript prints them.
    let f = if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    };
    if f.is_finite() {
        out.push_str(ryu_js::Buffer::new().format_finite(f));
    } else {
        // JSON.stringify writes NaN and ±Infinity as null.
        out.push_str("null");
    }
}

fn write_object(map: &Map<String, Value>, out: &mut String) {
    out.push('{');
    let mut first = true;
    let mut emit = |key: &str, value: &Value, out: &mut String| {
        if !first {
            out.push(',');
        }
        first = false;
        write_string(key, out);
        out.push(':');
        stringify_into(value, out);
    };
    if map.keys().any(|k| array_index(k).is_some()) {
        // JavaScript orders integer-like keys numerically before all other keys.
        let mut indexed: Vec<(u32, &str, &Value)> = map
            .iter()
            .filter_map(|(k, v)| array_index(k).map(|i| (i, k.as_str(), v)))
            .collect();
        crate::sort::sort_by(&mut indexed, |a, b| a.0.cmp(&b.0));
        for (_, k, v) in indexed {
            emit(k, v, out);
        }
        for (k, v) in map.iter().filter(|(k, _)| array_index(k).is_none()) {
            emit(k, v, out);
        }
    } else {
        for (k, v) in map {
            emit(k, v, out);
        }
    }
    out.push('}');
}

/// `Some(i)` when `key` is the canonical decimal form of an array index (0 ..= 2^32 − 2).
fn array_index(key: &str) -> Option<u32> {
    let bytes = key.as_bytes();
    let canonical = !bytes.is_empty()
        && bytes.len() <= 10
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes[0] != b'0' || bytes.len() == 1);
    if !canonical {
        return None;
    }
    key.parse::<u64>()
        .ok()
        .filter(|&i| i < u64::from(u32::MAX))
        .map(|i| i as u32)
}

fn write_string(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    while let Some(i) = next_escape(bytes, start) {
        let b = bytes[i];
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            _ => "",
        };
        // Escapable bytes are ASCII, so these slice boundaries are char boundaries.
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xF)] as char);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether `b` must be escaped in a JSON string: `"`, `\\` or a control character.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The first byte from `from` on that must be escaped. Eight bytes at a time: a word is
/// looked at byte by byte only when one of its bytes may be below 0x20, `"` or `\\` (the
/// test has false positives, never false negatives); most text has none, and this is
/// where stringifying megabytes of tool output spends its time.
#[cfg(not(target_family = "wasm"))]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // Nonzero when some byte of `v` is below `n` (n ≤ 0x80).
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    let mut i = from;
    while i + 8 <= bytes.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let x = u64::from_le_bytes(word);
        let flagged = below(x, 0x20) | below(x ^ (ONES * 0x22), 1) | below(x ^ (ONES * 0x5C), 1);
        if flagged != 0 {
            if let Some(k) = (i..i + 8).find(|&k| needs_escape(bytes[k])) {
                return Some(k);
            }
        }
        i += 8;
    }
    (i..bytes.len()).find(|&k| needs_escape(bytes[k]))
}

/// [`next_escape`] byte by byte: the wasm stringifies through the engine's
/// `JSON.stringify` on its hot paths, and the word-at-a-time scan would cost it bytes.
#[cfg(target_family = "wasm")]
#[inline(always)]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    (from..bytes.len()).find(|&k| needs_escape(bytes[k]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    #[test]
    fn strings_escape_every_byte_that_needs_it_wherever_it_falls() {
        // Each escapable byte at every offset within and across 8-byte words, between
        // plain ASCII and multi-byte characters.
        let specials = [
            '"', '\\', '\n', '\r', '\t', '\u{8}', '\u{c}', '\u{0}', '\u{1f}', '\u{7f}', 'é', '😀',
        ];
        for special in specials {
            for at in 0..20 {
                let text: String = (0..20)
                    .map(|k| if k == at { special } else { 'a' })
                    .collect();
                let mut out = String::new();
                write_string(&text, &mut out);
                let mut expected = String::from("\"");
                for c in text.chars() {
                    match c {
                        '"' => expected.push_str("\\\""),
                        '\\' => expected.push_str("\\\\"),
                        '\n' => expected.push_str("\\n"),
                        '\r' => expected.push_str("\\r"),
                        '\t' => expected.push_str("\\t"),
                        '\u{8}' => expected.push_str("\\b"),
                        '\u{c}' => expected.push_str("\\f"),
                        c if (c as u32) < 0x20 => {
                            expected.push_str(&format!("\\u{:04x}", c as u32))
                        }
                        c => expected.push(c),
                    }
                }
                expected.push('"');
                assert_eq!(out, expected, "{special:?} at {at}");
            }
        }
    }

    #[test]
    fn output_is_allocated_once_at_about_its_size() {
        // Content arrays of long texts: the estimate covers the output, so the buffer
        // never grows (growing doubles it), and is not much larger than needed.
        let value = serde_json::json!([
            {"type": "text", "text": "x".repeat(10_000)},
            {"type": "text", "text": "y".repeat(5_000), "n": [1, true, null, false]},
        ]);
        // Many short items, where separators are a fifth of the output.
        let pairs = Value::Array((0..1000).map(|_| Value::from("ab")).collect());
        for value in [value, pairs] {
            let out = stringify(&value);
            let (len, capacity) = (out.len(), out.capacity());
            assert!(
                len <= capacity && capacity <= len + 16,
                "{capacity} for {len}"
            );
        }
    }

    fn roundtrip(text: &str) -> String {
        stringify(&parse(text).unwrap())
    }

    #[test]
    fn numbers_follow_ecmascript_formatting() {
        // Right-hand sides are what Node prints for JSON.stringify(JSON.parse(lhs)).
        let cases = [
            ("1.0", "1"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("0.1", "0.1"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("123456789012345678901", "123456789012345680000"),
            ("18446744073709551615", "18446744073709552000"),
            ("9007199254740993", "9007199254740992"),
            ("1.5e-7", "1.5e-7"),
            ("0.000001", "0.000001"),
            ("1e-7", "1e-7"),
            ("-1.25E+3", "-1250"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("0.30000000000000004", "0.30000000000000004"),
        ];
        for (input, want) in cases {
            assert_eq!(roundtrip(input), want, "{input}");
        }
    }

    #[test]
    fn strings_escape_like_javascript() {
        let s = "q\"b\\s/\u{0}\u{1f}\u{7f}\u{8}\u{c}\n\r\t\u{2028}\u{2029}😀é";
        assert_eq!(
            stringify(&Value::String(s.into())),
            "\"q\\\"b\\\\s/\\u0000\\u001f\u{7f}\\b\\f\\n\\r\\t\u{2028}\u{2029}😀é\""
        );
    }

    #[test]
    fn object_keys_keep_order_with_indices_first() {
        assert_eq!(
            roundtrip(r#"{"z":1,"a":2,"1":3,"0":4,"01":5,"4294967295":6,"4294967294":7,"-1":8}"#),
            r#"{"0":4,"1":3,"4294967294":7,"z":1,"a":2,"01":5,"4294967295":6,"-1":8}"#
        );
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        assert_eq!(roundtrip(r#"{"a":1,"b":2,"a":3}"#), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn nested_structures_have_no_whitespace() {
        assert_eq!(
            roundtrip("[ {\"a\" : [ 1 , { } , [ ] ] } , null , true , false ]"),
            r#"[{"a":[1,{},[]]},null,true,false]"#
        );
    }
}
