//! JSON reading and `JSON.stringify` bytes.
//!
//! 1. `is_json_document` (the `JSON.parse` grammar, containers only) agrees with
//!    serde_json wherever the two grammars coincide. Known differences, skipped:
//!    serde_json refuses lone-surrogate `\u` escapes (`JSON.parse` accepts them),
//!    numbers that overflow an f64 (`JSON.parse` gives `Infinity`) and nesting deeper
//!    than 128 (`JSON.parse` has no such limit).
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
    match parsed {
        Ok(value) => {
            let container = value.is_array() || value.is_object();
            assert_eq!(
                ours, container,
                "is_json_document disagrees with serde_json on {text:?}"
            );
        }
        Err(e) if known_difference(&e) => {}
        Err(e) => assert!(
            !ours,
            "is_json_document accepts what serde_json refuses ({e}): {text:?}"
        ),
    }
}

/// serde_json errors (as core reports them) for text `JSON.parse` accepts.
fn known_difference(e: &OffloadError) -> bool {
    let message = e.to_string();
    [
        "lone leading surrogate",
        "unexpected end of hex escape",
        "invalid unicode code point",
        "number out of range",
        "recursion limit exceeded",
    ]
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
