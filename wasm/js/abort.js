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
