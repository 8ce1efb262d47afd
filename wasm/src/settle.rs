//! Waiting for JS promises without wasm-bindgen's `JsFuture`, which makes two JS closures
//! per promise, each registered with a `FinalizationRegistry`: 11 % of a batch offload of
//! the benchmark corpus (310 writes). Here one callback, made once, settles every wait
//! by its slot number.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/promises.js")]
extern "C" {
    #[wasm_bindgen(js_name = whenSettled)]
    fn when_settled(value: &JsValue, abort: Option<&Promise>, slot: u32, callback: &Function);
}

/// A wait's state, by slot.
enum Slot {
    Free,
    /// Not settled yet; the waker of the last poll.
    Waiting(Option<Waker>),
    Settled(Result<JsValue, JsValue>),
    /// Its future was dropped before it settled: free once it does.
    Abandoned,
}

thread_local! {
    static SLOTS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
    static CALLBACK: Closure<dyn FnMut(u32, bool, JsValue)> = Closure::new(settled);
}

/// The callback: wait `slot` settled to `value`.
fn settled(slot: u32, ok: bool, value: JsValue) {
    let waker = SLOTS.with(|slots| {
        let mut slots = slots.borrow_mut();
        let entry = slots.get_mut(slot as usize)?;
        match std::mem::replace(entry, Slot::Free) {
            Slot::Waiting(waker) => {
                *entry = Slot::Settled(if ok { Ok(value) } else { Err(value) });
                waker
            }
            // Abandoned: the slot is free now. (Free or Settled cannot happen: each slot
            // is settled once.)
            _ => None,
        }
    });
    // Woken outside the borrow: the executor may poll at once.
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// What `value` settles to (a promise's value or reason; any other value as it is),
/// or `abort`'s rejection if that comes first.
pub(crate) fn settle(value: &JsValue, abort: Option<&Promise>) -> Settled {
    let slot = SLOTS.with(|slots| {
        let mut slots = slots.borrow_mut();
        let free = slots.iter().position(|s| matches!(s, Slot::Free));
        let slot = free.unwrap_or_else(|| {
            slots.push(Slot::Free);
            slots.len() - 1
        });
        slots[slot] = Slot::Waiting(None);
        slot as u32
    });
    CALLBACK.with(|callback| when_settled(value, abort, slot, callback.as_ref().unchecked_ref()));
    Settled { slot, done: false }
}

/// A wait for [`settle`].
pub(crate) struct Settled {
    slot: u32,
    done: bool,
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let slot = self.slot as usize;
        let ready = SLOTS.with(|slots| {
            let mut slots = slots.borrow_mut();
            let entry = &mut slots[slot];
            match std::mem::replace(entry, Slot::Free) {
                Slot::Settled(result) => Some(result),
                _ => {
                    *entry = Slot::Waiting(Some(cx.waker().clone()));
                    None
                }
            }
        });
        match ready {
            Some(result) => {
                self.done = true;
                Poll::Ready(result)
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for Settled {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        SLOTS.with(|slots| {
            if let Some(entry) = slots.borrow_mut().get_mut(self.slot as usize) {
                *entry = match entry {
                    Slot::Settled(_) => Slot::Free,
                    _ => Slot::Abandoned,
                };
            }
        });
    }
}
