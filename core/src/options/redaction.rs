//! `redact` of every writer-facing API (Materializer, Workspace, direct and batch
//! offload, the registry's offload): read and shown.

use super::given::Given;
use super::leaves::invalid;
use crate::error::OffloadError;
use crate::redact::{RedactPattern, Redaction};
use serde_json::{Map, Value};

/// `value` (named `name`) as a redaction: `undefined`, `null` or `false` is off, `true`
/// the built-in rules, `{ patterns?, replace? }` the built-in rules and the user's. A
/// pattern is a string, a regular expression (the host gives its `source` and `flags`;
/// the `i` flag folds case) or `{ pattern, kind?, ignoreCase? }`.
///
/// ```
/// use tool_offload_core::options::{redaction, Given};
/// assert!(redaction(&Given::Bool(true), "options.redact").unwrap().is_on());
/// let err = redaction(&Given::text("yes"), "options.redact").unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options.redact must be a boolean or { patterns?: [], replace?: string }, got string");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` for another shape or a pattern that does not compile.
pub fn redaction(value: &Given, name: &str) -> Result<Redaction, OffloadError> {
    if value.is_absent() {
        return Ok(Redaction::off());
    }
    if let Given::Bool(on) = value {
        return Ok((*on).into());
    }
    let bad = |what: String, got: &Given| invalid(format!("{what}, got {}", got.type_of()));
    let (replace, list) = (value.field("replace"), value.field("patterns"));
    let shaped = matches!(value, Given::Object(_))
        && (replace.is_undefined() || replace.as_str().is_some())
        && (list.is_undefined() || matches!(list, Given::List(_)));
    if !shaped {
        return Err(bad(
            format!("{name} must be a boolean or {{ patterns?: [], replace?: string }}"),
            value,
        ));
    }
    let mut patterns = Vec::new();
    if let Given::List(entries) = list {
        for (i, entry) in entries.iter().enumerate() {
            let pattern = pattern(entry).ok_or_else(|| {
                let what = "must be a string, a RegExp or { pattern, kind?, ignoreCase? }";
                bad(format!("{name}.patterns[{i}] {what}"), entry)
            })?;
            patterns.push(pattern);
        }
    }
    Redaction::with_patterns(patterns, replace.as_str().map(str::to_owned))
}

/// One entry of `patterns`; `None` when it is none of the shapes.
fn pattern(entry: &Given) -> Option<RedactPattern> {
    if let Some(pattern) = entry.as_str() {
        return Some(RedactPattern::new(pattern));
    }
    if !entry.is_object() {
        return None;
    }
    // `{ pattern, … }`, else a regular expression: its source and flags.
    let given = entry.field("pattern");
    let described = !given.is_undefined();
    let source = if described { given } else { entry };
    let mut out = match source.as_str() {
        Some(text) => RedactPattern::new(text),
        None => RedactPattern {
            ignore_case: source.field("flags").as_str()?.contains('i'),
            ..RedactPattern::new(source.field("source").as_str()?)
        },
    };
    if described {
        let (kind, fold) = (entry.field("kind"), entry.field("ignoreCase"));
        if !kind.is_undefined() {
            out.kind = kind.as_str()?.to_owned();
        }
        match fold {
            Given::Undefined => {}
            Given::Bool(fold) => out.ignore_case |= fold,
            _ => return None,
        }
    }
    Some(out)
}

/// A redaction as options show it: `true`, or `{ patterns, replace? }` when the user
/// gave patterns or a replacement; `None` when off.
pub fn redaction_shown(redaction: &Redaction) -> Option<Value> {
    if !redaction.is_on() {
        return None;
    }
    if redaction.patterns().next().is_none() && redaction.replacement().is_none() {
        return Some(Value::Bool(true));
    }
    // Built field by field: `json!` would link serde's serializer into the wasm.
    let patterns: Vec<Value> = redaction
        .patterns()
        .map(|p| {
            let mut shown = Map::new();
            shown.insert("pattern".into(), p.pattern.as_str().into());
            shown.insert("kind".into(), p.kind.as_str().into());
            shown.insert("ignoreCase".into(), p.ignore_case.into());
            shown.into()
        })
        .collect();
    let mut shown = Map::new();
    shown.insert("patterns".into(), patterns.into());
    if let Some(replace) = redaction.replacement() {
        shown.insert("replace".into(), replace.into());
    }
    Some(shown.into())
}
