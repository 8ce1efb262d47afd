//! Reading a `Materializer`'s options and method arguments from JS.

use crate::abort::Abort;
use crate::read_write::ReadWrite;
use js_sys::Function;
use tool_offload_core::materialize::Materializer as CoreMaterializer;
use tool_offload_core::options::{materializer_options, working_dir};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::{kind_of, string_arg};
use crate::error::JsOffloadError;
use crate::keys::field;
use crate::reader::JsFileReader;
use crate::view::has_lone_surrogate;
use crate::writer::JsFileWriter;

/// Everything a `Materializer` holds: shared (never borrowed mutably) by every pending
/// call, so calls may run concurrently.
pub(crate) struct Inner {
    pub(crate) core: CoreMaterializer,
    pub(crate) writer: JsFileWriter,
    /// `options.reader`, else the writer when it can read; `None` when neither can.
    pub(crate) reader: Option<JsFileReader>,
    pub(crate) logger: Option<Function>,
    /// `options.countTokens`: tokens for `maxInlineTokens`, the context window and
    /// `budget`.
    pub(crate) count_tokens: Option<Function>,
}

impl Inner {
    /// The token counter for one call, when `options.countTokens` was given.
    pub(crate) fn counter(&self) -> Option<crate::count_tokens::JsCounter<'_>> {
        self.count_tokens
            .as_ref()
            .map(crate::count_tokens::JsCounter::new)
    }
}

pub(crate) fn parse_options(options: &JsValue) -> Result<Inner, JsOffloadError> {
    let given = crate::given::options(options);
    let core = materializer_options(&given, |dir| {
        working_dir(&given, dir, crate::args::process_cwd)
    })?;
    let (writer, reader) = io_options(options)?;
    Ok(Inner {
        core: CoreMaterializer::new(core)?,
        writer,
        reader,
        logger: logger_arg(options, "logger")?,
        count_tokens: logger_arg(options, "countTokens")?,
    })
}

/// `options.writer`, and `options.reader` (else the writer when it can read).
pub(crate) fn io_options(
    options: &JsValue,
) -> Result<(JsFileWriter, Option<JsFileReader>), JsOffloadError> {
    let writer = JsFileWriter::new(&field(options, "writer")).map_err(|e| match e {
        OffloadError::InvalidArgument(message) => {
            OffloadError::InvalidArgument(format!("options.{message}"))
        }
        other => other,
    })?;
    let reader = field(options, "reader");
    let reader = if reader.is_undefined() || reader.is_null() {
        JsFileReader::from_object(writer.target())
    } else {
        Some(JsFileReader::new(&reader, "options.reader")?)
    };
    Ok((writer, reader))
}

/// `options[key]` as a function, if given.
pub(crate) fn logger_arg(
    options: &JsValue,
    key: &'static str,
) -> Result<Option<Function>, JsOffloadError> {
    let value = field(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_into::<Function>().map(Some).map_err(|value| {
        OffloadError::InvalidArgument(format!(
            "options.{key} must be a function, got {}",
            kind_of(&value)
        ))
        .into()
    })
}

/// A ref argument: a string, else `INVALID_ARGUMENT`. One holding a lone UTF-16
/// surrogate names no artifact (`REF_NOT_FOUND`): as a Rust String it would hold U+FFFD
/// and could name another id's artifact.
pub(crate) fn ref_arg(reference: &JsValue) -> Result<String, JsOffloadError> {
    let text = string_arg(reference, |kind| {
        OffloadError::InvalidArgument(format!("ref must be a string, got {kind}"))
    })?;
    if has_lone_surrogate(reference) {
        return Err(OffloadError::RefNotFound(text).into());
    }
    Ok(text)
}

impl Inner {
    /// Fresh copies of the materializer's writer and reader: each call keeps its own
    /// failure, so concurrent calls never take each other's `cause`.
    pub(crate) fn io(&self) -> ReadWrite {
        self.io_aborting(None)
    }

    /// [`Inner::io`], every wait raced against `abort`'s signal.
    pub(crate) fn io_aborting(&self, abort: Option<&Abort>) -> ReadWrite {
        ReadWrite::over(&self.writer, self.reader.as_ref(), abort)
    }
}
