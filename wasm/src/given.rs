//! JavaScript options objects as core's [`Given`] values, which core's one options
//! reader checks: only the keys core reads are converted (the host's own — writer,
//! logger, callbacks — stay JS values the wasm host reads itself).

use js_sys::{Array, JsString, Object, Reflect, RegExp};
use tool_offload_core::option_keys::HOST_KEYS;
use tool_offload_core::options::Given;
use wasm_bindgen::prelude::*;

use crate::error::{string_of, JsOffloadError};
use crate::view::has_lone_surrogate;

/// Options nest a few levels (`tools["x"].materialize`, `redact.patterns[0].pattern`);
/// deeper (or cyclic) values are not options.
const MAX_DEPTH: usize = 8;

/// An options object (or whatever was passed in its place) as core reads it.
pub(crate) fn options(value: &JsValue) -> Given {
    convert(value, 0, HOST_KEYS)
}

/// Any option value (`redact` of a direct offload, …).
pub(crate) fn value(value: &JsValue) -> Given {
    convert(value, 1, &[])
}

/// One argument: a scalar as itself, anything else as [`other`] (its `typeof` and
/// `String(value)`, as a message naming it shows it), not converted.
pub(crate) fn scalar(value: &JsValue) -> Given {
    convert(value, MAX_DEPTH, &[])
}

fn convert(value: &JsValue, depth: usize, host_keys: &[&str]) -> Given {
    if value.is_undefined() {
        return Given::Undefined;
    }
    if value.is_null() {
        return Given::Null;
    }
    if let Some(b) = value.as_bool() {
        return Given::Bool(b);
    }
    if let Some(n) = value.as_f64() {
        return Given::Number(n);
    }
    if let Some(s) = value.dyn_ref::<JsString>() {
        return Given::Text {
            text: String::from(s),
            well_formed: !has_lone_surrogate(value),
        };
    }
    if !value.is_object() || depth >= MAX_DEPTH {
        return other(value);
    }
    let get = |key: &JsValue| Reflect::get(value, key).unwrap_or(JsValue::UNDEFINED);
    if let Some(list) = value.dyn_ref::<Array>() {
        return Given::List(list.iter().map(|v| convert(&v, depth + 1, &[])).collect());
    }
    if value.has_type::<RegExp>() {
        // Its source and flags are getters on the prototype, not own keys.
        let field = |name: &str| (name.to_owned(), convert(&get(&name.into()), depth + 1, &[]));
        return Given::Object(vec![field("source"), field("flags")]);
    }
    let keys = Object::keys(value.unchecked_ref::<Object>());
    Given::Object(
        keys.iter()
            .map(|key| {
                let name = key.as_string().unwrap_or_default();
                let field = get(&key);
                let given = if host_keys.contains(&name.as_str()) {
                    Given::Other {
                        type_of: field.js_typeof().as_string().unwrap_or_default(),
                        shown: String::new(),
                    }
                } else {
                    convert(&field, depth + 1, &[])
                };
                (name, given)
            })
            .collect(),
    )
}

/// A value JSON has no name for (a function, a symbol), or one not converted.
fn other(value: &JsValue) -> Given {
    Given::Other {
        type_of: value.js_typeof().as_string().unwrap_or_default(),
        shown: String::from(string_of(value)),
    }
}

/// `redact` (named `name`) of any writer-facing call, read by core.
pub(crate) fn redaction_arg(
    redact: &JsValue,
    name: &str,
) -> Result<tool_offload_core::redact::Redaction, JsOffloadError> {
    Ok(tool_offload_core::options::redaction(&value(redact), name)?)
}
