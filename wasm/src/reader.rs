//! Any JS object with `readFile(path)` (and `listDir(dir)`) as a core [`FileReader`].

use std::cell::RefCell;

use js_sys::{Array, Function, Promise};
use tool_offload_core::{FileReader, IoError, OffloadError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::convert::kind_of;
use crate::error::message_of;

pub(crate) struct JsFileReader {
    target: JsValue,
    read_file: Function,
    /// Optional: only reading a directory needs it, and its absence is reported then.
    list_dir: Option<Function>,
    /// The JS value the last failed call threw or rejected with, kept so the error
    /// thrown back to JS can carry it as `cause`.
    last_failure: RefCell<Option<JsValue>>,
    /// When the call has an `AbortSignal`: its rejection, raced against every wait.
    abort: Option<Promise>,
}

impl JsFileReader {
    /// `target` as a reader, if it has a `readFile` method.
    pub(crate) fn from_object(target: &JsValue) -> Option<Self> {
        let method = |name: &str| {
            js_sys::Reflect::get(target, &name.into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
        };
        if !target.is_object() {
            return None;
        }
        Some(JsFileReader {
            target: target.clone(),
            read_file: method("readFile")?,
            list_dir: method("listDir"),
            last_failure: RefCell::new(None),
            abort: None,
        })
    }

    /// `target` as a reader, or `INVALID_ARGUMENT` naming `what`.
    pub(crate) fn new(target: &JsValue, what: &str) -> Result<Self, OffloadError> {
        Self::from_object(target).ok_or_else(|| {
            OffloadError::InvalidArgument(format!(
                "{what} must be an object with a readFile(path) method (and listDir(dir))"
            ))
        })
    }

    /// The same JS object with its own failure slot: one per call, so concurrent calls
    /// never take each other's `cause`.
    pub(crate) fn fresh(&self) -> Self {
        JsFileReader {
            target: self.target.clone(),
            read_file: self.read_file.clone(),
            list_dir: self.list_dir.clone(),
            last_failure: RefCell::new(None),
            abort: None,
        }
    }

    /// This writer or reader with its waits raced against `abort`'s signal.
    pub(crate) fn aborting_with(mut self, abort: Option<&crate::abort::Abort>) -> Self {
        self.abort = abort.map(|a| a.promise().clone());
        self
    }

    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.last_failure.borrow_mut().take()
    }

    fn fail(&self, failure: JsValue, message: String) -> IoError {
        *self.last_failure.borrow_mut() = Some(failure);
        IoError::new(message)
    }

    async fn settle(&self, called: Result<JsValue, JsValue>) -> Result<JsValue, IoError> {
        // A reader may throw synchronously, return a promise, or return a plain value.
        let outcome = match called {
            Ok(returned) => {
                let settled = crate::abort::race(Promise::resolve(&returned), self.abort.as_ref());
                JsFuture::from(settled).await
            }
            Err(thrown) => Err(thrown),
        };
        outcome.map_err(|failure| {
            let message = message_of(&failure);
            self.fail(failure, message)
        })
    }
}

impl FileReader for JsFileReader {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        let value = self
            .settle(self.read_file.call1(&self.target, &path.into()))
            .await?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_string() {
            Some(text) => Ok(Some(text)),
            None => {
                let message = format!(
                    "readFile must resolve to a string, or undefined when the file is missing; got {}",
                    kind_of(&value)
                );
                Err(self.fail(value, message))
            }
        }
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        let Some(list_dir) = &self.list_dir else {
            return Err(IoError::new("the reader has no listDir(dir) method"));
        };
        let value = self
            .settle(list_dir.call1(&self.target, &dir.into()))
            .await?;
        let names = value.dyn_ref::<Array>().and_then(|names| {
            names
                .iter()
                .map(|name| name.as_string())
                .collect::<Option<Vec<String>>>()
        });
        match names {
            Some(names) => Ok(names),
            None => {
                let message = format!(
                    "listDir must resolve to an array of names (strings); got {}",
                    kind_of(&value)
                );
                Err(self.fail(value, message))
            }
        }
    }
}

/// What `reader` reads at `path`; every file is missing when there is no reader (the
/// materializer without one cannot see an artifact it would replace).
pub(crate) async fn read_if_any(
    reader: Option<&JsFileReader>,
    path: &str,
) -> Result<Option<String>, IoError> {
    match reader {
        Some(reader) => reader.read_file(path).await,
        None => Ok(None),
    }
}

/// What `reader` lists in `dir`; nothing when there is no reader.
pub(crate) async fn list_if_any(
    reader: Option<&JsFileReader>,
    dir: &str,
) -> Result<Vec<String>, IoError> {
    match reader {
        Some(reader) => reader.list_dir(dir).await,
        None => Ok(Vec::new()),
    }
}
