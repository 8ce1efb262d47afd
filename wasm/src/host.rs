//! What a `Materializer` and a `Workspace` take alike from their JS options: the IO
//! (`writer`, `reader`) and the host's callbacks (`logger`, `countTokens`).

use js_sys::{Function, Object, Promise};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::abort::Abort;
use crate::args::kind_of;
use crate::count_tokens::JsCounter;
use crate::error::JsOffloadError;
use crate::keys::field;
use crate::read_write::ReadWrite;
use crate::reader::JsFileReader;
use crate::writer::JsFileWriter;

/// The IO and callbacks of one product, shared by every pending call.
pub(crate) struct JsHost {
    pub(crate) writer: JsFileWriter,
    /// `options.reader`, else the writer when it can read; `None` when neither can.
    pub(crate) reader: Option<JsFileReader>,
    /// `options.logger`: called with each outcome.
    pub(crate) logger: Option<Function>,
    /// `options.countTokens`: tokens where a limit or a budget counts them.
    pub(crate) count_tokens: Option<Function>,
}

impl JsHost {
    /// `options.writer`, `options.reader`, `options.logger` and `options.countTokens`.
    pub(crate) fn of(options: &JsValue) -> Result<Self, JsOffloadError> {
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
        Ok(JsHost {
            writer,
            reader,
            logger: function_option(options, "logger")?,
            count_tokens: function_option(options, "countTokens")?,
        })
    }

    /// Fresh copies of the writer and reader, every wait raced against `abort`'s signal:
    /// each call keeps its own failure, so concurrent calls never take each other's
    /// `cause`.
    pub(crate) fn io(&self, abort: Option<&Abort>) -> ReadWrite {
        ReadWrite::over(&self.writer, self.reader.as_ref(), abort)
    }

    /// [`JsHost::io`] for a call that reads, or `INVALID_ARGUMENT` with `refusal` when
    /// nothing can read.
    pub(crate) fn reading(&self, refusal: &str) -> Result<ReadWrite, JsOffloadError> {
        match self.reader {
            Some(_) => Ok(self.io(None)),
            None => Err(OffloadError::InvalidArgument(refusal.into()).into()),
        }
    }

    /// The token counter for one call, when `options.countTokens` was given.
    pub(crate) fn counter(&self) -> Option<JsCounter<'_>> {
        self.count_tokens.as_ref().map(JsCounter::new)
    }
}

/// `options[key]` as a function, if given.
pub(crate) fn function_option(
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

/// Call `logger(entry)`, ignoring what it throws and a promise it rejects: logging never
/// fails a call.
pub(crate) fn call_logger(logger: &Function, entry: &Object) {
    if let Ok(returned) = logger.call1(&JsValue::UNDEFINED, entry) {
        if let Some(promise) = returned.dyn_ref::<Promise>() {
            IGNORE.with(|ignore| {
                let _ = promise.catch(ignore);
            });
        }
    }
}

thread_local! {
    /// A handler that does nothing, for a logger's rejected promise.
    static IGNORE: Closure<dyn FnMut(JsValue)> = Closure::new(|_: JsValue| {});
}
