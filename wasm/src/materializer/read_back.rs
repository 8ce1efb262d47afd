//! `read`, `tail` and `grep` for JS: core's pages, with JavaScript `RegExp`s for grep.

use js_sys::{Array, Function, Reflect};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::convert::string_arg;
use crate::error::{message_of, JsOffloadError};
use crate::reader::JsFileReader;

/// A read-back, its arguments validated.
pub(crate) enum ReadBack {
    Read {
        offset: usize,
        part: usize,
        limit: usize,
    },
    Tail {
        lines: usize,
    },
    Grep {
        regexp: js_sys::RegExp,
        context: usize,
        max_matches: usize,
    },
}

pub(crate) async fn read_back(
    inner: &Inner,
    reader: &JsFileReader,
    reference: &str,
    op: ReadBack,
) -> Result<String, OffloadError> {
    let core = &inner.core;
    match op {
        ReadBack::Read {
            offset,
            part,
            limit,
        } => core.read_from(reference, offset, part, limit, reader).await,
        ReadBack::Tail { lines } => core.tail(reference, lines, reader).await,
        ReadBack::Grep {
            regexp,
            context,
            max_matches,
        } => {
            // No `g` or `y` flag: `test` ignores `lastIndex`, so rows are independent.
            let matches = |row: &str| regexp.test(row);
            core.grep(reference, matches, context, max_matches, reader)
                .await
        }
    }
}

/// `new RegExp(pattern, ignoreCase ? "i" : "")`, or `INVALID_PATTERN` with the
/// engine's `SyntaxError` as `cause`.
pub(crate) fn compile(
    pattern: &JsValue,
    ignore_case: bool,
) -> Result<js_sys::RegExp, JsOffloadError> {
    let source = string_arg(pattern, |kind| {
        OffloadError::InvalidArgument(format!("pattern must be a string, got {kind}"))
    })?;
    regexp(&source, ignore_case).map_err(|(error, cause)| JsOffloadError::with_cause(error, cause))
}

/// `new RegExp(source, flags)` by the engine (through `Reflect.construct`, so a bad
/// pattern cannot throw through wasm); the error and the thrown `SyntaxError`.
pub(crate) fn regexp(
    source: &str,
    ignore_case: bool,
) -> Result<js_sys::RegExp, (OffloadError, Option<JsValue>)> {
    let constructor = Reflect::get(&js_sys::global(), &"RegExp".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            (
                OffloadError::InvalidArgument("RegExp is not available".into()),
                None,
            )
        })?;
    let flags = if ignore_case { "i" } else { "" };
    let args = Array::of2(&JsValue::from_str(source), &JsValue::from_str(flags));
    Reflect::construct(&constructor, &args)
        .map(JsCast::unchecked_into)
        .map_err(|thrown| {
            let error = OffloadError::InvalidPattern {
                pattern: source.into(),
                reason: message_of(&thrown),
            };
            (error, Some(thrown))
        })
}
