//! Reading a `Materializer`'s options and method arguments from JS.

use tool_offload_core::materialize::Materializer as CoreMaterializer;
use tool_offload_core::options::{materializer_options, working_dir};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::string_arg;
use crate::error::JsOffloadError;
use crate::host::JsHost;
use crate::view::has_lone_surrogate;

/// Everything a `Materializer` holds: shared (never borrowed mutably) by every pending
/// call, so calls may run concurrently.
pub(crate) struct Inner {
    pub(crate) core: CoreMaterializer,
    /// The IO, `options.logger` (called with each outcome) and `options.countTokens`
    /// (tokens for `maxInlineTokens`, the context window and `budget`).
    pub(crate) host: JsHost,
}

pub(crate) fn parse_options(options: &JsValue) -> Result<Inner, JsOffloadError> {
    let given = crate::given::options(options);
    let core = materializer_options(&given, |dir| {
        working_dir(&given, dir, crate::args::process_cwd)
    })?;
    Ok(Inner {
        core: CoreMaterializer::new(core)?,
        host: JsHost::of(options)?,
    })
}

/// A ref argument: a string, else `INVALID_ARGUMENT`. One holding a lone UTF-16
/// surrogate names no artifact (`REF_NOT_FOUND`): as a Rust String it would hold U+FFFD
/// and could name another id's artifact.
pub(crate) fn ref_arg(reference: &JsValue) -> Result<String, JsOffloadError> {
    let text = string_arg(reference, "ref")?;
    if has_lone_surrogate(reference) {
        return Err(OffloadError::RefNotFound(text).into());
    }
    Ok(text)
}
