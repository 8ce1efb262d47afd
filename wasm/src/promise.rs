//! One `future_to_promise` for every asynchronous export.
//!
//! `future_to_promise` is generic over its future, and an `async fn` export is one more
//! instance of it, with the whole body inlined into its poll loop: ten such copies were
//! 57 KB of the wasm. Every export hands its future over boxed instead, so the promise
//! glue is compiled once and each body stays one function behind the box's vtable.

use std::future::Future;
use std::pin::Pin;

use js_sys::Promise;
use wasm_bindgen::JsValue;

type Boxed = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// A JS Promise settled by `future`: resolved with its `Ok`, rejected with its `Err`.
pub(crate) fn spawn(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    spawn_boxed(Box::pin(future))
}

/// The one instance of `future_to_promise`; never inlined, or each caller would get a
/// copy again.
#[inline(never)]
fn spawn_boxed(future: Boxed) -> Promise {
    wasm_bindgen_futures::future_to_promise(future)
}

/// The promise of a call whose arguments were read before it returned (so the caller
/// may change them after): rejected with their error, else settled by `body` on them.
pub(crate) fn spawn_with<A, F>(
    args: Result<A, crate::error::JsOffloadError>,
    body: impl FnOnce(A) -> F,
) -> Promise
where
    F: Future<Output = Result<JsValue, JsValue>> + 'static,
{
    match args {
        Ok(args) => spawn(body(args)),
        Err(err) => Promise::reject(&err.into()),
    }
}
