// The one error class every tool-offload failure is thrown as. Defined in JS so that it
// is a real `Error` subclass (`instanceof Error` and `instanceof OffloadError` both hold).
export class OffloadError extends Error {
  constructor(message, code, options) {
    super(message, options);
    this.name = 'OffloadError';
    this.code = code;
  }
}
