//! What every JS IO object shares: the object, calls to its methods awaited as the
//! core's IO, each wait raced against the call's `AbortSignal`, and the value the last
//! failed call threw kept for the error's `cause`. `JsFileWriter` and `JsFileReader` are
//! this plus their methods.

use std::cell::RefCell;

use js_sys::{Function, Promise};
use tool_offload_core::IoError;
use wasm_bindgen::prelude::*;

use crate::error::message_of;

pub(crate) struct JsIo {
    /// The JS object whose methods are called, as `this`.
    pub(crate) target: JsValue,
    /// The JS value the last failed call threw or rejected with, kept so the error
    /// thrown back to JS can carry it as `cause`.
    last_failure: RefCell<Option<JsValue>>,
    /// When the call has an `AbortSignal`: its rejection, raced against every wait.
    abort: Option<Promise>,
}

impl JsIo {
    pub(crate) fn new(target: &JsValue) -> Self {
        JsIo {
            target: target.clone(),
            last_failure: RefCell::new(None),
            abort: None,
        }
    }

    /// `target[name]` when it is a function.
    pub(crate) fn method(target: &JsValue, name: &'static str) -> Option<Function> {
        js_sys::Reflect::get(target, &crate::keys::key(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
    }

    /// The same object with its own failure slot and no signal: one per call, so
    /// concurrent calls never take each other's `cause`.
    pub(crate) fn fresh(&self) -> Self {
        JsIo::new(&self.target)
    }

    /// Race every later wait against `abort`'s signal.
    pub(crate) fn abort_with(&mut self, abort: Option<&crate::abort::Abort>) {
        self.abort = abort.map(|a| a.promise().clone());
    }

    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.last_failure.borrow_mut().take()
    }

    /// An `IoError` with `message`, keeping `failure` as the cause.
    pub(crate) fn fail(&self, failure: JsValue, message: String) -> IoError {
        *self.last_failure.borrow_mut() = Some(failure);
        IoError::new(message)
    }

    /// What a method call settled to: it may throw synchronously, return a promise, or
    /// return a plain value.
    pub(crate) async fn settle(
        &self,
        called: Result<JsValue, JsValue>,
    ) -> Result<JsValue, IoError> {
        let outcome = match called {
            Ok(returned) => crate::settle::settle(&returned, self.abort.as_ref()).await,
            Err(thrown) => Err(thrown),
        };
        outcome.map_err(|failure| {
            let message = message_of(&failure);
            self.fail(failure, message)
        })
    }

    /// `method(arg)` on the object, settled.
    pub(crate) async fn call1(&self, method: &Function, arg: &JsValue) -> Result<JsValue, IoError> {
        self.settle(method.call1(&self.target, arg)).await
    }

    /// `method(a, b)` on the object, settled.
    pub(crate) async fn call2(
        &self,
        method: &Function,
        a: &JsValue,
        b: &JsValue,
    ) -> Result<JsValue, IoError> {
        self.settle(method.call2(&self.target, a, b)).await
    }
}
