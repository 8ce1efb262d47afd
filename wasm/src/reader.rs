//! Any JS object with `readFile(path)` (and `listDir(dir)`, `size(path)`,
//! `readRange(path, start, end)`) as a core [`FileReader`].
//!
//! A reader without `size`/`readRange` still works: the file is read whole once per
//! call and ranges are cut from that copy (the cost the ranged methods avoid).

use std::cell::RefCell;

use js_sys::{Array, Function, Uint8Array};
use tool_offload_core::{safe_count, FileReader, IoError, OffloadError};
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::error::message_of;
use crate::js_io::JsIo;

/// A file read whole, by path (`None`: it was missing).
type WholeFile = (String, Option<std::rc::Rc<[u8]>>);

pub(crate) struct JsFileReader {
    io: JsIo,
    read_file: Function,
    /// Optional: only reading a directory needs it, and its absence is reported then.
    list_dir: Option<Function>,
    /// Optional, with `read_range`: paging without reading the whole file.
    size: Option<Function>,
    read_range: Option<Function>,
    /// Without the ranged methods: the last file read whole, by path.
    whole: RefCell<Option<WholeFile>>,
}

impl JsFileReader {
    /// `target` as a reader, if it has a `readFile` method.
    pub(crate) fn from_object(target: &JsValue) -> Option<Self> {
        if !target.is_object() {
            return None;
        }
        let method = |name| JsIo::method(target, name);
        Some(JsFileReader {
            io: JsIo::new(target),
            read_file: method("readFile")?,
            list_dir: method("listDir"),
            size: method("size"),
            read_range: method("readRange"),
            whole: RefCell::new(None),
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
            io: self.io.fresh(),
            read_file: self.read_file.clone(),
            list_dir: self.list_dir.clone(),
            size: self.size.clone(),
            read_range: self.read_range.clone(),
            whole: RefCell::new(None),
        }
    }

    /// This reader with its waits raced against `abort`'s signal.
    pub(crate) fn aborting_with(mut self, abort: Option<&crate::abort::Abort>) -> Self {
        self.io.abort_with(abort);
        self
    }

    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.io.take_failure()
    }
}

impl FileReader for JsFileReader {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        let value = self.io.call1(&self.read_file, &path.into()).await?;
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
                Err(self.io.fail(value, message))
            }
        }
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        let Some(list_dir) = &self.list_dir else {
            return Err(IoError::new("the reader has no listDir(dir) method"));
        };
        let value = self.io.call1(list_dir, &dir.into()).await?;
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
                Err(self.io.fail(value, message))
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
        let value = self.io.call1(size, &path.into()).await?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_f64().and_then(safe_count) {
            Some(n) => Ok(Some(n)),
            None => {
                // The number as JavaScript prints it (no float formatting in the wasm).
                let got = match value.as_f64() {
                    Some(_) => message_of(&value),
                    None => kind_of(&value),
                };
                let message = format!(
                    "size must resolve to a byte count, or undefined when the file is missing; got {got}"
                );
                Err(self.io.fail(value, message))
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
            .io
            .settle(read_range.call3(&self.io.target, &path.into(), &from, &to))
            .await?;
        match value.dyn_ref::<Uint8Array>() {
            Some(bytes) => Ok(bytes.to_vec()),
            None => {
                let message = format!(
                    "readRange must resolve to a Uint8Array of the bytes; got {}",
                    kind_of(&value)
                );
                Err(self.io.fail(value, message))
            }
        }
    }
}
