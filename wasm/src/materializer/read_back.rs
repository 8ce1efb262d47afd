//! `read`, `tail` and `grep` for JS: core's pages, and core's pattern engine for grep.

use tool_offload_core::materialize::{compile_pattern, Pattern, Within, DEFAULT_LINES};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::args::{optional_string, options_arg, page_arg, string_arg};
use crate::error::JsOffloadError;
use crate::keys::field;
use crate::read_write::ReadWrite;

/// A read-back, its arguments validated.
pub(crate) enum ReadBack {
    Read {
        path: Option<String>,
        offset: usize,
        within: Within,
        limit: usize,
    },
    Tail {
        lines: usize,
    },
    Grep {
        pattern: Pattern,
        context: usize,
        max_matches: usize,
    },
    /// Every artifact of the conversation: the reference is not used.
    GrepAll {
        pattern: Pattern,
        context: usize,
        max_matches: usize,
    },
}

impl ReadBack {
    /// `read`'s options: `offset`, `part` or `char` (which wins), `limit`, `path`.
    pub(crate) fn read(options: &JsValue) -> Result<ReadBack, JsOffloadError> {
        options_arg(options)?;
        let offset = page_arg(&field(options, "offset"), "options.offset", 0)?;
        let within = match field(options, "char") {
            at if at.is_undefined() => {
                Within::Part(page_arg(&field(options, "part"), "options.part", 1)?)
            }
            at => Within::Char(page_arg(&at, "options.char", 0)?),
        };
        Ok(ReadBack::Read {
            path: optional_string(options, "path", "options.path")?,
            offset,
            within,
            limit: page_arg(&field(options, "limit"), "options.limit", DEFAULT_LINES)?,
        })
    }
}

pub(crate) async fn read_back(
    inner: &Inner,
    reader: &ReadWrite,
    reference: &str,
    op: ReadBack,
) -> Result<String, OffloadError> {
    let core = &inner.core;
    match op {
        ReadBack::Read {
            path: Some(path),
            offset,
            within,
            limit,
        } => {
            core.read_json(reference, &path, offset, within, limit, reader)
                .await
        }
        ReadBack::Read {
            path: None,
            offset,
            within,
            limit,
        } => {
            core.read_from(reference, offset, within, limit, reader)
                .await
        }
        ReadBack::Tail { lines } => core.tail(reference, lines, reader).await,
        ReadBack::Grep {
            pattern,
            context,
            max_matches,
        } => {
            core.grep(reference, &pattern, context, max_matches, reader)
                .await
        }
        ReadBack::GrepAll {
            pattern,
            context,
            max_matches,
        } => core.grep_all(&pattern, context, max_matches, reader).await,
    }
}

/// `pattern` compiled by core's engine, or `INVALID_PATTERN` with the reason.
/// A `grep` call's pattern and `options` (`context` default 2, `maxMatches` default
/// 50, `ignoreCase`), checked: the compiled pattern, context and match limit.
pub(crate) fn grep_args(
    pattern: &JsValue,
    options: &JsValue,
) -> Result<(Pattern, usize, usize), JsOffloadError> {
    use crate::args::{bool_arg, options_arg, page_arg};
    use crate::keys::field;
    use tool_offload_core::materialize::{DEFAULT_CONTEXT, DEFAULT_MAX_MATCHES};
    options_arg(options)?;
    let context = page_arg(
        &field(options, "context"),
        "options.context",
        DEFAULT_CONTEXT,
    )?;
    let max_matches = page_arg(
        &field(options, "maxMatches"),
        "options.maxMatches",
        DEFAULT_MAX_MATCHES,
    )?;
    let ignore_case = bool_arg(&field(options, "ignoreCase"), "options.ignoreCase")?;
    Ok((
        compile(pattern, ignore_case == Some(true))?,
        context,
        max_matches,
    ))
}

pub(crate) fn compile(pattern: &JsValue, ignore_case: bool) -> Result<Pattern, JsOffloadError> {
    let source = string_arg(pattern, |kind| {
        OffloadError::InvalidArgument(format!("pattern must be a string, got {kind}"))
    })?;
    Ok(compile_pattern(&source, ignore_case)?)
}
