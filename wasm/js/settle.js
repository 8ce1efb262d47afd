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
