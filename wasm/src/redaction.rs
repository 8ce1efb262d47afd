//! `redact` of every writer-facing API (Materializer, Workspace, direct and batch offload,
//! the registry's offload): `true`, or `{ patterns?, replace? }` with the user's patterns
//! beside the built-in rules; read from JS once, here, and shown back.

use js_sys::{Array, Object};
use tool_offload_core::redact::{RedactPattern, Redaction};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::error::{set, JsOffloadError};
use crate::keys::field;

/// `value` (named `name`) as a redaction: `undefined`, `null` or `false` is off, `true`
/// the built-in rules, `{ patterns?, replace? }` the built-in rules and the user's.
/// A pattern is a string, a `RegExp` (its source; its `i` flag folds case) or
/// `{ pattern, kind?, ignoreCase? }`.
pub(crate) fn redaction_arg(value: &JsValue, name: &str) -> Result<Redaction, JsOffloadError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Redaction::off());
    }
    if let Some(on) = value.as_bool() {
        return Ok(on.into());
    }
    let bad = |what: String, got: &JsValue| -> JsOffloadError {
        OffloadError::InvalidArgument(format!("{what}, got {}", kind_of(got))).into()
    };
    let replace = field(value, "replace");
    let list = field(value, "patterns");
    let shaped = value.is_object()
        && !Array::is_array(value)
        && (replace.is_undefined() || replace.is_string())
        && (list.is_undefined() || Array::is_array(&list));
    if !shaped {
        return Err(bad(
            format!("{name} must be a boolean or {{ patterns?: [], replace?: string }}"),
            value,
        ));
    }
    let mut patterns = Vec::new();
    if !list.is_undefined() {
        for (i, entry) in list.unchecked_ref::<Array>().iter().enumerate() {
            let pattern = pattern_arg(&entry).ok_or_else(|| {
                let what = "must be a string, a RegExp or { pattern, kind?, ignoreCase? }";
                bad(format!("{name}.patterns[{i}] {what}"), &entry)
            })?;
            patterns.push(pattern);
        }
    }
    Ok(Redaction::with_patterns(patterns, replace.as_string())?)
}

/// One entry of `patterns`; `None` when it is none of the shapes.
fn pattern_arg(entry: &JsValue) -> Option<RedactPattern> {
    if let Some(pattern) = entry.as_string() {
        return Some(RedactPattern::new(pattern));
    }
    if !entry.is_object() {
        return None;
    }
    // `{ pattern, … }`, else a RegExp: its source and flags (read through its getters).
    let given = field(entry, "pattern");
    let described = !given.is_undefined();
    let source = if described { given } else { entry.clone() };
    let mut out = match source.as_string() {
        Some(text) => RedactPattern::new(text),
        None => RedactPattern {
            ignore_case: field(&source, "flags").as_string()?.contains('i'),
            ..RedactPattern::new(field(&source, "source").as_string()?)
        },
    };
    if described {
        let (kind, fold) = (field(entry, "kind"), field(entry, "ignoreCase"));
        if !kind.is_undefined() {
            out.kind = kind.as_string()?;
        }
        if !fold.is_undefined() {
            out.ignore_case |= fold.as_bool()?;
        }
    }
    Some(out)
}

/// A redaction as options show it: `true`, or `{ patterns, replace? }` when the user
/// gave patterns or a replacement; `None` when off.
pub(crate) fn redaction_value(redaction: &Redaction) -> Option<JsValue> {
    if !redaction.is_on() {
        return None;
    }
    if redaction.patterns().next().is_none() && redaction.replacement().is_none() {
        return Some(JsValue::TRUE);
    }
    let patterns = Array::new();
    for p in redaction.patterns() {
        let o = Object::new();
        set(&o, "pattern", &JsValue::from_str(&p.pattern));
        set(&o, "kind", &JsValue::from_str(&p.kind));
        set(&o, "ignoreCase", &JsValue::from_bool(p.ignore_case));
        patterns.push(&o);
    }
    let js = Object::new();
    set(&js, "patterns", &patterns);
    if let Some(replace) = redaction.replacement() {
        set(&js, "replace", &JsValue::from_str(replace));
    }
    Some(js.into())
}
