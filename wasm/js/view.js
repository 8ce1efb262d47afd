// Reading messages for core's JsonView in one call per step, not one per check: each
// read returns the value's kind as a number and keeps the value, which wasm takes with
// `viewHeld()` only when it needs it. Names are passed as indices into NAMES (any other
// name as a string), so no string crosses for them.
//
// Kinds: 0 undefined (or a function or symbol, which JSON.stringify omits), 1 null,
// 2 boolean, 3 number or bigint, 4 string (plus 8 × (i + 1) when it is NAMES[i]),
// 5 array, 6 object; 7 (THREW) for a read that threw.
// The names core reads in messages and compares their values with: wasm/src/view.rs's
// NAMES, given once by viewNames before the first read, so the list is declared once.
let NAMES = [];
let held;
const THREW = 7;

let NAME_INDEX = new Map();
let LONGEST_NAME = 0;

export function viewNames(names) {
  NAMES = names;
  NAME_INDEX = new Map(names.map((name, i) => [name, i]));
  LONGEST_NAME = Math.max(...names.map((name) => name.length));
}

export function kindOf(v) {
  switch (typeof v) {
    case 'string': {
      // A string that is one of NAMES says which in the bits above the kind, so wasm
      // compares it and takes it without another call.
      // (Looking a long string up would hash all of it: contents are megabytes.)
      const i = v.length > LONGEST_NAME ? undefined : NAME_INDEX.get(v);
      return i === undefined ? 4 : 4 | ((i + 1) << 3);
    }
    case 'number':
    case 'bigint':
      return 3;
    case 'boolean':
      return 2;
    case 'object':
      return v === null ? 1 : Array.isArray(v) ? 5 : 6;
    default:
      return 0;
  }
}

// Field NAMES[name] (or `named`) of `object`, which must be an object: its kind, the
// value held; THREW, what was thrown held, when a getter or Proxy trap throws (caught
// here: wasm-bindgen's catching wrapper costs more than the read).
export function viewField(object, name, named) {
  try {
    held = object[name < 0 ? named : NAMES[name]];
  } catch (thrown) {
    held = thrown;
    return THREW;
  }
  return kindOf(held);
}

// Item `index` of the array `array`: its kind, the value held.
export function viewItem(array, index) {
  try {
    held = array[index];
  } catch (thrown) {
    held = thrown;
    return THREW;
  }
  return kindOf(held);
}

// The value the last read kept (once).
export function viewHeld() {
  const v = held;
  held = undefined;
  return v;
}

// Whether the string `s` is NAMES[name] (or `named`).
export function viewIs(s, name, named) {
  return s === (name < 0 ? named : NAMES[name]);
}
