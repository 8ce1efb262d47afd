//! Python callables the Rust side calls back, under the GIL: `count_tokens` and a
//! workspace's `now`. What a callable raises is kept in a slot of the calling thread
//! (each call runs its future on the thread that made it) and raised after the call
//! (`bridge::run`), as the cause of an `InvalidArgumentError`. The counter is the tokio
//! host's fallible one, so the call stops at once; its clock cannot fail, so `now`
//! answers 0 until the call ends.

use std::cell::RefCell;
use std::sync::Arc;

use pyo3::prelude::*;
use tool_offload::{Clock, OffloadError, TryCountTokens};

thread_local! {
    /// What a callable raised during this thread's current call, and which option it was.
    static RAISED: RefCell<Option<(&'static str, PyErr)>> = const { RefCell::new(None) };
}

fn keep(option: &'static str, err: PyErr) {
    RAISED.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some((option, err));
        }
    });
}

/// `count(text)` as the tokio host's fallible counter: what it raises (or a count below
/// 0) fails the call at once, the exception kept for `bridge::run` to raise as the cause.
pub(crate) fn counter(count: Py<PyAny>) -> TryCountTokens {
    Arc::new(move |text: &str| {
        Python::attach(|py| {
            let got = count.call1(py, (text,)).and_then(|n| n.extract::<i64>(py));
            let err = match got {
                Ok(n) if n >= 0 => return Ok(usize::try_from(n).unwrap_or(usize::MAX)),
                Ok(n) => {
                    let message = format!("count_tokens must return an integer >= 0, got {n}");
                    pyo3::exceptions::PyValueError::new_err(message)
                }
                Err(err) => err,
            };
            let message = format!("count_tokens raised: {}", err.value(py));
            keep("count_tokens", err);
            Err(OffloadError::InvalidArgument(message))
        })
    })
}

/// `now()` (milliseconds since the epoch) as a workspace's clock.
pub(crate) fn clock(now: Py<PyAny>) -> Clock {
    Arc::new(move || {
        Python::attach(
            |py| match now.call0(py).and_then(|n| n.extract::<f64>(py)) {
                Ok(ms) => ms,
                Err(err) => {
                    keep("now", err);
                    0.0
                }
            },
        )
    })
}

/// Forget what an earlier call on this thread left (a call that failed before asking).
pub(crate) fn clear() {
    RAISED.with(|slot| slot.borrow_mut().take());
}

/// What a callable raised during this call, and which option it was.
pub(crate) fn raised() -> Option<(&'static str, PyErr)> {
    RAISED.with(|slot| slot.borrow_mut().take())
}
