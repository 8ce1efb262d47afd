// A deep copy of `message`, with JSON semantics (what JSON.parse(JSON.stringify(m))
// gives), in which the content at each edited slot is replaced by a string. The
// replaced content is never serialised: it may be megabytes.
//
// Edit i targets `message` itself when blocks[i] < 0, else `message.content[blocks[i]]`,
// then (when holders[i] is a string) the object under that key (LangChain's `kwargs`),
// and sets its field fields[i] to values[i] (a string, or the AI SDK's `{ type, value }`);
// a missing field is appended, as in Rust.
//
// Plain data (objects whose prototype is Object.prototype or null, arrays, strings,
// numbers, booleans, null, and what JSON omits) is copied directly, without a text in
// between. Anything else anywhere in the message (a toJSON, a Date or other class
// instance, a boxed primitive, a BigInt, a cycle) makes it the engine's own round trip,
// so those behave, and fail, exactly as there.
export function copyWithEdits(message, blocks, inner, fields, values, parts) {
  const at = (root, i) => {
    const target = blocks[i] < 0 ? root : root.content[blocks[i]];
    return inner[i] === undefined ? target : target[inner[i]];
  };
  const holders = new Map();
  for (let i = 0; i < blocks.length; i++) {
    const holder = at(message, i);
    let edits = holders.get(holder);
    if (edits === undefined) holders.set(holder, (edits = new Map()));
    edits.set(fields[i], parts[i] === 0 ? values[i] : keptParts(holder[fields[i]], values[i], parts[i] === 2));
  }
  let copy;
  try {
    copy = copyJson(message, holders, []);
  } catch (e) {
    if (e !== NOT_JSON) throw e;
    copy = JSON.parse(
      JSON.stringify(message, function (key, value) {
        const edits = holders.get(this);
        return edits !== undefined && edits.has(key) ? edits.get(key) : value;
      }),
    );
  }
  for (let i = 0; i < blocks.length; i++) {
    const target = at(copy, i);
    if (!Object.prototype.hasOwnProperty.call(target, fields[i])) target[fields[i]] = values[i];
  }
  return copy;
}

// `[{ type: "text", text }, ...the parts of `content` that are not text]` (copies, with
// JSON semantics), inside `{ type: "content", value }` for the AI SDK (`tagged`). The
// filter is core's `is_text_part` (apply_edits uses it for serde values); doing it in wasm
// cost 0.9 KB gzipped for a one-line rule, so the JS copy applies it here.
function keptParts(content, text, tagged) {
  const items = tagged ? content.value : content;
  const others = items.filter((p) => p.type !== 'text').map((p) => JSON.parse(JSON.stringify(p)));
  const value = [{ type: 'text', text }, ...others];
  return tagged ? { type: 'content', value } : value;
}

// Thrown inside copyJson for a value that is not plain data.
const NOT_JSON = Symbol('not JSON');

// JSON.parse(JSON.stringify(value)) for plain data, `undefined` where JSON omits it;
// `edits` by holder replace fields as copyWithEdits's replacer does. `parents` holds the
// objects being copied, to find cycles.
function copyJson(value, holders, parents) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // -0 serialises as 0; NaN and infinities as null.
      return Number.isFinite(value) ? value + 0 : null;
    case 'object':
      break;
    case 'bigint':
      throw NOT_JSON;
    default:
      return undefined;
  }
  if (value === null) return null;
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value);
  const exotic = isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null;
  if (exotic || typeof value.toJSON === 'function' || parents.includes(value)) throw NOT_JSON;
  parents.push(value);
  const edits = holders.get(value);
  let copy;
  if (isArray) {
    copy = new Array(value.length);
    for (let i = 0; i < copy.length; i++) {
      const k = String(i);
      const item = edits !== undefined && edits.has(k) ? edits.get(k) : copyJson(value[i], holders, parents);
      copy[i] = item === undefined ? null : item;
    }
  } else {
    copy = {};
    for (const k of Object.keys(value)) {
      const item = edits !== undefined && edits.has(k) ? edits.get(k) : copyJson(value[k], holders, parents);
      if (item === undefined) continue;
      if (k === '__proto__')
        Object.defineProperty(copy, k, { value: item, writable: true, enumerable: true, configurable: true });
      else copy[k] = item;
    }
  }
  parents.pop();
  return copy;
}

// Whether `s` has no lone UTF-16 surrogate (ids are checked with it; content may hold one).
// String.prototype.isWellFormed exists from Node 20; the regex covers Node 18.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
export function isWellFormed(s) {
  return typeof s.isWellFormed === 'function' ? s.isWellFormed() : !LONE_SURROGATE.test(s);
}

// Encode `s` from UTF-16 unit `from` on as UTF-8 into wasm memory at `ptr` (`len`
// bytes), as TextEncoder.encodeInto does (a lone surrogate as U+FFFD): returns
// [units read, bytes written] (two numbers: packed into one double, they lose bits past
// 2^53 for strings of a few million units). Native, unlike a per-character copy loop.
const encoder = new TextEncoder();
export function encodeInto(s, from, memory, ptr, len) {
  const { read, written } = encoder.encodeInto(from === 0 ? s : s.slice(from), new Uint8Array(memory.buffer, ptr, len));
  return [read, written];
}
