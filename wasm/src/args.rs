//! Arguments from JavaScript: strings, ids, counts, booleans and options, each checked
//! and named in the `INVALID_ARGUMENT`/`INVALID_ID` error when it is wrong.

use tool_offload_core::materialize::{compile_pattern, Pattern};
use tool_offload_core::options::{self, Given};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::error::{message_of, JsOffloadError};
use crate::keys::{field, key};

/// One argument as core reads it: a scalar as itself, an object as its `typeof` and
/// `String(value)` (what a message naming a wrong argument shows).
pub(crate) fn arg(value: &JsValue) -> Given {
    crate::given::scalar(value)
}

/// A string argument named `name` (`toolName must be a string, got number`).
pub(crate) fn string_arg(value: &JsValue, name: &str) -> Result<String, JsOffloadError> {
    Ok(options::string(&arg(value), name)?)
}

/// An id argument (`sessionId`, `conversationId`, `toolCallId`…): core's
/// [`id`](options::id) (`INVALID_ID`: missing, not a string, a lone surrogate). Whether
/// it can name a file is core's check.
pub(crate) fn id_arg(value: &JsValue, field: &str) -> Result<String, JsOffloadError> {
    Ok(options::id(&arg(value), field)?)
}

/// A string argument that names a file (`toolUseId`): `INVALID_ID` for a lone
/// surrogate, which as a Rust `String` (U+FFFD) could name another's; `INVALID_ARGUMENT`
/// (`<field> must be a string<when>, got …`) for anything else but a string.
pub(crate) fn id_string(
    value: &JsValue,
    field: &str,
    when: &str,
) -> Result<String, JsOffloadError> {
    match arg(value) {
        lone @ Given::Text {
            well_formed: false, ..
        } => Ok(options::id(&lone, field)?),
        given => Ok(options::string(&given, &format!("{field}{when}"))?),
    }
}

/// What `value` is, for messages: its `typeof`, or `null` (as core's
/// [`Given::type_of`], without copying a string in).
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

/// `INVALID_ARGUMENT` (`"<expects>, got <kind>"`) unless `input` is an object.
pub(crate) fn expect_object(input: &JsValue, expects: &str) -> Result<(), JsOffloadError> {
    if input.is_object() {
        return Ok(());
    }
    let kind = kind_of(input);
    Err(OffloadError::InvalidArgument(format!("{expects}, got {kind}")).into())
}

/// An options argument: an object, or absent.
pub(crate) fn options_arg(options: &JsValue) -> Result<(), JsOffloadError> {
    Ok(options::call_options(&arg(options))?)
}

/// A count: `default` when `undefined`, else a non-negative integer; one beyond
/// `usize` (wasm32) means "no limit" (core's [`count`](options::count)).
pub(crate) fn count_arg(
    value: &JsValue,
    name: &str,
    default: usize,
) -> Result<usize, JsOffloadError> {
    Ok(options::count(&arg(value), name, default)?)
}

/// A position or a count of a page: core's [`page`](options::page).
pub(crate) fn page_arg(
    value: &JsValue,
    name: &str,
    default: usize,
) -> Result<usize, JsOffloadError> {
    Ok(options::page(&arg(value), name, default)?)
}

/// `object[key]` as a string when given (not `undefined` or `null`), named `name` in the
/// error: core's [`optional_string`](options::optional_string).
pub(crate) fn optional_string(
    object: &JsValue,
    key: &'static str,
    name: &str,
) -> Result<Option<String>, JsOffloadError> {
    Ok(options::optional_string(&arg(&field(object, key)), name)?)
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
    let source = string_arg(pattern, "pattern")?;
    Ok(compile_pattern(&source, ignore_case)?)
}
