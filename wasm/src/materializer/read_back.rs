//! `read`, `tail` and `grep` for JS: core's pages, and core's pattern engine for grep.

use tool_offload_core::materialize::{compile_pattern, Pattern};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::convert::string_arg;
use crate::error::JsOffloadError;
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
        pattern: Pattern,
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
            pattern,
            context,
            max_matches,
        } => {
            core.grep(reference, &pattern, context, max_matches, reader)
                .await
        }
    }
}

/// `pattern` compiled by core's engine, or `INVALID_PATTERN` with the reason.
pub(crate) fn compile(pattern: &JsValue, ignore_case: bool) -> Result<Pattern, JsOffloadError> {
    let source = string_arg(pattern, |kind| {
        OffloadError::InvalidArgument(format!("pattern must be a string, got {kind}"))
    })?;
    Ok(compile_pattern(&source, ignore_case)?)
}
