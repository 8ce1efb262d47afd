//! Any JS object with `mkdir(dir)` and `writeFile(path, data)` as a core [`FileWriter`].

use std::cell::RefCell;

use js_sys::{Function, JsString, Promise};
use tool_offload_core::{FileWriter, IoError, OffloadError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::error::message_of;

pub(crate) struct JsFileWriter {
    target: JsValue,
    mkdir: Function,
    write_file: Function,
    /// The JS value the last failed call threw or rejected with, kept so the error
    /// thrown back to JS can carry it as `cause`.
    last_failure: RefCell<Option<JsValue>>,
}

impl JsFileWriter {
    pub(crate) fn new(target: &JsValue) -> Result<Self, OffloadError> {
        let method = |name: &str| {
            js_sys::Reflect::get(target, &name.into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
        };
        match (target.is_object(), method("mkdir"), method("writeFile")) {
            (true, Some(mkdir), Some(write_file)) => Ok(JsFileWriter {
                target: target.clone(),
                mkdir,
                write_file,
                last_failure: RefCell::new(None),
            }),
            _ => Err(OffloadError::InvalidArgument(
                "writer must be an object with mkdir(dir) and writeFile(path, data) methods".into(),
            )),
        }
    }

    /// The same JS object with its own failure slot: one per call, so concurrent calls
    /// never take each other's `cause`.
    pub(crate) fn fresh(&self) -> Self {
        JsFileWriter {
            target: self.target.clone(),
            mkdir: self.mkdir.clone(),
            write_file: self.write_file.clone(),
            last_failure: RefCell::new(None),
        }
    }

    /// The JS object this writer calls (a reader may default to it).
    pub(crate) fn target(&self) -> &JsValue {
        &self.target
    }

    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.last_failure.borrow_mut().take()
    }

    async fn settle(&self, called: Result<JsValue, JsValue>) -> Result<(), IoError> {
        // A writer may throw synchronously, return a promise, or return a plain value.
        let outcome = match called {
            Ok(returned) => JsFuture::from(Promise::resolve(&returned)).await,
            Err(thrown) => Err(thrown),
        };
        outcome.map(drop).map_err(|failure| {
            let err = IoError::new(message_of(&failure));
            *self.last_failure.borrow_mut() = Some(failure);
            err
        })
    }
}

/// Content is written as the JavaScript string it came as: it never crosses into wasm.
impl FileWriter<JsString> for JsFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.settle(self.mkdir.call1(&self.target, &dir.into()))
            .await
    }

    async fn write_file(&self, path: &str, data: &JsString) -> Result<(), IoError> {
        self.settle(self.write_file.call2(&self.target, &path.into(), data))
            .await
    }
}

/// Rust strings (tool results produced in wasm) are handed to JS as new strings.
impl FileWriter<str> for JsFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        FileWriter::<JsString>::mkdir(self, dir).await
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.settle(
            self.write_file
                .call2(&self.target, &path.into(), &data.into()),
        )
        .await
    }
}
