// Helpers shared by the vector generators (generate.mjs: direct offload,
// generate-batch.mjs: batch offload). Everything here is plain JavaScript on purpose:
// Node's own JSON.stringify and string .length are the definition of correct.
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether content already is one of our placeholders (never offloaded again). */
export function isPlaceholder(s) {
  if (typeof s !== 'string' || /[\n\r]/.test(s) || !s.endsWith('.md]')) return false;
  return s.startsWith('[Tool result offloaded to file: /') || s.startsWith('[Content offloaded to: ./');
}

/** Whether a tool result's text already stands for stored content, which no writer
 * stores again (core's `stored_form`): a placeholder, a Materializer summary (binary too),
 * a `<knowledge_list>`, the budget's pointer, a page the read tools returned. Known by
 * the fixed parts of each form; the vectors' look-alikes differ in one of them. Only the
 * first 8,192 and last 64 UTF-16 units are read: a first line running past them is no
 * header. */
export function isStoredForm(s) {
  if (typeof s !== 'string') return false;
  const oneLine = !s.includes('\n');
  const head = s.slice(0, 8192);
  const first = s.length <= 8192 || head.includes('\n') ? s.split('\n')[0] : '';
  const list = head.trim().startsWith('<knowledge_list>') && s.slice(-64).trim().endsWith('</knowledge_list>');
  const cleared =
    oneLine &&
    s.startsWith('[Earlier output of ') &&
    ((s.includes(' cleared from the conversation; stored as ') && s.endsWith(': context_read, context_grep]')) ||
      (s.includes(' cleared from the conversation; the same call reads it again: ') && s.endsWith(']')));
  const summary = /^\[Output of .* stored as ctx:\/\/.* and not shown in full: /.test(first);
  const binary =
    oneLine &&
    /^\[Output of .* stored as ctx:\/\/.*: binary data, .*; not shown, and not text to read back\.\]$/.test(s);
  return isPlaceholder(s) || list || cleared || summary || binary || pageRef(first) !== undefined;
}

/** The ref a page the read tools returned names in its header (its first line), or
 * undefined when `first` is no page header. */
export function pageRef(first) {
  const header =
    /^\[([^ ]+): (lines \d|\d[\d,]* matching row|empty\.\]$|nothing to show\.\]$|offset \d|char \d|text; metadata \{|json; metadata \{).*\]$/.exec(
      first,
    );
  return header?.[1];
}

/** The directory holding the vectors. */
export const here = dirname(fileURLToPath(import.meta.url));

/** The virtual working directory every vector runs in. */
export const CWD = '/work';

/** Node's `path.posix.resolve(cwd, path)` for an absolute `cwd`, without using it. */
export function resolve(cwd, path) {
  return normalise(path.startsWith('/') ? path : `${cwd}/${path}`);
}

/** `.` and empty segments vanish, `..` climbs (never above `/`), no trailing slash. */
export function normalise(path) {
  const parts = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

/** What is written and measured for a tool result's content: a string as is, an array
 * as its JSON.stringify, a missing content as "". Anything else is not a content. */
export function contentText(content) {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return JSON.stringify(content);
  return null;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What a UTF-8 file holds for `s`: each lone UTF-16 surrogate as U+FFFD (the WHATWG
 * rule of Node's fs and TextEncoder). */
export const wellFormed = (s) => s.replace(LONE, '\uFFFD');

/** Whether `s` holds a lone UTF-16 surrogate. */
export const hasLoneSurrogate = (s) => s.replace(LONE, '') !== s;

/** An Anthropic tool_result block, as raw JSON text. */
export const tr = (id, content) => JSON.stringify({ type: 'tool_result', tool_use_id: id, content });

/** An Anthropic user message holding the given raw blocks, as raw JSON text. */
export const user = (...blocks) => `{"role":"user","content":[${blocks.join(',')}]}`;

/** Every `<prefix>-*.json` vector file as it is now, by vector name (to keep blessed texts). */
export function previousVectors(prefix) {
  const found = new Map();
  for (const f of readdirSync(here).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json'))) {
    const v = JSON.parse(readFileSync(join(here, f), 'utf8'));
    found.set(v.name, v);
  }
  return found;
}

/** `{"$core": text}`: a text whose format core defines, kept from `old` (null until blessed). */
export const core = (old) => ({ $core: old !== null && typeof old === 'object' && '$core' in old ? old.$core : null });

/**
 * Replace every `<prefix>-*.json` vector file with `vectors`, each
 * `{ name, description, call, input: [key, rawJson][], expect }` (the expectation as the
 * reference computes it: `written` files, or `error` with `errorPath`, `errorMentions`),
 * written as one-step vectors: `{ name, description, cwd, steps: [{ op: call, ...input,
 * expect | error: { code, message, path? } }], files }`. Inputs stay raw JSON text so
 * literals such as 1.0, 1e21 and -0 reach every host exactly as written. Error messages
 * are core's (`$core`, kept from the last bless); a blessed one must contain
 * `errorMentions`.
 */
export function writeVectors(prefix, vectors) {
  const names = new Set();
  for (const { name } of vectors) {
    if (names.has(name)) throw new Error(`duplicate vector name ${prefix}-${name}`);
    names.add(name);
  }
  const previous = previousVectors(prefix);
  for (const old of readdirSync(here).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json')))
    unlinkSync(join(here, old));
  for (const { name, description, call, input, expect } of vectors) {
    const { written, error, errorPath, errorMentions, ...result } = expect;
    let outcome;
    if (error !== undefined) {
      const message = core(previous.get(name)?.steps?.[0]?.error?.message);
      if (message.$core !== null && errorMentions !== undefined && !message.$core.includes(errorMentions)) {
        throw new Error(
          `${prefix}-${name}: the message ${JSON.stringify(message.$core)} does not mention ${JSON.stringify(errorMentions)}`,
        );
      }
      outcome = ['error', { code: error, message, ...(errorPath !== undefined ? { path: errorPath } : {}) }];
    } else {
      outcome = ['expect', result];
    }
    const indent = (v) => JSON.stringify(v, null, 2).replace(/\n/g, '\n      ');
    const text = `{
  "name": ${JSON.stringify(name)},
  "description": ${JSON.stringify(description)},
  "cwd": ${JSON.stringify(CWD)},
  "steps": [
    {
      "op": ${JSON.stringify(call)},
${input.map(([key, raw]) => `      ${JSON.stringify(key)}: ${raw}`).join(',\n')},
      ${JSON.stringify(outcome[0])}: ${indent(outcome[1])}
    }
  ],
  "files": ${JSON.stringify(written ?? {}, null, 2).replace(/\n/g, '\n  ')}
}
`;
    writeFileSync(join(here, `${prefix}-${name}.json`), text);
  }
  console.log(`wrote ${vectors.length} ${prefix} vectors`);
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A `type` naming a tool's result or output that no shape here matches. */
const looksLikeResult = (type) => typeof type === 'string' && /[_-](result|output)$/.test(type);

/** Paths of the items of messages[i] that look like tool results but are of no shape we know. */
export function unrecognizedIn(message, i) {
  if (!isPlainObject(message) || message.role === 'tool') return [];
  const known = ['function_call_output', 'function_call_result', 'tool'];
  if (known.includes(message.type)) return [];
  if (message.type === 'constructor' && Array.isArray(message.id) && message.id.at(-1) === 'ToolMessage') return [];
  if (looksLikeResult(message.type)) return [`messages[${i}]`];
  if (!Array.isArray(message.content)) return [];
  return message.content.flatMap((b, j) =>
    isPlainObject(b) && b.type !== 'tool_result' && looksLikeResult(b.type) ? [`messages[${i}].content[${j}]`] : [],
  );
}

/**
 * A vector being generated as steps, by the generators of step vectors: `core(...path)`
 * keeps the `$core` text blessed at that place of the step being added, `step` and `fail`
 * add a step with its result or error, and the JSON lists every file in byte order.
 */
export class StepCase {
  constructor(previous, name, description) {
    Object.assign(this, { previous, name, description, steps: [], files: new Map() });
  }
  /** `$core` for `path` of the step being added (its `expect`, or `error`). */
  core(...path) {
    let old = this.previous.get(this.name)?.steps?.[this.steps.length];
    for (const key of path) old = old?.[key];
    return core(old);
  }
  step(op, inputs, expect) {
    this.steps.push({ op, ...inputs, expect });
    return this.steps.length - 1;
  }
  fail(op, inputs, code, path) {
    this.steps.push({
      op,
      ...inputs,
      error: { code, message: this.core('error', 'message'), ...(path ? { path } : {}) },
    });
    return this.steps.length - 1;
  }
  toJSON() {
    const files = [...this.files].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return { name: this.name, description: this.description, steps: this.steps, files: Object.fromEntries(files) };
  }
}

/**
 * Core's token estimate (`estimate_tokens`, docs/tokens.md "The rule") written again from
 * the rule, as the oracle of the vectors that decide by it: eighths of a token over UTF-16
 * code units of six classes, rounded up.
 */
export function estimateTokens(text) {
  const letter = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const upper = (c) => c >= 65 && c <= 90;
  const digit = (c) => c >= 48 && c <= 57;
  const blank = (c) => c === 32 || c === 9 || c === 10 || c === 13;
  const n = text.length;
  let eighths = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (letter(c)) {
      const spaced = i > 0 && text.charCodeAt(i - 1) === 32;
      let start = i;
      let first = true;
      i++;
      for (;;) {
        const more = i < n && letter(text.charCodeAt(i));
        if (!more || (upper(text.charCodeAt(i)) && !upper(text.charCodeAt(i - 1)))) {
          const len = i - start;
          eighths += first && spaced ? 8 * Math.ceil(len / 10) : 11 * Math.ceil(len / 5);
          if (!more) break;
          start = i;
          first = false;
        }
        i++;
      }
    } else if (digit(c)) {
      let end = i;
      while (end < n && digit(text.charCodeAt(end))) end++;
      eighths += 12 * Math.ceil((end - i) / 3);
      i = end;
    } else if (blank(c)) {
      let end = i;
      let afterNewline = -1;
      while (end < n && blank(text.charCodeAt(end))) {
        const b = text.charCodeAt(end);
        if (b === 10 || b === 13) afterNewline = end + 1;
        end++;
      }
      if (afterNewline >= 0) eighths += 8;
      const blanks = afterNewline >= 0 ? afterNewline : i;
      if (end > blanks) {
        if (end === n) eighths += 5;
        else {
          if (end - blanks >= 2 || text.charCodeAt(blanks) === 9) eighths += 5;
          if (digit(text.charCodeAt(end))) eighths += 5;
        }
      }
      i = end;
    } else if (c < 128) {
      let end = i;
      while (end < n) {
        const b = text.charCodeAt(end);
        if (b >= 128 || letter(b) || digit(b) || blank(b)) break;
        end++;
      }
      if (!(end - i === 1 && end < n && letter(text.charCodeAt(end)))) eighths += 5;
      i = end;
    } else {
      eighths += 8;
      i++;
    }
  }
  return Math.ceil(eighths / 8);
}
