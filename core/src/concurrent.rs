//! Running a list of futures a few at a time. The core has no runtime, so it polls them
//! itself; whatever executor drives the caller (tokio, JavaScript promises, `block_on`)
//! wakes it.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

/// Writes one call keeps in flight: enough to overlap the IO of a disk or a thread pool
/// (Node's has 4 threads), few enough that open file handles stay far below any limit.
pub(crate) const WRITE_CONCURRENCY: usize = 16;

/// Run `futures` with at most `limit` (at least 1) in flight, started in order, and
/// return their outputs in order. A future is first polled only after every one before it
/// has been, so it may check, when it starts, what those before it did.
pub(crate) async fn run_bounded<F: Future>(futures: Vec<F>, limit: usize) -> Vec<F::Output> {
    let limit = limit.max(1);
    let total = futures.len();
    let mut running: Vec<Option<Pin<Box<F>>>> =
        futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = (0..total).map(|_| None).collect();
    // `first..started` holds every future started and not yet finished.
    let (mut first, mut started, mut in_flight) = (0, 0, 0);
    poll_fn(|cx| loop {
        while started < total && in_flight < limit {
            started += 1;
            in_flight += 1;
        }
        let mut finished = false;
        for (slot, output) in running[first..started]
            .iter_mut()
            .zip(&mut outputs[first..started])
        {
            if let Some(future) = slot {
                if let Poll::Ready(out) = future.as_mut().poll(cx) {
                    *output = Some(out);
                    *slot = None;
                    in_flight -= 1;
                    finished = true;
                }
            }
        }
        while first < started && running[first].is_none() {
            first += 1;
        }
        if first == total {
            return Poll::Ready(());
        }
        // Go round again only when a finished future made room for one not yet started.
        if !finished || started == total {
            return Poll::Pending;
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    /// A future ready after it has been polled `polls` times, waking itself each time.
    fn after(
        polls: usize,
        value: usize,
        log: Rc<RefCell<Vec<usize>>>,
    ) -> impl Future<Output = usize> {
        let left = Cell::new(polls);
        poll_fn(move |cx| {
            log.borrow_mut().push(value);
            if left.get() == 0 {
                Poll::Ready(value)
            } else {
                left.set(left.get() - 1);
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
    }

    #[test]
    fn outputs_come_in_order_whatever_finishes_first() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let futures = vec![
            after(3, 0, log.clone()),
            after(0, 1, log.clone()),
            after(1, 2, log.clone()),
        ];
        let out = futures_executor::block_on(run_bounded(futures, 2));
        assert_eq!(out, vec![0, 1, 2]);
    }

    #[test]
    fn at_most_limit_run_at_once_and_they_start_in_order() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let futures: Vec<_> = (0..5).map(|i| after(2, i, log.clone())).collect();
        let out = futures_executor::block_on(run_bounded(futures, 2));
        assert_eq!(out, vec![0, 1, 2, 3, 4]);
        let log = log.borrow();
        // Nothing after the first two is polled before one of them finished (3 polls each).
        let first_late = log.iter().position(|&v| v >= 2).unwrap();
        assert_eq!(log[..first_late].iter().filter(|&&v| v == 0).count(), 3);
        let started: Vec<usize> = log.iter().fold(Vec::new(), |mut seen, &v| {
            if !seen.contains(&v) {
                seen.push(v);
            }
            seen
        });
        assert_eq!(started, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_pending_future_is_polled_once_per_wake_not_spun() {
        // Ready only after 1000 polls, and never waking itself: one poll of the whole
        // must poll it once and return, not spin until it gives in.
        let polls = Rc::new(Cell::new(0));
        let counted = polls.clone();
        let stubborn = poll_fn(move |_| {
            counted.set(counted.get() + 1);
            if counted.get() >= 1000 {
                Poll::Ready(0)
            } else {
                Poll::Pending
            }
        });
        let quick = poll_fn(|_| Poll::Ready(1));
        let futures: Vec<std::pin::Pin<Box<dyn Future<Output = i32>>>> =
            vec![Box::pin(stubborn), Box::pin(quick)];
        let mut all = Box::pin(run_bounded(futures, 1));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        assert!(all.as_mut().poll(&mut cx).is_pending());
        assert_eq!(polls.get(), 1);
    }

    #[test]
    fn nothing_to_run_is_nothing_returned() {
        let none: Vec<std::future::Ready<u8>> = Vec::new();
        assert!(futures_executor::block_on(run_bounded(none, 4)).is_empty());
    }
}
