//! Arguments from JavaScript, and plain data between JS values and core `Value`s.

use js_sys::{Array, JsString, Object, Reflect};
use tool_offload_core::path::LONE_SURROGATE;
use tool_offload_core::{safe_count, Map, OffloadError, Value};
use wasm_bindgen::prelude::*;

use crate::error::{message_of, JsOffloadError};
use crate::view::has_lone_surrogate;

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

/// A string argument, or an error naming it.
pub(crate) fn string_arg(
    value: &JsValue,
    error: impl FnOnce(&str) -> OffloadError,
) -> Result<String, JsOffloadError> {
    value
        .as_string()
        .ok_or_else(|| error(&kind_of(value)).into())
}

/// An id argument (`sessionId`, `conversationId`, `toolCallId`…): a string, else
/// `INVALID_ID` saying it is missing or not a string. Whether it can name a file is
/// core's check.
pub(crate) fn id_arg(value: &JsValue, field: &str) -> Result<String, JsOffloadError> {
    id_string(value, field, |kind| OffloadError::InvalidId {
        field: field.into(),
        value: None,
        reason: if kind == "undefined" {
            "is missing"
        } else {
            "must be a string"
        },
    })
}

/// An id read from JS as a Rust String, or `not_string(kind)` when it is not a string.
/// An id holding a lone UTF-16 surrogate is `INVALID_ID`, checked before the conversion
/// that would silently turn it into U+FFFD. Every id read from JS comes through here.
pub(crate) fn id_string(
    value: &JsValue,
    field: &str,
    not_string: impl FnOnce(&str) -> OffloadError,
) -> Result<String, JsOffloadError> {
    if has_lone_surrogate(value) {
        return Err(OffloadError::InvalidId {
            field: field.into(),
            value: None,
            reason: LONE_SURROGATE,
        }
        .into());
    }
    string_arg(value, not_string)
}

/// What `value` is, for messages: its `typeof`, or `null`.
pub(crate) fn kind_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

/// The working directory `output_dir` resolves against: `options.cwd`, else (only when
/// `output_dir` is relative) Node's `process.cwd()`, else `/` where there is no process
/// (browsers). A `process.cwd()` that throws (deleted directory) is an error, never a
/// silent fallback that would put files elsewhere.
pub(crate) fn working_dir(options: &JsValue, output_dir: &str) -> Result<String, JsOffloadError> {
    if !options.is_undefined() && !options.is_null() {
        let cwd = js_sys::Reflect::get(options, &key("cwd")).unwrap_or(JsValue::UNDEFINED);
        if !cwd.is_undefined() {
            return string_arg(&cwd, |kind| {
                OffloadError::InvalidArgument(format!("options.cwd must be a string, got {kind}"))
            });
        }
    }
    if output_dir.starts_with('/') {
        return Ok("/".into());
    }
    let process =
        js_sys::Reflect::get(&js_sys::global(), &key("process")).unwrap_or(JsValue::UNDEFINED);
    let cwd = if process.is_object() {
        js_sys::Reflect::get(&process, &key("cwd")).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    };
    let Some(cwd) = cwd.dyn_ref::<js_sys::Function>() else {
        return Ok("/".into());
    };
    match cwd.call0(&process) {
        Ok(dir) => dir.as_string().ok_or_else(|| {
            OffloadError::InvalidArgument("process.cwd() did not return a string".into()).into()
        }),
        Err(thrown) => Err(JsOffloadError::with_cause(
            OffloadError::InvalidArgument(format!(
                "cannot read the working directory: {}",
                message_of(&thrown)
            )),
            Some(thrown),
        )),
    }
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

/// An options argument: an object, or absent.
pub(crate) fn options_arg(options: &JsValue) -> Result<(), JsOffloadError> {
    if options.is_undefined() || options.is_null() || options.is_object() {
        Ok(())
    } else {
        Err(OffloadError::InvalidArgument(format!(
            "options must be an object when given, got {}",
            kind_of(options)
        ))
        .into())
    }
}

/// A count: `default` when `undefined`, else a non-negative integer; one beyond
/// `usize` (wasm32) means "no limit" and is `usize::MAX` (options: thresholds, limits).
pub(crate) fn count_arg(
    value: &JsValue,
    name: &str,
    default: usize,
) -> Result<usize, JsOffloadError> {
    // Saturating, not `as`: that would wrap 2^32 + 1 round to 1.
    Ok(u64_arg(value, name)?.map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// A position or a count of a page (a line, a part, an offset, matches, context rows):
/// `default` when `undefined`, else a non-negative integer of at most
/// [`MAX_COUNT`](tool_offload_core::MAX_COUNT), the same range on every host;
/// `INVALID_ARGUMENT` beyond it.
pub(crate) fn page_arg(
    value: &JsValue,
    name: &str,
    default: usize,
) -> Result<usize, JsOffloadError> {
    match u64_arg(value, name)? {
        None => Ok(default),
        Some(n) => tool_offload_core::count_in_range(n as f64).map_err(|_| {
            OffloadError::InvalidArgument(format!(
                "{name} must be at most {}, got {n}",
                tool_offload_core::MAX_COUNT
            ))
            .into()
        }),
    }
}

/// An optional non-negative safe integer (`undefined`: `None`), as a `u64`: byte
/// counts and milliseconds may pass 2^32.
pub(crate) fn u64_arg(value: &JsValue, name: &str) -> Result<Option<u64>, JsOffloadError> {
    if value.is_undefined() {
        return Ok(None);
    }
    match value.as_f64().and_then(safe_count) {
        Some(n) => Ok(Some(n)),
        None => Err(OffloadError::InvalidArgument(format!(
            "{name} must be a non-negative integer, got {}",
            message_of(value)
        ))
        .into()),
    }
}

/// `name` as a JS property key, made once per name: a new JS string per read of an
/// option or write of a result field costs a UTF-8 decode. Found again by the static's
/// address, without hashing (wasm-bindgen's `enable-interning` hashes every string that
/// crosses, with SipHash: 15 % of a small batch call).
pub(crate) fn key(name: &'static str) -> JsValue {
    thread_local! {
        static KEYS: std::cell::RefCell<Vec<((usize, usize), JsValue)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let at = (name.as_ptr() as usize, name.len());
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some((_, made)) = keys.iter().find(|(k, _)| *k == at) {
            return made.clone();
        }
        let made = JsValue::from_str(name);
        keys.push((at, made.clone()));
        made
    })
}

/// `object[key]`, `undefined` when `object` is not an object or reading throws.
pub(crate) fn field(object: &JsValue, name: &'static str) -> JsValue {
    if object.is_object() {
        Reflect::get(object, &key(name)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// A count as a JS number.
pub(crate) fn number(n: usize) -> JsValue {
    JsValue::from_f64(n as f64)
}

/// An optional boolean (`undefined`: `None`), else `INVALID_ARGUMENT` naming it.
pub(crate) fn bool_arg(value: &JsValue, name: &str) -> Result<Option<bool>, JsOffloadError> {
    if value.is_undefined() {
        return Ok(None);
    }
    value.as_bool().map(Some).ok_or_else(|| {
        OffloadError::InvalidArgument(format!(
            "{name} must be a boolean, got {}",
            message_of(value)
        ))
        .into()
    })
}

/// Rust strings as a JS array of strings.
pub(crate) fn strings(items: &[String]) -> Array {
    items.iter().map(|s| JsValue::from_str(s)).collect()
}

/// `object[key]` as a string when given (not `undefined` or `null`), named `name` in the
/// error: `INVALID_ARGUMENT` for anything else.
pub(crate) fn optional_string(
    object: &JsValue,
    key: &'static str,
    name: &str,
) -> Result<Option<String>, JsOffloadError> {
    let value = field(object, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    string_arg(&value, |kind| {
        OffloadError::InvalidArgument(format!("{name} must be a string when given, got {kind}"))
    })
    .map(Some)
}
