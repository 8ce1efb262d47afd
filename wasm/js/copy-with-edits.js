// A deep copy of `message`, with JSON semantics (what JSON.parse(JSON.stringify(m))
// gives), in which the content at each edited slot is replaced by a string. The
// replaced content is never serialised: it may be megabytes.
//
// Edit i targets `message` itself when blocks[i] < 0, else `message.content[blocks[i]]`,
// and sets its field fields[i] to texts[i]; a missing field is appended, as in Rust.
export function copyWithEdits(message, blocks, fields, texts) {
  const holders = new Map();
  for (let i = 0; i < blocks.length; i++) {
    const holder = blocks[i] < 0 ? message : message.content[blocks[i]];
    let edits = holders.get(holder);
    if (edits === undefined) holders.set(holder, (edits = new Map()));
    edits.set(fields[i], texts[i]);
  }
  const copy = JSON.parse(
    JSON.stringify(message, function (key, value) {
      const edits = holders.get(this);
      return edits !== undefined && edits.has(key) ? edits.get(key) : value;
    }),
  );
  for (let i = 0; i < blocks.length; i++) {
    const target = blocks[i] < 0 ? copy : copy.content[blocks[i]];
    if (!Object.prototype.hasOwnProperty.call(target, fields[i])) target[fields[i]] = texts[i];
  }
  return copy;
}

// Whether `s` has no lone UTF-16 surrogate (ids are checked with it; content may hold one).
// String.prototype.isWellFormed exists from Node 20; the regex covers Node 18.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
export function isWellFormed(s) {
  return typeof s.isWellFormed === 'function' ? s.isWellFormed() : !LONE_SURROGATE.test(s);
}

// Encode `s` from UTF-16 unit `from` on as UTF-8 into wasm memory at `ptr` (`len`
// bytes), as TextEncoder.encodeInto does (a lone surrogate as U+FFFD): returns the units
// read times 2^32 plus the bytes written. Native, unlike a per-character copy loop.
const encoder = new TextEncoder();
export function encodeInto(s, from, memory, ptr, len) {
  const { read, written } = encoder.encodeInto(from === 0 ? s : s.slice(from), new Uint8Array(memory.buffer, ptr, len));
  return read * 4294967296 + written;
}
