//! Arguments from JavaScript: strings, ids, counts, booleans and options, each checked
//! and named in the `INVALID_ARGUMENT`/`INVALID_ID` error when it is wrong.

use tool_offload_core::materialize::{compile_pattern, Pattern};
use tool_offload_core::path::LONE_SURROGATE;
use tool_offload_core::{safe_count, OffloadError};
use wasm_bindgen::prelude::*;

use crate::error::{message_of, JsOffloadError};
use crate::keys::{field, key};
use crate::view::has_lone_surrogate;

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

/// The working directory `dir` resolves against (core's
/// [`working_dir`](tool_offload_core::options::working_dir) over `options.cwd`).
pub(crate) fn working_dir(options: &JsValue, dir: &str) -> Result<String, JsOffloadError> {
    let cwd = crate::given::value(&field(options, "cwd"));
    let options = tool_offload_core::options::Given::Object(vec![("cwd".into(), cwd)]);
    tool_offload_core::options::working_dir(&options, dir, process_cwd)
}

/// Node's `process.cwd()`; `None` where there is no process (browsers). One that throws
/// (a deleted directory) is an error, never a silent fallback that would put files
/// elsewhere.
pub(crate) fn process_cwd() -> Result<Option<String>, JsOffloadError> {
    let process =
        js_sys::Reflect::get(&js_sys::global(), &key("process")).unwrap_or(JsValue::UNDEFINED);
    let cwd = if process.is_object() {
        js_sys::Reflect::get(&process, &key("cwd")).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    };
    let Some(cwd) = cwd.dyn_ref::<js_sys::Function>() else {
        return Ok(None);
    };
    match cwd.call0(&process) {
        Ok(dir) => dir.as_string().map(Some).ok_or_else(|| {
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

/// A `grep` call's pattern and `options` (`context` default 2, `maxMatches` default
/// 50, `ignoreCase`), checked: the compiled pattern, context and match limit.
pub(crate) fn grep_args(
    pattern: &JsValue,
    options: &JsValue,
) -> Result<(Pattern, usize, usize), JsOffloadError> {
    let args = tool_offload_core::options::grep_args(&crate::given::options(options))?;
    Ok((
        compile(pattern, args.ignore_case)?,
        args.context,
        args.max_matches,
    ))
}

/// `pattern` compiled by core's engine, or `INVALID_PATTERN` with the reason.
pub(crate) fn compile(pattern: &JsValue, ignore_case: bool) -> Result<Pattern, JsOffloadError> {
    let source = string_arg(pattern, |kind| {
        OffloadError::InvalidArgument(format!("pattern must be a string, got {kind}"))
    })?;
    Ok(compile_pattern(&source, ignore_case)?)
}
