//! Any JS object with `readFile(path)` (and `listDir(dir)`, `size(path)`,
//! `readRange(path, start, end)`) as a core [`FileReader`].
//!
//! A reader without `size`/`readRange` still works: the file is read whole once per
//! call and ranges are cut from that copy (the cost the ranged methods avoid).

use std::cell::RefCell;

use js_sys::{Array, Function, Promise, Uint8Array};
use tool_offload_core::{FileReader, IoError, OffloadError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::convert::kind_of;
use crate::error::message_of;

/// A file read whole, by path (`None`: it was missing).
type WholeFile = (String, Option<std::rc::Rc<[u8]>>);

pub(crate) struct JsFileReader {
    target: JsValue,
    read_file: Function,
    /// Optional: only reading a directory needs it, and its absence is reported then.
    list_dir: Option<Function>,
    /// Optional, with `read_range`: paging without reading the whole file.
    size: Option<Function>,
    read_range: Option<Function>,
    /// Without the ranged methods: the last file read whole, by path.
    whole: RefCell<Option<WholeFile>>,
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
            size: method("size"),
            read_range: method("readRange"),
            whole: RefCell::new(None),
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
            size: self.size.clone(),
            read_range: self.read_range.clone(),
            whole: RefCell::new(None),
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

    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        match self.ranged() {
            Some((size, _)) => self.ranged_size(size, path).await,
            None => Ok(self.whole(path).await?.map(|bytes| bytes.len() as u64)),
        }
    }

    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        match self.ranged() {
            Some((_, read_range)) => self.ranged_read(read_range, path, start, end).await,
            None => match self.whole(path).await? {
                Some(bytes) => {
                    Ok(bytes[tool_offload_core::clamp_range(start, end, bytes.len())].to_vec())
                }
                None => Err(IoError::new(format!("no such file: {path}"))),
            },
        }
    }
}

impl JsFileReader {
    /// Whether the object pages with `size` and `readRange` (both are needed).
    fn ranged(&self) -> Option<(&Function, &Function)> {
        self.size.as_ref().zip(self.read_range.as_ref())
    }

    /// The whole file as bytes, read once per path for readers without `readRange`.
    async fn whole(&self, path: &str) -> Result<Option<std::rc::Rc<[u8]>>, IoError> {
        if let Some((cached, bytes)) = self.whole.borrow().as_ref() {
            if cached == path {
                return Ok(bytes.clone());
            }
        }
        let bytes = self
            .read_file(path)
            .await?
            .map(|text| std::rc::Rc::from(text.into_bytes()));
        *self.whole.borrow_mut() = Some((path.to_owned(), bytes.clone()));
        Ok(bytes)
    }

    async fn ranged_size(&self, size: &Function, path: &str) -> Result<Option<u64>, IoError> {
        let value = self.settle(size.call1(&self.target, &path.into())).await?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => {
                Ok(Some(n as u64))
            }
            _ => {
                // The number as JavaScript prints it (no float formatting in the wasm).
                let got = match value.as_f64() {
                    Some(_) => message_of(&value),
                    None => kind_of(&value),
                };
                let message = format!(
                    "size must resolve to a byte count, or undefined when the file is missing; got {got}"
                );
                Err(self.fail(value, message))
            }
        }
    }

    async fn ranged_read(
        &self,
        read_range: &Function,
        path: &str,
        start: u64,
        end: u64,
    ) -> Result<Vec<u8>, IoError> {
        let (from, to) = (JsValue::from(start as f64), JsValue::from(end as f64));
        let value = self
            .settle(read_range.call3(&self.target, &path.into(), &from, &to))
            .await?;
        match value.dyn_ref::<Uint8Array>() {
            Some(bytes) => Ok(bytes.to_vec()),
            None => {
                let message = format!(
                    "readRange must resolve to a Uint8Array of the bytes; got {}",
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

/// The size of the file at `path` through `reader`; every file is missing without one.
pub(crate) async fn size_if_any(
    reader: Option<&JsFileReader>,
    path: &str,
) -> Result<Option<u64>, IoError> {
    match reader {
        Some(reader) => reader.size(path).await,
        None => Ok(None),
    }
}

/// Bytes `start..end` of `path` through `reader`.
pub(crate) async fn range_if_any(
    reader: Option<&JsFileReader>,
    path: &str,
    start: u64,
    end: u64,
) -> Result<Vec<u8>, IoError> {
    match reader {
        Some(reader) => reader.read_range(path, start, end).await,
        None => Err(IoError::new(format!("no such file: {path}"))),
    }
}
