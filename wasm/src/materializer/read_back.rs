//! `read`, `tail` and `grep` for JS: core's pages, and core's pattern engine for grep.

use tool_offload_core::materialize::{Pattern, Within};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::error::JsOffloadError;
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
        let args = tool_offload_core::options::read_args(&crate::given::options(options))?;
        Ok(ReadBack::Read {
            path: args.path,
            offset: args.offset,
            within: args.within,
            limit: args.limit,
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
