//! Plain data between JS values and core `Value`s, and JS strings as Rust text.

use js_sys::{Array, JsString, Object, Reflect};
use tool_offload_core::{Map, OffloadError, Value};
use wasm_bindgen::prelude::*;

use crate::error::JsOffloadError;

#[wasm_bindgen(module = "/js/copy-with-edits.js")]
extern "C" {
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(s: &JsString, from: u32, memory: &JsValue, ptr: u32, len: u32) -> Array;
}

/// A JS string as UTF-8 (a lone surrogate as U+FFFD, as the engine's `TextEncoder` and
/// Node's `fs` write it), copied by the engine's native `encodeInto`: for megabytes of
/// tool output several times faster than wasm-bindgen's per-character copy of ASCII.
pub(crate) fn js_text(s: &JsString) -> String {
    let units = s.length() as usize;
    // Not zeroed first: `encodeInto` writes every byte that is kept.
    let mut bytes: Vec<u8> = Vec::with_capacity(units);
    let mut read = 0;
    let memory = wasm_bindgen::memory();
    // First as if ASCII (one byte a unit); what is left takes at most 3 bytes a unit.
    while read < units {
        if bytes.len() == bytes.capacity() {
            bytes.reserve((units - read) * 3);
        }
        let spare = bytes.spare_capacity_mut();
        let done = encode_into(
            s,
            read as u32,
            &memory,
            spare.as_mut_ptr() as u32,
            spare.len() as u32,
        );
        let count = |i| done.get(i).as_f64().unwrap_or(0.0) as usize;
        let (r, w) = (count(0), count(1).min(spare.len()));
        read += r;
        // SAFETY: `encodeInto` wrote these `w` bytes of the spare capacity.
        unsafe { bytes.set_len(bytes.len() + w) };
        // Stopped short: the next character did not fit.
        if read < units && bytes.len() < bytes.capacity() {
            bytes.reserve((units - read) * 3);
        }
    }
    // `encodeInto` writes only whole characters of well-formed UTF-8 (a lone surrogate as
    // U+FFFD), so validating megabytes again would only cost time (0.1 ms a MB).
    debug_assert!(std::str::from_utf8(&bytes).is_ok());
    // SAFETY: UTF-8, as just said.
    unsafe { String::from_utf8_unchecked(bytes) }
}

/// A JS value as a core `Value`, with `JSON.stringify` semantics for plain data:
/// `undefined`, functions and symbols are dropped from objects (`null` in arrays),
/// non-finite numbers become `null`. For small values (tool schemas), not content.
pub(crate) fn to_value(value: &JsValue, what: &str) -> Result<Value, JsOffloadError> {
    let float = |n| serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number);
    walk(value, 0, what, &float).map_err(JsOffloadError::from)
}

/// [`to_value`]'s walk, with `number` for numbers (one walker for both uses keeps the
/// wasm smaller).
fn walk(
    value: &JsValue,
    depth: usize,
    what: &str,
    number: &dyn Fn(f64) -> Value,
) -> Result<Value, OffloadError> {
    if depth > 256 {
        return Err(OffloadError::InvalidArgument(format!(
            "{what} is nested too deeply (or circular)"
        )));
    }
    if let Some(s) = value.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = value.as_f64() {
        return Ok(number(n));
    }
    if let Some(array) = value.dyn_ref::<Array>() {
        return array
            .iter()
            .map(|item| walk(&item, depth + 1, what, number))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if value.is_object() && !value.is_function() {
        let mut map = Map::new();
        for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
            let item = Reflect::get(value, &key).unwrap_or(JsValue::UNDEFINED);
            if !(item.is_undefined() || item.is_function() || item.is_symbol()) {
                map.insert(
                    key.as_string().unwrap_or_default(),
                    walk(&item, depth + 1, what, number)?,
                );
            }
        }
        return Ok(Value::Object(map));
    }
    if value.is_bigint() {
        return Err(OffloadError::InvalidArgument(format!(
            "{what} contains a BigInt, which JSON cannot hold"
        )));
    }
    Ok(Value::Null)
}

/// A core `Value` as a fresh JS value.
pub(crate) fn to_js(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(to_js).collect::<Array>().into(),
        Value::Object(map) => {
            let object = Object::new();
            for (key, item) in map {
                let _ = Reflect::set(&object, &JsValue::from_str(key), &to_js(item));
            }
            object.into()
        }
    }
}

/// What `JSON.parse` returned (strings, finite numbers, booleans, null, arrays, plain
/// objects) as the core `Value` serde_json reads from the same text, so the wasm build
/// carries no JSON text parser (nor its float tables): an integer that JavaScript
/// prints as digits is a `u64` or `i64` when the digits fit one, any other number an
/// `f64`, and keys keep the parse's order.
pub(crate) fn from_parsed(value: &JsValue) -> Value {
    // Parsed JSON has nothing the walk drops or rejects, and at most 127 levels.
    walk(value, 0, "JSON", &parsed_number).unwrap_or(Value::Null)
}

/// `n` as serde_json parses the text `JSON.stringify` writes for it.
fn parsed_number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e21 {
        // Written as plain digits (above 2^53 not n's exact value: JavaScript's shortest).
        let mut buffer = ryu_js::Buffer::new();
        let digits = buffer.format_finite(n);
        if let Ok(u) = digits.parse::<u64>() {
            return Value::Number(u.into());
        }
        if let Ok(i) = digits.parse::<i64>() {
            return Value::Number(i.into());
        }
    }
    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// The column serde_json reports "recursion limit exceeded" at for JSON text written on
/// one line (as `JSON.stringify` writes it): that of the 128th nested `[` or `{`.
pub(crate) fn too_deep(json: &str) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for (i, b) in json.bytes().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth == 128 {
                    return Some(i + 1);
                }
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A count as a JS number.
pub(crate) fn number(n: usize) -> JsValue {
    JsValue::from_f64(n as f64)
}

/// Rust strings as a JS array of strings.
pub(crate) fn strings(items: &[String]) -> Array {
    items.iter().map(|s| JsValue::from_str(s)).collect()
}
