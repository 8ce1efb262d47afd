//! One call's IO for a materializer or a workspace: the JS writer, and the reader when
//! there is one, as the single writer-and-reader core takes.

use js_sys::JsString;
use tool_offload_core::{
    CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError, OffloadError,
};
use wasm_bindgen::{JsCast, JsValue};

use crate::abort::Abort;
use crate::error::JsOffloadError;
use crate::reader::JsFileReader;
use crate::writer::JsFileWriter;

/// A writer and an optional reader. Without a reader every file reads as missing, so
/// the materializer cannot see an artifact it would replace (and says so in its docs).
pub(crate) struct ReadWrite {
    pub(crate) writer: JsFileWriter,
    pub(crate) reader: Option<JsFileReader>,
    /// The JS string a Rust text was read from, written instead of a new copy of the
    /// text when core writes exactly that text (see [`ReadWrite::writing`]).
    pub(crate) original: Option<Original>,
}

/// A JS string and the Rust text (same characters, lone surrogates as U+FFFD) made
/// from it, known by its address: core writes the very `&str` it was given.
pub(crate) struct Original {
    pub(crate) js: JsString,
    pub(crate) text: (*const u8, usize),
}

impl Original {
    /// `js` as the source of `text`.
    pub(crate) fn of(js: JsString, text: &str) -> Self {
        Original {
            js,
            text: (text.as_ptr(), text.len()),
        }
    }
}

impl ReadWrite {
    /// Fresh copies of `writer` and `reader` (a materializer's or a workspace's), every
    /// wait raced against `abort`'s signal.
    pub(crate) fn over(
        writer: &JsFileWriter,
        reader: Option<&JsFileReader>,
        abort: Option<&Abort>,
    ) -> Self {
        ReadWrite {
            writer: writer.fresh().aborting_with(abort),
            reader: reader.map(|r| r.fresh().aborting_with(abort)),
            original: None,
        }
    }

    /// A writer's IO, reading through the same object (`gcDirectory`,
    /// `sweepStaleTempFiles`: a `FileWriter & FileReader`).
    pub(crate) fn of_writer(writer: JsFileWriter) -> Self {
        ReadWrite {
            reader: JsFileReader::from_object(writer.target()),
            writer,
            original: None,
        }
    }

    /// This IO with every wait raced against `abort`'s signal.
    pub(crate) fn aborting_with(self, abort: Option<&Abort>) -> Self {
        ReadWrite {
            writer: self.writer.aborting_with(abort),
            reader: self.reader.map(|r| r.aborting_with(abort)),
            original: self.original,
        }
    }

    /// This IO writing `original`'s JS string whenever core writes its text: a
    /// megabyte output is not decoded back into a new JS string, and Node's `fs`
    /// encodes the original (a lone surrogate as U+FFFD, the text's very bytes).
    pub(crate) fn writing(mut self, original: Original) -> Self {
        self.original = Some(original);
        self
    }

    /// `data` as a JS string: the original when `data` is its text.
    fn js_data(&self, data: &str) -> JsValue {
        match &self.original {
            Some(o) if o.text == (data.as_ptr(), data.len()) => o.js.clone().into(),
            _ => data.into(),
        }
    }

    /// `error` with what the writer or reader threw as its `cause`.
    pub(crate) fn error(&self, error: OffloadError) -> JsOffloadError {
        let cause: Option<JsValue> = self
            .writer
            .take_failure()
            .or_else(|| self.reader.as_ref().and_then(JsFileReader::take_failure));
        JsOffloadError::with_cause(error, cause)
    }
}

impl FileWriter for ReadWrite {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        FileWriter::<str>::mkdir(&self.writer, dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        let data: JsString = self.js_data(data).unchecked_into();
        FileWriter::<JsString>::write_file(&self.writer, path, &data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.writer
            .create_with(path, &self.js_data(data), self.reader.as_ref())
            .await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        // Handed to the writer as a Uint8Array of its own (a copy out of wasm memory).
        let bytes = js_sys::Uint8Array::from(data);
        self.writer
            .create_with(path, &bytes.into(), self.reader.as_ref())
            .await
    }
}

impl FileReader for ReadWrite {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.reader.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.reader.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.reader.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.reader.read_range(path, start, end).await
    }
}

impl FileLifecycle for ReadWrite {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        self.writer.stat(path).await
    }
    async fn remove(&self, path: &str) -> Result<(), IoError> {
        self.writer.remove(path).await
    }
}
