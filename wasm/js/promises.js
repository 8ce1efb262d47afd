// Waiting on JS promises from wasm: settling them (src/settle.rs) and cancelling
// through an AbortSignal (src/abort.rs). One module, not two: wasm-bindgen-test-runner's
// server (tiny_http 0.12) can leave a fifth simultaneous module fetch unserved until the
// page load times out, so the snippets stay at four (scripts/check-wasm-snippets.sh).

// Cancelling through an AbortSignal. `watchAbort` gives a promise that rejects with the
// signal's reason when it aborts (its rejection is marked handled: nobody may await it),
// and `dispose`, which removes the listener so a long-lived signal does not collect one
// per call.
export function watchAbort(signal) {
  let onAbort;
  const promise = new Promise((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

// Whether `value` looks like an AbortSignal (any realm, any implementation).
export function isAbortSignal(value) {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof value.aborted === 'boolean' &&
    typeof value.addEventListener === 'function' &&
    typeof value.removeEventListener === 'function'
  );
}

// Waiting for a JS value from wasm with one callback for every wait (wasm/src/settle.rs):
// `value` (a promise or not), raced against `abort` when given, reported to
// `callback(slot, ok, valueOrReason)`.
export function whenSettled(value, abort, slot, callback) {
  const settled = Promise.resolve(value);
  (abort === undefined ? settled : Promise.race([settled, abort])).then(
    (v) => callback(slot, true, v),
    (e) => callback(slot, false, e),
  );
}
