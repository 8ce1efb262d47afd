// Reading messages for core's JsonView in one call per step, not one per check: each
// read returns the value's kind as a number and keeps the value, which wasm takes with
// `viewHeld()` only when it needs it. Names are passed as indices into NAMES (any other
// name as a string), so no string crosses for them.
//
// Kinds: 0 undefined (or a function or symbol, which JSON.stringify omits), 1 null,
// 2 boolean, 3 number or bigint, 4 string (plus 8 × (i + 1) when it is NAMES[i]),
// 5 array, 6 object; 7 (THREW) for a read that threw.
const NAMES = [
  'role',
  'type',
  'content',
  'tool_call_id',
  'call_id',
  'output',
  'tool_use_id',
  'tool_calls',
  'id',
  'name',
  'function',
  'tool',
  'function_call_output',
  'tool_result',
  'function_call',
  'tool_use',
  // The AI SDK's, Agents SDK's and LangChain's shapes, and text parts.
  'toolCallId',
  'toolName',
  'callId',
  'kwargs',
  'data',
  'value',
  'function_call_result',
  'constructor',
  'tool-result',
  'ToolMessage',
  'text',
  // Common block and item types, so checking them for a result's name costs no call.
  'image',
  'thinking',
  'message',
  'reasoning',
];
let held;
const THREW = 7;

const NAME_INDEX = new Map(NAMES.map((name, i) => [name, i]));
const LONGEST_NAME = Math.max(...NAMES.map((name) => name.length));

export function kindOf(v) {
  switch (typeof v) {
    case 'string': {
      // A string that is one of NAMES says which in the bits above the kind, so wasm
      // compares it and takes it without another call.
      // (Looking a long string up would hash all of it.)
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

// Whole conversations in one crossing: `viewTree(messages)` walks every message as deep as
// core looks (TREE_DEPTH levels) and encodes it in `nodes`, TREE_WORDS Int32 words per
// value: its kind code (as kindOf), then
//   string: its .length;
//   boolean: 1 for true;
//   array: its length and the index of the node of item 0 (items are consecutive);
//   object: how many of its NAMES fields it has, and the index of the first (consecutive,
//     each with the field's NAMES index as its fourth word).
// A container that is not walked (too deep, too long, not plain data, or a read threw)
// has -1 as its first child: wasm reads it one field at a time as before, so getters that
// throw, Proxies and class instances behave exactly as with the per-field reads. Node i's
// value is values[i] of the array returned; nodes 0 … messages.length - 1 are the messages.
const TREE_WORDS = 4;
const TREE_DEPTH = 5;
const TREE_ITEMS = 512;
let nodes = new Int32Array(TREE_WORDS * 4096);
let used = 0;
let values;
// NAMES index by name (a null-prototype object: the fastest lookup of a property key).
const NAME_OF = Object.assign(Object.create(null), Object.fromEntries(NAMES.map((name, i) => [name, i])));

// Room for `count` more nodes; the index of the first.
function allocate(count) {
  const first = used;
  used += count;
  // Filled in order, so `values` stays a packed array (assigning far past its end would
  // make it a slow dictionary).
  for (let i = 0; i < count; i++) values.push(undefined);
  if (used * TREE_WORDS > nodes.length) {
    const grown = new Int32Array(Math.max(nodes.length * 2, used * TREE_WORDS));
    grown.set(nodes);
    nodes = grown;
  }
  return first;
}

export function viewTree(messages) {
  values = [];
  used = 0;
  const count = messages.length;
  const first = allocate(count);
  for (let i = 0; i < count; i++) {
    let message;
    try {
      message = messages[i];
    } catch {
      message = undefined; // a throwing Proxy trap: core reports a message it cannot read
    }
    encode(first + i, message, 0);
  }
  const out = values;
  values = undefined;
  return out;
}

// The nodes the last viewTree wrote (a view: wasm copies it at once).
export function viewTreeNodes() {
  return nodes.subarray(0, used * TREE_WORDS);
}

function encode(node, value, depth) {
  values[node] = value;
  const at = node * TREE_WORDS;
  const code = kindOf(value);
  nodes[at] = code;
  nodes[at + 1] = 0;
  nodes[at + 2] = -1;
  switch (code & 7) {
    case 4:
      nodes[at + 1] = value.length;
      break;
    case 2:
      nodes[at + 1] = value ? 1 : 0;
      break;
    case 5:
    case 6:
      if (depth < TREE_DEPTH) walk(at, value, code === 5, depth);
      break;
  }
}

// Encode the children of the container at word `at`, or leave it to per-field reads.
function walk(at, value, isArray, depth) {
  const start = used;
  try {
    if (isArray) {
      const length = value.length;
      if (length > TREE_ITEMS) return;
      const first = allocate(length);
      for (let i = 0; i < length; i++) encode(first + i, value[i], depth + 1);
      nodes[at + 1] = length;
      nodes[at + 2] = first;
      return;
    }
    // Plain data only: a class instance's fields may be getters on its prototype.
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return;
    // The fields' nodes first (consecutive), each with its name; then their values.
    const first = used;
    for (const key in value) {
      const name = NAME_OF[key];
      // (An inherited key only comes from Object.prototype, and `value[key]` reads it too.)
      if (name === undefined) continue;
      const field = allocate(1); // (may replace `nodes`)
      nodes[field * TREE_WORDS + 3] = name;
    }
    const count = used - first;
    for (let i = first; i < first + count; i++) encode(i, value[NAMES[nodes[i * TREE_WORDS + 3]]], depth + 1);
    nodes[at + 1] = count;
    nodes[at + 2] = first;
  } catch {
    // A getter or Proxy trap threw: the per-field reads meet it where core looks.
    used = start;
    nodes[at + 1] = 0;
    nodes[at + 2] = -1;
  }
}
