//! JSON reading and `JSON.stringify` bytes.
//!
//! 1. `is_json_document` (the `JSON.parse` grammar, containers only) agrees with
//!    serde_json wherever the two grammars coincide. serde_json refuses lone-surrogate
//!    `\u` escapes, which `JSON.parse` accepts: serde_json reads the text with every
//!    `\uXXXX` made `\u0041` (which changes no grammar decision), and
//!    `is_json_document` must give the same answer for both texts. Known differences,
//!    skipped: numbers that overflow an f64 (`JSON.parse` gives `Infinity`) and nesting
//!    deeper than 128 (`JSON.parse` has no such limit).
//! 2. For every value serde_json parses, `stringify` output parses back to an equal
//!    value (numbers compared as JavaScript doubles), is stable under another round
//!    trip, is accepted by `is_json_document` when it is a container, and equals
//!    serde_json's own output for values where `JSON.stringify` and serde_json agree
//!    (no floats, no integers beyond 2^53, no array-index keys).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_offload_core::json::{is_json_document, parse, stringify};
use tool_offload_core::OffloadError;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // core's parse is serde_json's, with its error mapped.
    let parsed = parse(&text);
    check_grammar(&text, &parsed);
    if let Ok(value) = &parsed {
        check_stringify(value);
    }
});

fn check_grammar(text: &str, parsed: &Result<Value, OffloadError>) {
    let ours = is_json_document(text);
    let reparsed;
    let parsed = match parsed {
        Err(_) if text.contains("\\u") => {
            let plain = without_surrogates(text);
            assert_eq!(
                is_json_document(&plain),
                ours,
                "\\u escapes changed the answer: {text:?}"
            );
            reparsed = parse(&plain);
            &reparsed
        }
        parsed => parsed,
    };
    match parsed {
        Ok(value) => {
            let container = value.is_array() || value.is_object();
            assert_eq!(
                ours, container,
                "is_json_document disagrees with serde_json on {text:?}"
            );
        }
        Err(e) if known_difference(e) => {}
        Err(e) => assert!(
            !ours,
            "is_json_document accepts what serde_json refuses ({e}): {text:?}"
        ),
    }
}

/// `text` with every `\u` and four hex digits made `\u0041`: no lone surrogates, and
/// the same answer from the `JSON.parse` grammar (a backslash and `u` stay, hex digits
/// stay hex digits).
fn without_surrogates(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes[i] == b'\\'
            && bytes.get(i + 1) == Some(&b'u')
            && bytes
                .get(i + 2..i + 6)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
        if escape {
            out.extend_from_slice(b"\\u0041");
            i += 6;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII replaced")
}

/// serde_json errors (as core reports them) for text `JSON.parse` accepts, once
/// surrogates are out of the way.
fn known_difference(e: &OffloadError) -> bool {
    let message = e.to_string();
    ["number out of range", "recursion limit exceeded"]
        .iter()
        .any(|known| message.contains(known))
}

fn check_stringify(value: &Value) {
    let once = stringify(value);
    let back: Value = serde_json::from_str(&once)
        .unwrap_or_else(|e| panic!("stringify output does not parse ({e}): {once:?}"));
    assert!(
        js_equal(value, &back),
        "round trip changed {value:?} into {back:?}"
    );
    assert_eq!(stringify(&back), once, "stringify is not stable");
    if value.is_array() || value.is_object() {
        assert!(is_json_document(&once), "{once:?}");
    }
    if serde_agrees(value) {
        assert_eq!(once, serde_json::to_string(value).unwrap());
    }
}

/// Equal as JavaScript sees them after `JSON.parse`: numbers are doubles, key order is
/// irrelevant (serde_json's map equality ignores it).
fn js_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| js_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| js_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `JSON.stringify` and serde_json write the same bytes for `value`.
fn serde_agrees(value: &Value) -> bool {
    const SAFE: u64 = 1 << 53;
    match value {
        Value::Number(n) => {
            n.as_u64().is_some_and(|u| u <= SAFE)
                || n.as_i64().is_some_and(|i| i.unsigned_abs() <= SAFE)
        }
        Value::Array(items) => items.iter().all(serde_agrees),
        Value::Object(map) => map
            .iter()
            .all(|(k, v)| !is_array_index(k) && serde_agrees(v)),
        _ => true,
    }
}

/// A canonical decimal below 2^32 − 1: JavaScript puts such keys first.
fn is_array_index(key: &str) -> bool {
    key.parse::<u64>()
        .is_ok_and(|i| i < u64::from(u32::MAX) && i.to_string() == key)
}
