// Regenerates tests/vectors/materialize-*.json (tool output materialization, issue 5):
//
//   node tests/vectors/generate-materialize.mjs \
//     && TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host \
//     && node tests/vectors/generate-materialize.mjs
//
// The first run writes every fact that JavaScript defines, computed here with Node
// itself: inline or not (string .length and Buffer.byteLength against the limits), .json
// or .txt (JSON.parse), file contents (the string, or JSON.stringify of a value), ref ids
// and paths, hint numbers, SHA-256 (node:crypto), error codes, bundles. Texts whose format core defines (summaries,
// read/tail/grep pages) are written as `{"$core": <text>}`: the text already in the
// vector file at that position is kept, else null. Bless mode of the Rust runner fills
// in every `$core` text from core (and refuses when any other fact differs); the second
// run re-formats the files and checks every summary and page against the shape rules
// (pointer first, sizes, reading advice, under the limit, preview lines bounded).
//
// The vector format: tests/vectors/README.md.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { core, hasLoneSurrogate, here, pageRef, unrecognizedIn, wellFormed } from './shared.mjs';

const PREFIX = 'materialize';
const DEFAULTS = { maxInlineChars: 4000, maxInlineBytes: 16384, snippetLines: 40 };
const MAX_FILE_NAME_BYTES = 255;
const MAX_PREVIEW_CHARS = 500;

/** A string written to the vector as a `$text` recipe; `.text` is the string itself. */
class Txt {
  constructor(parts) {
    this.parts = parts;
    this.text = parts.map((p) => (typeof p === 'string' ? p : p[0].repeat(p[1]))).join('');
  }
  toJSON() {
    return { $text: this.parts };
  }
}
const rep = (s, times) => new Txt([[s, times]]);
const str = (s) => (s instanceof Txt ? s.text : s);
const from = (step, ...keys) => ({ $from: [step, ...keys] });

const sha256 = (s) => createHash('sha256').update(s, 'utf8').digest('hex');
/** Lines as Rust's `str::lines` counts them: a final newline does not start a line. */
const lineCount = (s) => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));
const measure = (s) => ({ bytes: Buffer.byteLength(s, 'utf8'), chars: s.length, lines: lineCount(s) });
/** The texts of an array of text parts ({ type: "text", text }) joined with newlines, else null. */
const textParts = (value) =>
  Array.isArray(value) && value.length > 0 && value.every((p) => p?.type === 'text' && typeof p.text === 'string')
    ? value.map((p) => p.text).join('\n')
    : null;
/**
 * A content array of typed parts (every item an object with a string `type`, text parts
 * with a string `text`): `{ joined, others }`, its texts joined with newlines and the
 * parts that are not text; else null.
 */
function contentParts(value) {
  const typed = (p) => p !== null && typeof p === 'object' && !Array.isArray(p) && typeof p.type === 'string';
  // One text part alone (the Agents SDK's `{ type: "text", text }` output) is its text.
  if (typed(value) && value.type === 'text' && typeof value.text === 'string')
    return { joined: value.text, others: [] };
  if (!Array.isArray(value) || !value.every(typed)) return null;
  const texts = value.filter((p) => p.type === 'text');
  if (!texts.every((p) => typeof p.text === 'string')) return null;
  return { joined: texts.map((p) => p.text).join('\n'), others: value.filter((p) => p.type !== 'text') };
}
/** Whether a string output is JSON: JSON.parse turns it into an object or array. */
function parsesToDocument(s) {
  try {
    const v = JSON.parse(s);
    return v !== null && typeof v === 'object';
  } catch {
    return false;
  }
}
/**
 * An id as it appears in a ref (the oracle of core's reference.rs, computed another
 * way): UTF-8 percent-encoding of everything but A–Z a–z 0–9 and - . _ ~ : — that is
 * encodeURIComponent, which also leaves ! ' ( ) * alone, plus those, minus ":".
 */
const refSegment = (id) =>
  encodeURIComponent(id)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%3A', ':');
const refOf = (conv, kind, file) => `ctx://${refSegment(conv)}/${kind}/${refSegment(file)}`;
function idProblem(id, ext) {
  if (id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id) || hasLoneSurrogate(id)) return true;
  return Buffer.byteLength(id) + 1 + ext.length > MAX_FILE_NAME_BYTES;
}

// Blessed texts already in the vector files, by vector name.
const previous = new Map();
for (const f of readdirSync(here).filter((f) => f.startsWith(`${PREFIX}-`) && f.endsWith('.json'))) {
  const v = JSON.parse(readFileSync(join(here, f), 'utf8'));
  previous.set(v.name, v);
}

const checks = { summaries: 0, pages: 0, pending: 0 };

/** Builds one vector: each method appends a step whose expectation is computed here. */
class Case {
  constructor(name, description, options = {}) {
    this.name = name;
    this.description = description;
    this.options = { conversationId: 'conv-1', ...options };
    this.limits = { ...DEFAULTS, ...options };
    this.steps = [];
    this.files = new Map();
    // Files outside the user data (batch offload's), by absolute virtual path.
    this.outside = new Map();
    // Each ref minted here → its path under artifacts/ (the raw file name).
    this.refPaths = new Map();
  }
  get conv() {
    return this.options.conversationId;
  }
  /** `{"$core": text}` for expectation `path` of the step being added, text kept from the last bless. */
  core(path, check) {
    return coreAt(this, this.steps.length, path, check);
  }
  artifactDir(kind, userData = '') {
    return `${userData ? `${userData}/` : ''}context/${this.conv}/artifacts/${kind}`;
  }
  step(op, inputs, expect) {
    this.steps.push({ op, ...inputs, expect });
    return this.steps.length - 1;
  }
  fail(op, inputs, code) {
    const message = core(previous.get(this.name)?.steps?.[this.steps.length]?.error?.message);
    if (message.$core === null) checks.pending++;
    this.steps.push({ op, ...inputs, error: { code, message } });
    return this.steps.length - 1;
  }

  /** A tool output (string, Txt or JSON value): inline, materialized, or INVALID_ID. */
  /** `stored`: the text core stores instead (with `redact`: the output, secrets replaced).
   * `overTokens`: the test author's reading of core's token estimate against the tool's
   * `maxInlineTokens` (cases leave wide margins), which this oracle does not compute. */
  materialize(toolCallId, output, { toolName = 'bash', serverName, expectError, stored, overTokens } = {}) {
    const inputs = { toolCallId, toolName, ...(serverName !== undefined ? { serverName } : {}), output };
    const isString = typeof output === 'string' || output instanceof Txt;
    const parts = textParts(output);
    const text = stored ?? (isString ? str(output) : parts !== null ? parts : JSON.stringify(output));
    const isJson = (!isString && parts === null) || parsesToDocument(text);
    return this.#store(
      'tool',
      inputs,
      toolCallId,
      text,
      output,
      isJson ? 'json' : 'txt',
      isJson,
      { toolName, serverName, overTokens },
      expectError,
    );
  }
  terminal(snippetId, text, { expectError } = {}) {
    return this.#store(
      'terminal',
      { snippetId, text },
      snippetId,
      str(text),
      text,
      'log',
      false,
      { toolName: 'terminal' },
      expectError,
    );
  }
  /** Whether an output `text` of `m` from `tool` stays inline: the `tools` entry of the
   * tool, else of "*" (an entry that sets nothing is as if absent), decides alone — an axis
   * it leaves unset has no limit —, else the materializer's own limits. Tokens by the
   * options' `countTokens: "words"` (space-separated words, asked only about text longer
   * in bytes than the limit), else by core's estimate as `overTokens` says. */
  staysInline(tool, m, overTokens, text) {
    const tools = this.options.tools ?? {};
    const set = (e) => (e !== undefined && Object.keys(e).length > 0 ? e : undefined);
    const entry = set(tools[tool]) ?? set(tools['*']);
    const when = entry?.materialize;
    if (when === 'never') return true;
    if (when === 'always') return false;
    const chars = entry === undefined ? this.limits.maxInlineChars : (entry.maxInlineChars ?? Infinity);
    const bytes = entry === undefined ? this.limits.maxInlineBytes : (entry.maxInlineBytes ?? Infinity);
    const tokens = entry?.maxInlineTokens;
    if (this.options.countTokens === 'words') {
      const over = tokens !== undefined && m.bytes > tokens && text.split(' ').length > tokens;
      return m.chars <= chars && m.bytes <= bytes && !over;
    }
    if ((tokens !== undefined && m.chars > tokens / 2) !== (overTokens !== undefined))
      throw new Error(`${this.name}: say overTokens exactly when the estimate decides (${tool})`);
    return m.chars <= chars && m.bytes <= bytes && !overTokens;
  }
  #store(kind, inputs, id, text, output, ext, isJson, { toolName, serverName, overTokens }, expectError) {
    const op = kind === 'tool' ? 'materialize' : 'terminal';
    const m = measure(text);
    // The id is checked whatever the size (room for the shortest extension), then
    // again with the actual extension once the output is to be written.
    const inline = this.staysInline(toolName, m, overTokens, text);
    if (idProblem(id, 'txt') || (!inline && idProblem(id, ext))) {
      if (expectError !== 'INVALID_ID') throw new Error(`${this.name}: ${id} is an invalid id`);
      return this.fail(op, inputs, 'INVALID_ID');
    }
    if (expectError) throw new Error(`${this.name}: ${id} does not fail`);
    // With redact, an inline output comes back as its redacted text when that differs.
    const given = typeof output === 'string' || output instanceof Txt ? str(output) : undefined;
    const redacted = given !== undefined && text !== given;
    if (inline) return this.step(op, inputs, { inline: true, content: redacted ? text : output });
    // A name already holding different content is never overwritten: id-1, id-2, …
    // (one holding the same content is reused).
    let name = id;
    for (let n = 1; ; n++) {
      const held = this.files.get(`${this.artifactDir(kind)}/${name}.${ext}`);
      if (held === undefined || str(held) === wellFormed(text)) break;
      name = `${id}-${n}`;
    }
    const ref = refOf(this.conv, kind, `${name}.${ext}`);
    this.refPaths.set(ref, `${kind}/${name}.${ext}`);
    const path = `${this.artifactDir(kind)}/${name}.${ext}`;
    // A file holds a lone surrogate as U+FFFD, as Node's fs writes it.
    this.files.set(path, output instanceof Txt && str(output) === text ? output : wellFormed(text));
    const hint = { toolName, ...(serverName !== undefined ? { serverName } : {}), toolCallId: id, ...m, isJson };
    const content = this.core(['content'], (s) =>
      checkSummary(s, ref, this.limits.maxInlineChars, `${this.name} ${id}`),
    );
    this.step(op, inputs, { inline: false, content, ref: { kind: 'artifact', id: ref, hint }, path });
    return ref;
  }

  /** A read-back step; `expectError` instead of a page for scope errors. */
  readBack(op, inputs, expectError) {
    if (expectError) return this.fail(op, inputs, expectError);
    const page = this.core([], (s) =>
      checkPage(s, cleanRef(inputs.ref), this.limits.maxInlineChars, `${this.name} step ${this.steps.length}`),
    );
    return this.step(op, inputs, page);
  }
  read(ref, opts = {}, expectError) {
    return this.readBack('read', { ref, ...opts }, expectError);
  }
  tail(ref, opts = {}, expectError) {
    return this.readBack('tail', { ref, ...opts }, expectError);
  }
  grep(ref, pattern, opts = {}, expectError) {
    return this.readBack('grep', { ref, pattern, ...opts }, expectError);
  }
  /** grep without a ref: every artifact of the conversation, one page. */
  grepAll(pattern, opts = {}, expectError) {
    if (expectError) return this.fail('grep', { pattern, ...opts }, expectError);
    const page = this.core([], (s) =>
      checkPage(
        s,
        `ctx://${refSegment(this.conv)}`,
        this.limits.maxInlineChars,
        `${this.name} step ${this.steps.length}`,
      ),
    );
    return this.step('grep', { pattern, ...opts }, page);
  }

  /**
   * materializeMessages over raw messages: every oversize Anthropic tool_result,
   * OpenAI Chat role "tool" message or Responses function_call_output gets a summary;
   * repeated ids with different content are numbered -1, -2 ….
   */
  materializeMessages(messages) {
    const names = new Map();
    const addName = (id, name) =>
      typeof id === 'string' && typeof name === 'string' && !names.has(id) && names.set(id, name);
    for (const m of messages) {
      if (m.type === 'function_call') addName(m.call_id, m.name);
      for (const b of Array.isArray(m.content) ? m.content : []) if (b?.type === 'tool_use') addName(b.id, b.name);
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : [])
        if (c?.type === 'function') addName(c.id, c.function?.name);
    }
    const taken = new Map();
    const refs = [];
    const paths = [];
    const out = [];
    const index = this.steps.length;
    messages.forEach((m, i) => {
      // [block, field, id, form, tool name]: form null writes the summary as a string,
      // else as the AI SDK's { type: form, value }.
      const aiSdk = m.role === 'tool' && Array.isArray(m.content) && m.content.some((p) => p?.type === 'tool-result');
      const errorKinds = ['error-text', 'error-json'];
      const slots = aiSdk
        ? m.content.flatMap((p, j) =>
            p?.type === 'tool-result'
              ? [[j, 'output', p.toolCallId, errorKinds.includes(p.output.type) ? 'error-text' : 'text', p.toolName]]
              : [],
          )
        : m.role === 'tool'
          ? [[null, 'content', m.tool_call_id, null]]
          : m.type === 'function_call_output'
            ? [[null, 'output', m.call_id, null]]
            : m.type === 'function_call_result'
              ? [[null, 'output', m.callId, null, m.name]]
              : Array.isArray(m.content)
                ? m.content.flatMap((b, j) => (b?.type === 'tool_result' ? [[j, 'content', b.tool_use_id, null]] : []))
                : [];
      // The message budget: the fresh results within their limits, largest first (the
      // first of equals), materialized until the rest fit.
      const budgetPicks = new Set();
      const budget = this.options.messageBudgetChars;
      if (budget !== undefined) {
        const fresh = slots.flatMap(([block, field, id, form, ownName], k) => {
          const holder = block === null ? m : m.content[block];
          const value = str(form === null ? holder[field] : holder[field].value);
          const typed = contentParts(value);
          const text = typeof value === 'string' ? value : typed !== null ? typed.joined : JSON.stringify(value);
          const tool = ownName ?? names.get(id) ?? 'tool';
          const never = (this.options.tools?.[tool] ?? this.options.tools?.['*'])?.materialize === 'never';
          return !never && this.staysInline(tool, measure(text), undefined, text) ? [{ k, chars: text.length }] : [];
        });
        let inline = fresh.reduce((n, f) => n + f.chars, 0);
        while (inline > budget) {
          const left = fresh.filter((f) => !budgetPicks.has(f.k));
          if (left.length === 0) break;
          const largest = left.reduce((a, b) => (b.chars > a.chars ? b : a));
          budgetPicks.add(largest.k);
          inline -= largest.chars;
        }
      }
      let copy = m;
      for (const [k, [block, field, id, form, ownName]] of slots.entries()) {
        const holder = block === null ? m : m.content[block];
        const raw = form === null ? holder[field] : holder[field].value;
        const value = str(raw);
        // Text parts are the text they hold, joined with newlines; any other array or
        // value is its JSON.
        // Typed content parts: their texts joined (the other parts, images and files,
        // stay in the message beside the summary); any other array or value: its JSON.
        const typed = contentParts(value);
        const parts = typed === null ? null : typed.joined;
        const others = typed === null ? [] : typed.others;
        const text = typeof value === 'string' ? value : parts !== null ? parts : JSON.stringify(value);
        const { chars, bytes } = measure(text);
        const byWindow = this.windowPicks?.has(id) ?? false;
        const tool = ownName ?? names.get(id) ?? 'tool';
        if (!budgetPicks.has(k) && !byWindow && this.staysInline(tool, { chars, bytes }, undefined, text)) continue;
        let stem = id;
        for (let n = 1; taken.has(stem) && taken.get(stem) !== text; n++) stem = `${id}-${n}`;
        taken.set(stem, text);
        const isJson = (typeof value !== 'string' && parts === null) || parsesToDocument(text);
        const ext = isJson ? 'json' : 'txt';
        const ref = refOf(this.conv, 'tool', `${stem}.${ext}`);
        this.refPaths.set(ref, `tool/${stem}.${ext}`);
        const path = `${this.artifactDir('tool')}/${stem}.${ext}`;
        this.files.set(path, raw instanceof Txt ? raw : text);
        refs.push({
          kind: 'artifact',
          id: ref,
          hint: { toolName: ownName ?? names.get(id) ?? 'tool', toolCallId: id, ...measure(text), isJson },
        });
        paths.push(path);
        if (copy === m) copy = structuredClone(m);
        const at = block === null ? [i, field] : [i, 'content', block, field];
        const kept = others.length > 0;
        const where = [...at, ...(form === null ? [] : ['value']), ...(kept ? [0, 'text'] : [])];
        const summary = this.core(['messages', ...where], (s) =>
          checkSummary(s, ref, this.limits.maxInlineChars, `${this.name} ${stem}`),
        );
        const target = block === null ? copy : copy.content[block];
        const replaced = kept ? [{ type: 'text', text: summary }, ...structuredClone(others)] : summary;
        target[field] = form === null ? replaced : { type: kept ? 'content' : form, value: replaced };
      }
      out.push(copy);
    });
    // structuredClone drops the Txt class: keep the recipes of unchanged messages.
    const unrecognized = messages.flatMap((m, i) => unrecognizedIn(m, i));
    this.step(
      'materializeMessages',
      { messages },
      { messages: out, refs, paths, ...(unrecognized.length > 0 ? { unrecognized } : {}) },
    );
    return index;
  }

  /**
   * budget(messages, opts) where every older result goes: `triggerTokens` 1 and
   * `clearAtLeastTokens` 0, so the target (half the trigger) is never reached and each
   * result before the last `keepLast` — not of `excludeTools`, not already a pointer, every
   * one long enough that its pointer is shorter (asserted: ≥ 600 characters) — is
   * cleared, oldest first; an inline one is stored first (as materializeMessages would
   * name it); a page the read tools returned is cleared to the call that returns it (one
   * whose arguments name the page's ref; else it stays), nothing stored. OpenAI Chat
   * `role: "tool"` results with string content only.
   */
  budget(messages, opts) {
    if (opts.triggerTokens !== 1 || opts.clearAtLeastTokens !== 0)
      throw new Error(`${this.name}: budget oracle needs triggerTokens 1, clearAtLeastTokens 0`);
    const names = new Map();
    const args = new Map();
    for (const m of messages)
      for (const c of m.tool_calls ?? []) {
        if (!names.has(c.id)) names.set(c.id, c.function.name);
        if (!args.has(c.id)) args.set(c.id, c.function.arguments);
      }
    const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
    const older = results.slice(0, Math.max(0, results.length - (opts.keepLast ?? 3)));
    const out = messages.slice();
    const cleared = [];
    const refs = [];
    const paths = [];
    for (const i of older) {
      const m = messages[i];
      const tool = names.get(m.tool_call_id) ?? 'tool';
      const text = str(m.content);
      if ((opts.excludeTools ?? []).includes(tool) || text.startsWith('[Earlier output of ')) continue;
      if (text.length < 600) throw new Error(`${this.name}: budget oracle: result ${i} is too short to be sure`);
      const id = m.tool_call_id;
      const paged = pageRef(text.split('\n')[0]);
      if (paged !== undefined) {
        const input = args.get(id);
        if (input === undefined || !input.includes(paged)) continue;
        const pointer = `[Earlier output of ${tool} (call ${id}, ${text.length.toLocaleString('en')} chars) cleared from the conversation; the same call reads it again: ${tool} ${input}]`;
        out[i] = { ...m, content: pointer };
        cleared.push({ message: i, toolCallId: id, toolName: tool, ref: paged, chars: text.length });
        continue;
      }
      const ref = refOf(this.conv, 'tool', `${id}.txt`);
      this.refPaths.set(ref, `tool/${id}.txt`);
      const path = `${this.artifactDir('tool')}/${id}.txt`;
      this.files.set(path, text);
      refs.push({
        kind: 'artifact',
        id: ref,
        hint: { toolName: tool, toolCallId: id, ...measure(text), isJson: false },
      });
      paths.push(path);
      const pointer = `[Earlier output of ${tool} (call ${id}, ${text.length.toLocaleString('en')} chars) cleared from the conversation; stored as ${ref}: context_read, context_grep]`;
      out[i] = { ...m, content: pointer };
      cleared.push({ message: i, toolCallId: id, toolName: tool, ref, chars: text.length });
    }
    return this.step(
      'budget',
      { messages, ...opts },
      { messages: out, cleared, rewrittenFromMessage: cleared.length > 0 ? cleared[0].message : null, refs, paths },
    );
  }

  /** The bundle of `messages` (the messages of step `source`), whose artifacts are `refs`. */
  exportConversation(source, refs) {
    const artifacts = refs.map((ref) => {
      const path = this.refPaths.get(ref);
      if (path === undefined) throw new Error(`${this.name}: ${ref} was not minted here`);
      const content = this.files.get(`context/${this.conv}/artifacts/${path}`);
      if (content === undefined) throw new Error(`${this.name}: no artifact for ${ref}`);
      return { ref, path, sha256: sha256(str(content)), content };
    });
    const bundle = {
      format: 'tool-offload/conversation',
      version: 1,
      conversationId: this.conv,
      messages: from(source, 'messages'),
      artifacts,
    };
    return this.step('export', { messages: from(source, 'messages') }, bundle);
  }

  /** Import `bundle` (written here, or `$from` an export step with its `artifacts`) under `userData`. */
  importConversation(bundle, { userData, conversationId, messages, artifacts, expectError } = {}) {
    const inputs = { bundle, ...(userData !== undefined ? { userData } : {}) };
    if (expectError) return this.fail('import', inputs, expectError);
    const paths = artifacts.map((a) => {
      const path = `${userData ? `${userData}/` : ''}context/${conversationId}/artifacts/${a.path}`;
      this.files.set(path, a.content);
      return path;
    });
    return this.step('import', inputs, { conversationId, messages, paths });
  }

  toJSON() {
    // Every file by absolute virtual path: the materializer's user data is /data.
    const files = [...this.files]
      .map(([p, c]) => [`/data/${p}`, c])
      .concat([...this.outside])
      .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return {
      name: this.name,
      description: this.description,
      options: this.options,
      steps: this.steps,
      files: Object.fromEntries(files),
    };
  }
}

/** A ref as pages name it: without the quotes or backticks a model wraps it in, and a
 * batch placeholder given whole as the file it names (core's `clean_ref`, for the refs
 * these vectors use). */
function cleanRef(ref) {
  const unwrap = (s) => s.replace(/^[\s`"'<>()[\]{}*]+|[\s`"'<>()[\]{}*.,;:!?]+$/g, '');
  const text = unwrap(ref);
  const file = ['Content offloaded to: ', 'Tool result offloaded to file: '].find((p) => text.startsWith(p));
  return file ? unwrap(text.slice(file.length)) : text;
}

/** Shape rules every summary obeys. */
function checkSummary(s, ref, maxChars, where) {
  const fail = (why) => {
    throw new Error(`${where}: summary ${why}:\n${s}`);
  };
  const [first, ...rest] = s.split('\n');
  if (!first.startsWith('[Output of ') || !first.includes(` stored as ${ref} `) || !first.endsWith(']'))
    fail('does not start with the pointer');
  if (!rest.some((l) => l.startsWith('Size: '))) fail('has no Size: line');
  // A JSON summary advises reading by path; a document's, a part by line; every other,
  // the tail.
  const grep = ` or context_grep("${ref}", "`;
  const advice =
    s.includes(`If you need more: context_tail("${ref}", 200)${grep}`) ||
    ((s.includes(`If you need more: context_read("${ref}", path="$`) ||
      s.includes(`If you need more: context_read("${ref}", offset=`)) &&
      s.includes(grep));
  if (!advice || !s.endsWith('", ignore_case: true).')) fail('has no reading advice');
  if (s.length >= maxChars) fail(`is ${s.length} units, not under ${maxChars}`);
  // Preview lines are numbered (`12| …`); a cut one ends with the marker.
  const tooLong = (l) =>
    /^\d+\| /.test(l) &&
    l.replace(/^\d+\| /, '').replace(/ …\[cut: \d+ more characters\]$/, '').length > MAX_PREVIEW_CHARS;
  if (rest.some(tooLong)) fail(`has a preview line over ${MAX_PREVIEW_CHARS} + marker`);
  checks.summaries++;
}

/** Shape rules every read/tail/grep page obeys. */
function checkPage(s, ref, maxChars, where) {
  if (!s.startsWith(`[${ref}: `)) throw new Error(`${where}: page does not start with its header:\n${s.slice(0, 200)}`);
  if (s.length > maxChars) throw new Error(`${where}: page is ${s.length} units, over ${maxChars}`);
  checks.pages++;
}

// ---------------------------------------------------------------------------------
// Inputs.

/** A build log of `n` lines; lines listed in `errors` (1-based) mention an error. */
function buildLog(n, errors = {}) {
  const lines = [];
  for (let i = 1; i <= n; i++) lines.push(errors[i] ?? `   Compiling crate_${i} v0.1.${i} (/work/crates/crate_${i})`);
  return lines.join('\n') + '\n';
}
/** `n` numbered log lines. */
const numbered = (n, width = 0) =>
  Array.from({ length: n }, (_, i) => `${String(i + 1).padStart(width, '0')} INFO step ${i + 1} done`).join('\n');

/** `{"$core": text}` for expectation `path` of step `index` of case `c`, text kept from the last bless. */
function coreAt(c, index, path, check) {
  let old = previous.get(c.name)?.steps?.[index]?.expect;
  for (const key of path) old = old?.[key];
  const text = old !== null && typeof old === 'object' && '$core' in old ? old.$core : null;
  if (text === null) checks.pending++;
  else check(text);
  return { $core: text };
}

const cases = [];
const add = (c) => (cases.push(c), c);

{
  const c = add(
    new Case(
      'chars-limit',
      'Default limits: exactly 4000 UTF-16 units stay inline (content returned as given); 4001 are materialized to a .txt artifact with a summary.',
    ),
  );
  c.materialize('call_4000', rep('abcdefghi\n', 400));
  c.materialize('call_4001', new Txt([['abcdefghi\n', 400], '!']));
}
{
  const c = add(
    new Case(
      'bytes-limit-multibyte',
      'maxInlineChars 10000 isolates the byte limit: 585 lines of nine "€" (3 bytes each) + "abcd" is exactly 16384 bytes (5854 units) and stays inline; one more byte is materialized although it is far under the character limit.',
      { maxInlineChars: 10000 },
    ),
  );
  c.materialize('call_16384', new Txt([['€€€€€€€€€\n', 585], 'abcd']));
  c.materialize('call_16385', new Txt([['€€€€€€€€€\n', 585], 'abcde']));
}
{
  const c = add(
    new Case(
      'bytes-limit-small',
      'maxInlineBytes 2000 with the default 4000 characters: bytes trip first. 666 × "€" + "aa" (2000 bytes, 668 units) and 500 × "😀" (2000 bytes, 1000 units) stay inline; 667 × "€" (2001 bytes) and 501 × "😀" (2004 bytes) are materialized, their summaries within a third of the byte limit.',
      { maxInlineBytes: 2000 },
    ),
  );
  c.materialize('euro_2000', rep('€', 666).text + 'aa');
  c.materialize('euro_2001', rep('€', 667));
  c.materialize('emoji_2000', rep('😀', 500));
  c.materialize('emoji_2004', rep('😀', 501));
}
{
  const c = add(
    new Case(
      'defaults-multibyte',
      'Default limits count UTF-16 units, not code points: 4000 × "€" (12000 bytes) and 2000 × "😀" (4000 units, 8000 bytes) stay inline; 2001 × "😀" (4002 units) is materialized, one line far over 500 characters, so the summary cuts its preview with a marker.',
    ),
  );
  c.materialize('euro_4000', rep('€', 4000));
  c.materialize('emoji_2000', rep('😀', 2000));
  c.materialize('emoji_2001', rep('😀', 2001));
  c.materialize('mixed', rep('é中😀a\n', 700));
}
{
  const items = Array.from({ length: 120 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['a', 'b'],
    ok: i % 2 === 0,
    score: i / 4,
  }));
  const c = add(
    new Case(
      'json-value-output',
      'A non-string output is measured and written as its JSON.stringify (one long line): a .json artifact with isJson; small values stay inline, returned as given. An array of text parts is the texts it holds joined with newlines (.txt).',
    ),
  );
  c.materialize(
    'call_obj',
    { items, total: items.length, next: null },
    { toolName: 'list_items', serverName: 'inventory' },
  );
  c.materialize(
    'call_arr',
    items.map((i) => i.name),
  );
  c.materialize('call_small', { ok: true, n: [1, 2.5, -3] });
  c.materialize('call_number', 12345);
  // Text parts (MCP CallToolResult content, Anthropic text blocks) are the text they hold.
  c.materialize(
    'call_parts',
    [
      { type: 'text', text: numbered(300) },
      { type: 'text', text: 'done' },
    ],
    { toolName: 'fetch', serverName: 'web' },
  );
}
{
  const doc = JSON.stringify(
    { rows: Array.from({ length: 80 }, (_, i) => ({ line: i + 1, text: `row ${i + 1}` })) },
    null,
    2,
  );
  const c = add(
    new Case(
      'json-string-output',
      'A string output is .json only when JSON.parse turns it into an object or array (leading whitespace allowed); a huge number, a JSON string literal and invalid JSON that merely looks like it are .txt.',
    ),
  );
  c.materialize('pretty_object', doc);
  c.materialize('padded_array', '\n\t ' + JSON.stringify(Array.from({ length: 700 }, (_, i) => i)) + '\n');
  c.materialize('number_text', rep('1', 4500));
  c.materialize('string_literal', new Txt(['"', ['ab', 2200], '"']));
  c.materialize('trailing_comma', new Txt(['[', ['1,', 2200], ']']));
  c.materialize('unclosed', new Txt(['{"a": "', ['x', 4200]]));
  c.materialize('not_json', new Txt(['{', ['not json ', 500], '}']));
  c.materialize('duplicate_keys', new Txt(['{"a": 1, "a": 2}', [' ', 4000]]));
  c.materialize('bom_first', new Txt(['\ufeff[1]', [' ', 4000]]));
  c.materialize('nbsp_first', new Txt(['\u00a0[1]', [' ', 4000]]));
}
// JSON.parse accepts these (serde_json would not): core checks JSON syntax itself.
{
  const c = add(
    new Case(
      'json-string-edge-cases',
      'Strings JSON.parse turns into arrays although serde_json refuses them by default: nesting deeper than 128, a lone surrogate escape, a number beyond the f64 range. All .json.',
    ),
  );
  c.materialize(
    'deep',
    new Txt([
      ['[', 200],
      [']', 200],
      [' ', 4000],
    ]),
  );
  c.materialize('lone_surrogate', new Txt(['["\\ud800"]', [' ', 4000]]));
  c.materialize('huge_number', new Txt(['[1e400]', [' ', 4000]]));
}
{
  const log = buildLog(600, {
    120: 'warning: unused variable `x`',
    300: 'error[E0308]: mismatched types --> src/main.rs:42:24',
    301: '   = note: expected `u32`, found `String`',
    410: 'Traceback (most recent call last):',
    411: '  File "build.py", line 7, in <module>',
    412: 'ValueError: bad input',
    500: "thread 'main' panicked at src/lib.rs:9:5",
    550: 'FATAL: disk quota exceeded',
    580: 'test tests::it_works ... FAILED',
    599: 'error: could not compile `agent` due to 1 previous error',
  });
  const c = add(
    new Case(
      'summary-errors-section',
      'A 600-line build log: the summary has the pointer first, sizes, 40 head and 40 tail lines with the omitted count between, and an errors section (error/exception/traceback/panic/fatal/failed, case-insensitive) bounded to the first few with context, all under 4000 units.',
    ),
  );
  c.materialize('call_build', log, { toolName: 'run_build', serverName: 'ci' });
  c.grep('ctx://conv-1/tool/call_build.txt', 'error|exception|traceback|panic|fatal|failed', {
    context: 0,
    ignoreCase: true,
  });
}
{
  const c = add(
    new Case(
      'id-reuse-never-overwrites',
      'The same call id with different content (a reused id, a second turn): the second artifact is call_1-1.txt, the first is kept; the same content again reuses call_1.txt. Terminal snippets likewise.',
    ),
  );
  c.materialize('call_1', buildLog(300, { 10: 'error: first run' }));
  c.materialize('call_1', buildLog(300, { 20: 'error: second run' }));
  c.materialize('call_1', buildLog(300, { 10: 'error: first run' }));
  c.terminal('t', rep('$ make\n', 800));
  c.terminal('t', rep('$ make test\n', 800));
}
{
  const c = add(
    new Case(
      'summary-snippet-bytes',
      'snippetBytes 1024 with the default 40 lines: head and tail each stop at 1 KB of line text (newlines included): 10 lines of 99 digits.',
      { snippetBytes: 1024 },
    ),
  );
  c.materialize('call_digits', Array.from({ length: 100 }, (_, i) => String(i + 1).padStart(99, '0')).join('\n'));
}
{
  const c = add(
    new Case(
      'summary-small-limits',
      'maxInlineChars 700 and snippetLines 5: head, tail and the errors section shrink until the summary is under 700 units (a 1200-unit middle line is then simply among the omitted ones).',
      { maxInlineChars: 700, snippetLines: 5 },
    ),
  );
  c.materialize('call_small', buildLog(50, { 25: 'error: one' }));
  c.materialize('call_wide', new Txt(['short first line\n', ['w', 1200], '\nlast line']));
}
{
  // Files an agent read, as harnesses print them: Claude Code's `Read` (`     1→`), and
  // OpenHands' `str_replace_editor view` (a header line, then `cat -n`).
  const gutter = (lines) => lines.map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n') + '\n';
  const spec = [
    '# Ingest Service Specification',
    '',
    'How `ingest_worker` moves records from `source_queue` into `records_db`.',
    '',
  ];
  for (const [n, part] of ['Overview', 'Data Structures', 'Error Handling', 'Configuration', 'Operations'].entries()) {
    spec.push(`## ${n + 1}. ${part}`, '');
    for (const sub of ['Scope', 'Rules', 'Examples']) {
      spec.push(`### ${part} ${sub}`, '');
      for (let k = 0; k < 6; k++) {
        spec.push(
          `The ${sub.toLowerCase()} of ${part.toLowerCase()} apply to \`${part.toLowerCase().replace(' ', '_')}_${sub.toLowerCase()}_${k}\` as stated.`,
        );
      }
      spec.push('');
    }
    if (part === 'Data Structures') {
      spec.push(
        '```yaml',
        'IngestRecord:',
        '  record_id: string',
        '  source_offset: integer',
        '  payload_bytes: bytes',
        '',
      );
      spec.push(
        'IngestFailure:',
        '  record_id: string',
        '  error_code: string   # e.g. "INGEST_001_BAD_SCHEMA"',
        '```',
        '',
      );
    }
  }
  const py = [
    '"""Stage a release."""',
    'import argparse',
    'import json',
    '',
    'from pathlib import Path',
    '',
    '',
    'class Stager:',
  ];
  py.push('    """Copies files."""', '', '    def __init__(self, source_dir: Path, dry_run: bool = False) -> None:');
  py.push('        self.source_dir = source_dir', '        self.dry_run = dry_run', '');
  for (let k = 0; k < 12; k++) {
    py.push(
      `    def stage_${k}(self, target_dir: Path) -> int:`,
      `        """Stage part ${k}; an error here is retried."""`,
    );
    for (let j = 0; j < 8; j++) py.push(`        copied_${k}_${j} = self.copy_tree(target_dir / "part_${k}")`);
    py.push(`        return copied_${k}_0`, '');
  }
  py.push(
    '',
    'def main() -> None:',
    '    parser = argparse.ArgumentParser()',
    '    Stager(Path(".")).stage_0(Path("out"))',
    '',
  );
  py.push('', 'if __name__ == "__main__":', '    main()');
  const cLines = ['#include "match.h"', '#include <stdio.h>', ''];
  for (let k = 0; k < 10; k++) {
    cLines.push(`static ast_t* make_type_${k}(pass_opt_t* opt, ast_t* pattern)`, '{');
    for (let j = 0; j < 14; j++) cLines.push(`  ast_t* node_${k}_${j} = ast_child(pattern);`);
    cLines.push('  return NULL;', '}', '');
  }
  const c = add(
    new Case(
      'summary-documents',
      "A file the agent read is summarised as a map, not as a log: each heading, definition (a source file's, a document's code-block records) and import block with the lines it spans, the names first seen in each, no head or tail lines, no error vocabulary; the hint reads the first part and greps a defined name, and both work.",
    ),
  );
  const specRef = c.materialize('call_spec', gutter(spec), { toolName: 'Read' });
  c.read(specRef, { offset: 4, limit: 37 });
  c.grep(specRef, 'IngestRecord', { ignoreCase: true });
  c.materialize('call_py', gutter(py), { toolName: 'Read' });
  const cat = cLines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n');
  c.materialize('call_c', `Here's the result of running \`cat -n\` on /workspace/src/match.c:\n${cat}\n`, {
    toolName: 'str_replace_editor',
  });
}
{
  const c = add(
    new Case(
      'terminal',
      'Terminal output: inline under the limits; over them written to artifacts/terminal/<snippetId>.log (never .json), ref ctx://<conv>/terminal/<id>.log, readable at once; an unsafe snippet id is INVALID_ID.',
    ),
  );
  c.terminal('snip-small', 'ok\n');
  const ref = c.terminal(
    'snip-1',
    new Txt([['$ cargo test\n', 1], ['test a ... ok\n', 400], 'test result: FAILED. 399 passed; 1 failed\n']),
  );
  c.tail(ref, { lines: 3 });
  c.terminal('../escape', rep('z\n', 3000), { expectError: 'INVALID_ID' });
  c.terminal('json-looking', new Txt(['[', ['1,', 2500], '1]']));
}
{
  const log = numbered(300) + '\n';
  const c = add(
    new Case(
      'read-pages',
      'read: defaults (offset 0, limit 200) cut to fit 4000 units with a "More:" offset; a middle window; the last row; offset past the end; limit 0. tail: default 200 rows cut from the end, 3 rows, 0 rows.',
    ),
  );
  const ref = c.materialize('call_log', log);
  c.read(ref);
  c.read(ref, { offset: 100, limit: 5 });
  c.read(ref, { offset: 299, limit: 200 });
  c.read(ref, { offset: 300 });
  c.read(ref, { offset: 1000, limit: 10 });
  c.read(ref, { offset: 0, limit: 0 });
  c.tail(ref);
  c.tail(ref, { lines: 3 });
  c.tail(ref, { lines: 0 });
  c.tail(ref, { lines: 1000 });
}
{
  const c = add(
    new Case(
      'read-huge-line',
      'A line of 5000 units between two short ones is read as parts 2.1, 2.2, 2.3 (2000 units each at most); offset counts lines (offset 2 is line 3, whatever the parts before) and part starts inside a line; a page holds what fits; grep finds a token in the middle part and labels its window with the character it starts at (2.2@2300), which char reads from (char wins over part; past the end of the line a page says so); a surrogate pair on a part boundary is never split.',
    ),
  );
  const ref = c.materialize(
    'call_huge',
    new Txt(['first\n', ['0123456789', 250], 'NEEDLE', ['abcdefghij', 249], 'abc\nlast\n']),
  );
  c.read(ref);
  c.read(ref, { offset: 1, part: 2, limit: 1 });
  c.read(ref, { offset: 1, part: 3 });
  c.read(ref, { offset: 2 });
  c.read(ref, { offset: 3 });
  c.tail(ref, { lines: 2 });
  c.grep(ref, 'NEEDLE', { context: 0 });
  // The grep window's label `2.2@2300` read back from that character; past the line's end.
  c.read(ref, { offset: 1, char: 2300, limit: 1 });
  c.read(ref, { offset: 1, char: 2000, part: 3, limit: 1 });
  c.read(ref, { offset: 1, char: 5006 });
  const pair = c.materialize('call_pair', new Txt([['a', 1999], '😀', ['b', 2500]]));
  c.read(pair, { limit: 1 });
  c.read(pair, { offset: 0, part: 2, limit: 1 });
}
{
  const c = add(
    new Case(
      'one-huge-line',
      'One line of 10000 units, no newline: the summary cuts its preview with a marker; read pages one 2000-unit part at a time; tail 1 is the last part.',
    ),
  );
  const ref = c.materialize('call_line', new Txt([['x', 4999], 'MIDDLE', ['y', 4995]]));
  c.read(ref);
  c.read(ref, { offset: 4 });
  c.tail(ref, { lines: 1 });
  c.grep(ref, 'MIDDLE');
}
{
  const lines = [];
  for (let i = 1; i <= 120; i++) {
    lines.push(
      i % 20 === 7
        ? `E${i}: Error: connection refused (attempt ${i})`
        : i === 50
          ? 'java.lang.IllegalStateException: boom'
          : `ok ${i}`,
    );
  }
  const c = add(
    new Case(
      'grep',
      'grep: numbered matches with 2 rows of context by default, adjacent groups merged and others separated by "--"; context 0; maxMatches; ignoreCase; no match; an unclosed group or class is INVALID_PATTERN.',
    ),
  );
  const ref = c.materialize('call_grep', rep(lines.join('\n') + '\n', 1).text + rep('padding line\n', 300).text);
  c.grep(ref, 'Error|Exception');
  c.grep(ref, 'Error', { context: 0, maxMatches: 2 });
  c.grep(ref, 'error', {});
  c.grep(ref, 'error', { ignoreCase: true, context: 1 });
  c.grep(ref, '^ok 1[0-2]$', { context: 3 });
  c.grep(ref, 'no such text');
  c.grep(ref, 'padding', { context: 0 });
  c.grep(ref, '(', {}, 'INVALID_PATTERN');
  c.grep(ref, '[a-', {}, 'INVALID_PATTERN');
}
{
  const c = add(
    new Case(
      'grep-patterns',
      'grep runs one linear-time engine in core on every host: (a+)+$ over a row of 1999 "a" then "b" returns (a backtracking engine never does); ignoreCase folds ASCII letters only (É and é stay distinct); a pattern of 1000 characters is allowed, 1001 is INVALID_PATTERN; look-around, backreferences and \\p{…} classes (valid in JavaScript) and a counted repetition past the compiled-size limit are INVALID_PATTERN.',
    ),
  );
  const ref = c.materialize(
    'call_runs',
    new Txt([['a', 1999], 'b\naaaa\nÉCHEC: disque\néchec: réseau\nERROR: disk\n', ['ok\n', 1000]]),
  );
  c.grep(ref, '(a+)+$', { context: 0 });
  c.grep(ref, 'échec', { ignoreCase: true, context: 0 });
  c.grep(ref, 'ÉCHEC', { ignoreCase: true, context: 0 });
  c.grep(ref, 'error', { ignoreCase: true, context: 0 });
  c.grep(ref, rep('a', 1000), { context: 0 });
  c.grep(ref, rep('a', 1001), {}, 'INVALID_PATTERN');
  c.grep(ref, '(?=a)a', {}, 'INVALID_PATTERN');
  c.grep(ref, '(?<!b)a', {}, 'INVALID_PATTERN');
  c.grep(ref, '(a)\\1', {}, 'INVALID_PATTERN');
  c.grep(ref, '\\p{L}', {}, 'INVALID_PATTERN');
  c.grep(ref, 'a{1000}{1000}', {}, 'INVALID_PATTERN');
}
{
  const c = add(
    new Case(
      'grep-classes',
      "grep finds the same rows on every host for each class of pattern models write (issue 33), whichever path answers (a substring search, the required-literal prefilter, the lazy DFA): the literal `out of range` finds lines 3 and 5; `panic|fatal|out of range` 3, 5 and 6 (`panicked`; not `FATAL`); `panic: runtime` with ignoreCase and `(?i)panic: runtime` both line 5; `order=\\d{7}\\b` lines 1 and 2; `\\bPanic\\b` line 5, not `Panicking` (10); `ERROR.*out of range` line 3; `^ERROR thread` line 3, not line 9's `ERRORS`; `\\d+ms$` line 1; `\\[\\d+\\] with` line 3; `\\d{7}\\b` lines 1, 2 and 8 (`12345678`: seven digits then a word end), not line 9's `order=123456`; 64 literal words (searched word by word) and 65 (matched by the DFA) both find line 7 (`FATAL`) only.",
    ),
  );
  const log =
    '2026-11-23T12:00:00Z INFO worker 1 processed order=1234567 item 1 in 5ms\n' +
    '2026-11-23T12:00:01Z WARN pool 2 slow: waited 900ms for order=7654321\n' +
    'ERROR thread main: index out of range [7] with length 3\n' +
    'goroutine 1 [running]:\n' +
    'Panic: runtime error: index out of range\n' +
    "thread 'main' panicked at src/main.rs:4:5\n" +
    'FATAL: disk full\n' +
    'id=12345678\n' +
    'ERRORS counted: 3, order=123456\n' +
    'Panicking is not a word match\n';
  const ref = c.materialize('call_classes', new Txt([log, ['ok\n', 2000]]));
  const words = (n) =>
    Array.from({ length: n - 1 }, (_, i) => `w${i}x`)
      .concat('FATAL')
      .join('|');
  for (const [pattern, options] of [
    ['out of range', {}],
    ['panic|fatal|out of range', {}],
    ['panic: runtime', { ignoreCase: true }],
    ['(?i)panic: runtime', {}],
    ['order=\\d{7}\\b', {}],
    ['\\bPanic\\b', {}],
    ['ERROR.*out of range', {}],
    ['^ERROR thread', {}],
    ['\\d+ms$', {}],
    ['\\[\\d+\\] with', {}],
    ['\\d{7}\\b', {}],
    [words(64), {}],
    [words(65), {}],
  ]) {
    c.grep(ref, pattern, { context: 0, ...options });
  }
}
{
  const c = add(
    new Case(
      'empty-artifacts',
      'An empty artifact (only possible by import: "" is always inline) reads as empty for read, tail and grep; an artifact of blank lines has rows.',
    ),
  );
  const artifacts = [
    { ref: 'ctx://conv-1/tool/empty.txt', path: 'tool/empty.txt', sha256: sha256(''), content: '' },
    { ref: 'ctx://conv-1/terminal/blank.log', path: 'terminal/blank.log', sha256: sha256('\n\n\n'), content: '\n\n\n' },
  ];
  const bundle = { format: 'tool-offload/conversation', version: 1, conversationId: 'conv-1', messages: [], artifacts };
  c.importConversation(bundle, { conversationId: 'conv-1', messages: [], artifacts });
  c.read('ctx://conv-1/tool/empty.txt');
  c.tail('ctx://conv-1/tool/empty.txt');
  c.grep('ctx://conv-1/tool/empty.txt', 'x');
  c.read('ctx://conv-1/terminal/blank.log');
  c.tail('ctx://conv-1/terminal/blank.log', { lines: 2 });
  c.grep('ctx://conv-1/terminal/blank.log', '^$', { context: 0 });
}
{
  const c = add(
    new Case(
      'scope-errors',
      "A materializer reads only its own conversation's artifacts: another conversation (even when its file exists), a path climbing out, an unknown kind or a non-ref is REF_OUT_OF_SCOPE; an in-scope ref without a file is REF_NOT_FOUND.",
    ),
  );
  const ref = c.materialize('call_1', rep('line\n', 1000));
  const other = [
    { ref: 'ctx://conv-2/tool/call_1.txt', path: 'tool/call_1.txt', sha256: sha256('other\n'), content: 'other\n' },
  ];
  c.importConversation(
    { format: 'tool-offload/conversation', version: 1, conversationId: 'conv-2', messages: [], artifacts: other },
    { conversationId: 'conv-2', messages: [], artifacts: other },
  );
  c.read(ref, { limit: 1 });
  c.read('ctx://conv-2/tool/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.tail('ctx://conv-2/tool/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.grep('ctx://conv-2/tool/call_1.txt', 'other', {}, 'REF_OUT_OF_SCOPE');
  c.read('ctx://conv-1/tool/../x.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('ctx://conv-1/tool/../../conv-2/artifacts/tool/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('ctx://conv-1/secrets/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('ctx://conv-1/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('/etc/passwd', {}, 'REF_OUT_OF_SCOPE');
  c.read('context/conv-1/artifacts/tool/call_1.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('ctx://conv-1/tool/missing.txt', {}, 'REF_NOT_FOUND');
  c.tail('ctx://conv-1/terminal/missing.log', {}, 'REF_NOT_FOUND');
  c.grep('ctx://conv-1/tool/missing.json', 'x', {}, 'REF_NOT_FOUND');
}
{
  const big = rep('data\n', 1000);
  const c = add(
    new Case(
      'invalid-ids',
      'A tool call id that cannot name a file is INVALID_ID and nothing is written: "../x", "a/b", "..", "", a NUL, and a name over 255 bytes with its extension (251 bytes + ".txt" is allowed, 252 is not; 250 + ".json" is allowed, 251 is not). The id is checked whatever the size of the output: a small output with "../small" is INVALID_ID too.',
    ),
  );
  for (const id of ['../x', 'a/b', 'a\\b', '..', '.', '', 'nul\u0000id'])
    c.materialize(id, big, { expectError: 'INVALID_ID' });
  c.materialize('i'.repeat(251), big);
  c.materialize('j'.repeat(252), big, { expectError: 'INVALID_ID' });
  c.materialize('k'.repeat(250), { list: big.text });
  c.materialize('l'.repeat(251), { list: big.text }, { expectError: 'INVALID_ID' });
  c.materialize('../small', 'small output', { expectError: 'INVALID_ID' });
}
{
  const c = add(
    new Case(
      'lone-surrogates',
      'Output cut mid-emoji ends in a lone UTF-16 surrogate: no error. Measured as JS does (1 unit, 3 bytes: 4000 units with one stay inline, returned as they were); written, summarised and read back as U+FFFD. (Ids holding one are INVALID_ID: host-node/test/lone-surrogates.test.ts, as a Rust host cannot be given one.)',
    ),
  );
  c.materialize('at_limit', 'a'.repeat(3999) + '\uD83D');
  const ref = c.materialize('cut', 'line\n'.repeat(1000) + 'end \uD83D');
  c.tail(ref, { lines: 2 });
  c.terminal('term_cut', 'output\n'.repeat(800) + 'cut \uDC00');
}
const anthropic = () => [
  { role: 'user', content: 'Build the project and list the files.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Running both.' },
      { type: 'tool_use', id: 'toolu_build', name: 'bash', input: { cmd: 'cargo build' } },
      { type: 'tool_use', id: 'toolu_ls', name: 'ls', input: {} },
      { type: 'tool_use', id: 'toolu_json', name: 'query', input: {} },
      { type: 'tool_use', id: 'toolu_mcp', name: 'fetch', input: {} },
    ],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_build',
        content: buildLog(300, { 150: 'error: linker failed' }),
        is_error: true,
      },
      { type: 'tool_result', tool_use_id: 'toolu_ls', content: 'Cargo.toml\nsrc\n' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_json',
        content: [
          { type: 'text', text: rep('row,', 1100).text },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_mcp',
        content: [
          { type: 'text', text: buildLog(150, { 70: 'error: fetch failed' }) },
          { type: 'text', text: 'page 2\n'.repeat(400) },
        ],
      },
      // A server-side tool result (Anthropic's MCP connector): no shape we read, reported.
      {
        type: 'mcp_tool_result',
        tool_use_id: 'mcptoolu_1',
        is_error: false,
        content: [{ type: 'text', text: 'x'.repeat(5000) }],
      },
      { type: 'text', text: 'Here you go.' },
    ],
  },
  { role: 'assistant', content: 'The build failed.' },
];
{
  const c = add(
    new Case(
      'messages-anthropic',
      'materializeMessages on an Anthropic conversation: the oversize string tool_result (.txt), the oversize content of text blocks (their texts joined with newlines, .txt) and the oversize content of a text block and an image (the text to .txt, the summary replacing it while the image stays beside it) get summaries, tool names come from the tool_use blocks; small results and other messages are unchanged. Run again on its own output: nothing changes, no refs (idempotent).',
    ),
  );
  const first = c.materializeMessages(anthropic());
  c.step(
    'materializeMessages',
    { messages: from(first, 'messages') },
    // Reported again on every call: nothing we know was done to it.
    { messages: from(first, 'messages'), refs: [], paths: [], unrecognized: ['messages[2].content[4]'] },
  );
}
{
  const c = add(
    new Case(
      'messages-ai-sdk',
      'materializeMessages on Vercel AI SDK messages: each oversize tool-result part gets its summary as an output the SDK accepts ({ type: "text", value } or, for an error, { type: "error-text", value }); a content output of text parts is its texts joined (.txt), its file part staying beside the summary in a content output; tool names come from the parts; idempotent on its own output.',
    ),
  );
  const first = c.materializeMessages([
    { role: 'user', content: [{ type: 'text', text: 'Check the service.' }] },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'call_logs', toolName: 'logs', input: {} },
        { type: 'tool-call', toolCallId: 'call_page', toolName: 'fetch', input: {} },
        { type: 'tool-call', toolCallId: 'call_fail', toolName: 'deploy', input: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_logs',
          toolName: 'logs',
          output: { type: 'text', value: buildLog(200, { 99: 'error: disk full' }) },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_page',
          toolName: 'fetch',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'line\n'.repeat(900) },
              { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              { type: 'text', text: 'end' },
            ],
          },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_fail',
          toolName: 'deploy',
          output: { type: 'error-text', value: 'failed\n'.repeat(700) },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_small',
          toolName: 'ls',
          output: { type: 'json', value: { files: 2 } },
        },
      ],
    },
  ]);
  c.step(
    'materializeMessages',
    { messages: from(first, 'messages') },
    { messages: from(first, 'messages'), refs: [], paths: [] },
  );
}
{
  const c = add(
    new Case(
      'messages-openai',
      'materializeMessages on OpenAI Chat (role "tool", names from tool_calls) and Responses (function_call_output, names from function_call) items; a result with no matching call is named "tool"; idempotent on its own output.',
    ),
  );
  const first = c.materializeMessages([
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Run the tests.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_test', type: 'function', function: { name: 'run_tests', arguments: '{}' } },
        { id: 'call_cat', type: 'function', function: { name: 'cat', arguments: '{"path":"a"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_test', content: numbered(400) + '\ntest result: FAILED' },
    { role: 'tool', tool_call_id: 'call_cat', content: 'fn main() {}' },
    { type: 'function_call', call_id: 'fc_1', name: 'search', arguments: '{}' },
    { type: 'function_call_output', call_id: 'fc_1', output: rep('hit: src/lib.rs\n', 300).text },
    { role: 'tool', tool_call_id: 'call_orphan', content: rep('orphan ', 700).text },
    { role: 'assistant', content: 'Tests fail.' },
  ]);
  c.step(
    'materializeMessages',
    { messages: from(first, 'messages') },
    { messages: from(first, 'messages'), refs: [], paths: [] },
  );
}
{
  const c = add(
    new Case(
      'messages-duplicate-ids',
      'Two oversize results with one id but different content: the second is written to <id>-1 so neither overwrites the other; a third with the same content as the first shares its artifact.',
    ),
  );
  const a = rep('first version\n', 400).text;
  c.materializeMessages([
    { role: 'tool', tool_call_id: 'call_dup', content: a },
    { role: 'tool', tool_call_id: 'call_dup', content: rep('second version\n', 400).text },
    { role: 'tool', tool_call_id: 'call_dup', content: a },
  ]);
}
{
  const c = add(
    new Case(
      'messages-repeated-end',
      'Boilerplate no wrapper marks: an end (at least 64 bytes, starting a line) that an output shares with an earlier output of the conversation is named in one line after the tail instead of shown; the first output shows it; a shared end holding a failure line is shown; an output identical to an earlier one is shown as itself.',
    ),
  );
  const footer = '\n---\nSandbox: workspace-write; network disabled.\nTokens left in this session: plenty.\n';
  const verdict = '\nerror: could not compile `app` (bin "app") due to 2 previous errors\n';
  c.materializeMessages([
    { role: 'tool', tool_call_id: 'call_ls', content: numbered(300) + footer },
    { role: 'tool', tool_call_id: 'call_find', content: rep('src/lib.rs\n', 400).text + footer },
    { role: 'tool', tool_call_id: 'call_build1', content: rep('   Compiling a v0.1.0\n', 300).text + verdict },
    { role: 'tool', tool_call_id: 'call_build2', content: rep('   Compiling b v0.1.0\n', 300).text + verdict },
    { role: 'tool', tool_call_id: 'call_again', content: rep('src/lib.rs\n', 400).text + footer },
  ]);
}
{
  const c = add(
    new Case(
      'export-import-roundtrip',
      'materializeMessages, then exportConversation: the messages and every referenced artifact with its SHA-256. Importing it under another userData restores identical files, and a materializer there reads the refs; importing again over identical files succeeds.',
    ),
  );
  const first = c.materializeMessages(anthropic());
  const refs = [
    'ctx://conv-1/tool/toolu_build.txt',
    'ctx://conv-1/tool/toolu_json.txt',
    'ctx://conv-1/tool/toolu_mcp.txt',
  ];
  const exported = c.exportConversation(first, refs);
  const artifacts = c.steps[exported].expect.artifacts;
  c.importConversation(from(exported), {
    userData: 'restored',
    conversationId: 'conv-1',
    messages: from(first, 'messages'),
    artifacts,
  });
  c.read(refs[0], { offset: 149, limit: 3, userData: 'restored' });
  c.grep(refs[1], 'row,row', { maxMatches: 1, context: 0, userData: 'restored' });
  c.importConversation(from(exported), {
    userData: 'restored',
    conversationId: 'conv-1',
    messages: from(first, 'messages'),
    artifacts,
  });
  c.exportConversation(first, refs);
}
{
  const content = rep('original line\n', 400);
  const good = { ref: 'ctx://conv-1/tool/call_t.txt', path: 'tool/call_t.txt', sha256: sha256(content.text), content };
  const bundle = (artifacts, extra = {}) => ({
    format: 'tool-offload/conversation',
    version: 1,
    conversationId: 'conv-1',
    messages: [{ role: 'tool', tool_call_id: 'call_t', content: 'see ctx://conv-1/tool/call_t.txt' }],
    artifacts,
    ...extra,
  });
  const c = add(
    new Case(
      'import-refused',
      'importConversation checks everything before writing: content changed but hash not, a ref climbing out of the artifacts, a path that does not match its ref, a ref the messages name but the bundle lacks, a wrong format or version: all INVALID_BUNDLE, nothing written.',
    ),
  );
  const fail = (b) => c.importConversation(b, { expectError: 'INVALID_BUNDLE' });
  fail(bundle([{ ...good, content: new Txt([['original line\n', 399], 'tampered line\n']) }]));
  fail(bundle([{ ...good, sha256: sha256('something else') }]));
  fail(bundle([good, { ref: 'ctx://conv-1/tool/../../x', path: 'tool/../../x', sha256: sha256('x'), content: 'x' }]));
  fail(
    bundle([
      good,
      {
        ref: 'ctx://conv-1/tool/../../../etc/x.txt',
        path: 'tool/../../../etc/x.txt',
        sha256: sha256('x'),
        content: 'x',
      },
    ]),
  );
  fail(bundle([good, { ref: 'ctx://conv-2/tool/x.txt', path: 'tool/x.txt', sha256: sha256('x'), content: 'x' }]));
  fail(bundle([{ ...good, path: 'tool/other.txt' }]));
  fail(bundle([]));
  fail(bundle([good], { format: 'something-else' }));
  fail(bundle([good], { version: 2 }));
  fail(bundle([good], { conversationId: '../conv-1' }));
  c.importConversation(bundle([good]), {
    userData: 'ok',
    conversationId: 'conv-1',
    messages: bundle([]).messages,
    artifacts: [good],
  });
}
{
  const c = add(
    new Case(
      'import-artifact-exists',
      'Importing over a different artifact already at the same place is ARTIFACT_EXISTS and writes nothing (the other artifacts of the bundle included); the existing file is kept.',
    ),
  );
  const ref = c.materialize('call_x', rep('mine\n', 1000));
  const theirs = rep('theirs\n', 1000);
  const artifacts = [
    { ref: 'ctx://conv-1/tool/call_new.txt', path: 'tool/call_new.txt', sha256: sha256('new'), content: 'new' },
    { ref, path: 'tool/call_x.txt', sha256: sha256(theirs.text), content: theirs },
  ];
  c.importConversation(
    { format: 'tool-offload/conversation', version: 1, conversationId: 'conv-1', messages: [], artifacts },
    { expectError: 'ARTIFACT_EXISTS' },
  );
  c.read(ref, { limit: 1 });
}
{
  const c = add(
    new Case(
      'export-missing-artifact',
      'Exporting messages that name an artifact of this conversation that does not exist is REF_NOT_FOUND: the bundle would not be self-contained. Refs of other conversations are not exported.',
    ),
  );
  const ok = c.step(
    'materializeMessages',
    { messages: [{ role: 'user', content: 'see ctx://conv-1/tool/nope.txt' }] },
    { messages: [{ role: 'user', content: 'see ctx://conv-1/tool/nope.txt' }], refs: [], paths: [] },
  );
  c.fail('export', { messages: from(ok, 'messages') }, 'REF_NOT_FOUND');
  const other = c.step(
    'materializeMessages',
    { messages: [{ role: 'user', content: 'see ctx://conv-9/tool/x.txt' }] },
    { messages: [{ role: 'user', content: 'see ctx://conv-9/tool/x.txt' }], refs: [], paths: [] },
  );
  c.exportConversation(other, []);
}

{
  const conversationId = 'conv (1) "é" 50%';
  const c = add(
    new Case(
      'ref-encoding',
      'Any id the API accepts round-trips through refs: the conversation id and file name are percent-encoded in the ref (UTF-8 bytes outside A–Z a–z 0–9 - . _ ~ : as uppercase %XX; "functions.bash:0" stays as it is) while files keep the raw id. A ref reads back however it is spelled: lowercase hex, or characters left unescaped; a "%" that starts no escape, escapes that are not UTF-8, or an escape that decodes to "..", "/", "\\" or NUL is REF_OUT_OF_SCOPE. materializeMessages, export and import keep every such ref readable.',
      { conversationId },
    ),
  );
  const log = buildLog(300, { 42: 'error: in call (1)' });
  const ref = c.materialize('call (1)', log);
  c.read(ref, { offset: 40, limit: 3 });
  c.tail(ref, { lines: 1 });
  c.grep(ref, 'error', { context: 0 });
  const enc = refSegment(conversationId);
  c.read(`ctx://${enc}/tool/call (1).txt`, { limit: 1 });
  c.read(
    ref.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    { limit: 1 },
  );
  for (const id of [
    'it\'s "quoted", [b] {c} <d> `e`',
    '100%',
    '%41',
    'functions.bash:0',
    'naïve 日本 😀',
    'tab\there',
    'a+b=c&d#e?f*g!h@i$j;k|l^m~n',
  ]) {
    c.materialize(id, rep(`${id}: output line\n`, 400));
  }
  c.terminal('snip 1', rep('$ make\n', 800));
  c.read(refOf(conversationId, 'tool', '100%.txt'), { limit: 1 });
  c.read(`ctx://${enc}/tool/100%.txt`, {}, 'REF_OUT_OF_SCOPE');
  c.read(`ctx://${conversationId}/tool/call%20%281%29.txt`, {}, 'REF_OUT_OF_SCOPE');
  for (const file of ['%zz.txt', '%C3.txt', '%2E%2E', '..%2F..%2Fx.txt', 'a%5Cb.txt', 'a%00.txt'])
    c.read(`ctx://${enc}/tool/${file}`, {}, 'REF_OUT_OF_SCOPE');
  const first = c.materializeMessages([
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call (2)', type: 'function', function: { name: 'run tests', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call (2)', content: numbered(300) },
    { role: 'tool', tool_call_id: '"q" [x]', content: rep('quoted\n', 700).text },
  ]);
  const refs = c.steps[first].expect.refs.map((r) => r.id);
  const exported = c.exportConversation(first, refs);
  const artifacts = c.steps[exported].expect.artifacts;
  c.importConversation(from(exported), {
    userData: 'restored',
    conversationId,
    messages: from(first, 'messages'),
    artifacts,
  });
  c.read(refs[0], { offset: 100, limit: 2, userData: 'restored' });
  c.tail(refs[1], { lines: 1, userData: 'restored' });
}

{
  const c = add(
    new Case(
      'read-json-path',
      'context_read with a JSON path (JSONPath subset or JSON Pointer) shows what it selects in a JSON artifact, pretty-printed as JSON.stringify(value, null, 2) lays it out, paged by offset/limit like any read (the header names the path, and More: repeats it); a list path (wildcard, slice) selects an array; a path that selects nothing says where it stopped; a malformed path, or an artifact that is not JSON, is INVALID_ARGUMENT. A JSON string output stored as text is read by path too; escaped lone surrogates survive.',
    ),
  );
  const orders = Array.from({ length: 300 }, (_, i) => ({
    id: 1000 + i,
    sku: `SKU-${i}`,
    lines: [{ qty: i % 4, price: i / 8 }],
    note: i === 137 ? 'gift' : null,
  }));
  const ref = c.materialize(
    'call_orders',
    { orders, total: orders.length, page: { next: 'abc' } },
    { toolName: 'list_orders' },
  );
  c.read(ref, { path: '$.orders[10]' });
  c.read(ref, { path: '$.orders[-1].sku' });
  c.read(ref, { path: '/orders/137' });
  c.read(ref, { path: "$['page']" });
  c.read(ref, { path: '$.orders[0:3].id' });
  c.read(ref, { path: '$.orders[*].sku', limit: 5 });
  c.read(ref, { path: '$.orders[*].sku', offset: 5, limit: 5 });
  c.read(ref, { path: '$.orders[*].lines[*].qty', offset: 298 });
  c.read(ref, { path: '$.orders', offset: 5000 });
  c.read(ref, { path: '$.orders[300]' }, 'INVALID_ARGUMENT');
  c.read(ref, { path: '$.order' }, 'INVALID_ARGUMENT');
  c.read(ref, { path: 'orders[0]' }, 'INVALID_ARGUMENT');
  c.read(ref, { path: '$.orders[' }, 'INVALID_ARGUMENT');
  const text = c.materialize(
    'call_text',
    JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => [i, i === 399 ? 'cut \ud83d' : `r${i}`]) }),
  );
  c.read(text, { path: '$.rows[399]' });
  c.read(text, { path: '$.rows[-3:]' });
  const log = c.materialize('call_log', numbered(300));
  c.read(log, { path: '$' }, 'INVALID_ARGUMENT');
}

{
  const c = add(
    new Case(
      'read-offloaded-files',
      'With offloadDir set to batch offload\'s output directory, read, tail and grep (and context_read) also read the files its placeholders name: "./tool-result-<id>.md", the name alone, the placeholder whole, or any of them in backticks or quotes. Nothing else there is read: another file name, a path leaving the directory, or a missing file get the usual errors.',
      { offloadDir: '/work/out' },
    ),
  );
  const log = buildLog(60, { 31: 'ERROR disk full while writing /var/lib/db/wal' });
  const placeholder = '[Content offloaded to: ./tool-result-t1.md]';
  c.step(
    'offloadToolResults',
    { messages: [{ role: 'tool', tool_call_id: 't1', content: log }], outputDir: 'out' },
    {
      messages: [{ role: 'tool', tool_call_id: 't1', content: placeholder }],
      offloadedCount: 1,
      freedChars: log.length,
      files: ['/work/out/tool-result-t1.md'],
    },
  );
  c.outside.set('/work/out/tool-result-t1.md', log);
  c.read('./tool-result-t1.md', { offset: 29, limit: 3 });
  c.read('tool-result-t1.md', { limit: 2 });
  c.read(placeholder, { offset: 59 });
  c.tail('`./tool-result-t1.md`', { lines: 2 });
  c.grep('"./tool-result-t1.md"', 'error', { ignoreCase: true, context: 0 });
  c.read('./notes.txt', {}, 'REF_OUT_OF_SCOPE');
  c.read('../out/tool-result-t1.md', {}, 'REF_OUT_OF_SCOPE');
  c.read('./sub/dir/tool-result-t1.md', {}, 'REF_OUT_OF_SCOPE');
  c.read('./tool-result-t2.md', {}, 'REF_NOT_FOUND');
}

{
  const c = add(
    new Case(
      'grep-all',
      'grep (context_grep) without a ref searches every artifact of the conversation, tool outputs and terminal snippets, newest first (by modification time, then by ref, last first), each artifact with matches as its own grep page under the header that counts them all; maxMatches counts across artifacts; a page that cannot hold more says so; a bad pattern is INVALID_PATTERN.',
    ),
  );
  // Written in the order of their refs (ctx://…/terminal/t1.log sorts before …/tool/a1.txt),
  // so "newest first" is the same order whether a host's clock tells the writes apart
  // (modification time) or not (ref, last first).
  c.terminal('t1', rep('$ make\nmake: *** [all] Error 2\n', 300));
  c.materialize('a1', buildLog(300, { 40: 'error[E0308]: mismatched types in a1' }));
  c.materialize('a2', numbered(400));
  c.materialize('a3', buildLog(300, { 12: 'ERROR: connection refused (a3)', 290: 'error: could not compile `a3`' }));
  c.grepAll('error', { context: 0 });
  c.grepAll('error', { ignoreCase: true, context: 1, maxMatches: 3 });
  c.grepAll('step 7\\b');
  c.grepAll('nothing matches this');
  c.grepAll('(', {}, 'INVALID_PATTERN');
}
{
  const c = add(
    new Case(
      'grep-all-small-page',
      "Under a small limit, grep without a ref stops when the next artifact's section would not fit, and says how many artifacts it searched.",
      { maxInlineChars: 1000 },
    ),
  );
  for (const id of ['b1', 'b2', 'b3', 'b4', 'b5'])
    c.materialize(id, buildLog(200, { 7: `ERROR in ${id}: ${'x'.repeat(150)}`, 150: `ERROR again in ${id}` }));
  c.grepAll('ERROR');
}

{
  const tools = {
    Read: { materialize: 'never' },
    '*': { maxInlineChars: 2000 },
    bash: { maxInlineChars: 8000 },
    noisy: { materialize: 'always' },
    api: { maxInlineBytes: 1000 },
  };
  const c = add(
    new Case(
      'tool-limits',
      'Per-tool limits (options.tools): an entry for the exact tool name overrides the "*" entry field by field, which overrides the materializer\'s limits. "never" keeps any size inline (a file reader), "always" materializes any size (never what already stands for stored content: a read-back page, a placeholder, a knowledge list, a summary); summaries and pages keep the materializer\'s own limits. materializeMessages applies the limits of the tool each result answers.',
      { tools },
    ),
  );
  const log = buildLog(200, { 100: 'error: something failed' });
  c.materialize('r1', log, { toolName: 'Read' });
  c.materialize('b1', rep('x', 5000), { toolName: 'bash' });
  c.materialize('b2', rep('x\n', 4500), { toolName: 'bash' });
  c.materialize('g1', rep('y', 2500), { toolName: 'grep' });
  c.materialize('g2', rep('y', 2000), { toolName: 'grep' });
  c.materialize('n1', 'ok', { toolName: 'noisy' });
  c.materialize('a1', rep('€', 334), { toolName: 'api' });
  c.materialize('a2', rep('€', 333), { toolName: 'api' });
  // A read-back page is never stored again, even by a tool that materializes everything.
  const page = { $from: [c.read('ctx://conv-1/tool/b2.txt', { limit: 2 })] };
  c.step('materialize', { toolCallId: 'n2', toolName: 'noisy', output: page }, { inline: true, content: page });
  // Nor is anything else that already stands for stored content: a placeholder, a
  // knowledge list, a summary.
  for (const [id, output] of [
    ['n3', '[Tool result offloaded to file: /work/out/s1/toolu_1.md]'],
    ['n4', '<knowledge_list>\n<knowledge id="tool_result_c2">x</knowledge>\n</knowledge_list>'],
    ['n5', { $from: [c.steps.findIndex((s) => s.toolCallId === 'g1'), 'content'] }],
  ])
    c.step('materialize', { toolCallId: id, toolName: 'noisy', output }, { inline: true, content: output });
  const first = c.materializeMessages([
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'm1', name: 'Read', input: {} },
        { type: 'tool_use', id: 'm2', name: 'grep', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'm1', content: log },
        { type: 'tool_result', tool_use_id: 'm2', content: rep('z', 2500).text },
      ],
    },
  ]);
}

{
  const c = add(
    new Case(
      'tool-limits-tokens',
      "A tools entry's maxInlineTokens materializes what core's token estimate puts over it, and the tool's entry decides alone (the \"*\" entry's 2,000 characters apply to other tools only): 1,900 letters (about 520 estimated tokens) stay inline under 1,000 tokens, so do 2,001, 1,500 characters of digits and tabs (about 2,000) are materialized, another tool's over 2,000 characters is, and a text of at most half the limit in UTF-16 units is never estimated. The decisions near the estimate are the test author's, with wide margins.",
      { tools: { '*': { maxInlineChars: 2000 }, tok: { maxInlineTokens: 1000 } } },
    ),
  );
  c.materialize('t1', rep('y', 1900), { toolName: 'tok', overTokens: false });
  c.materialize('t2', rep('1\t', 750), { toolName: 'tok', overTokens: true });
  c.materialize('t3', rep('1\t', 250), { toolName: 'tok' });
  c.materialize('t4', rep('1\t', 750), { toolName: 'other' });
  c.materialize('t5', rep('y', 2001), { toolName: 'tok', overTokens: false });
}

{
  const c = add(
    new Case(
      'tool-limits-counted',
      'With countTokens (here "words": space-separated words, the conformance runners\' stand-in for a tokenizer), a tools entry\'s maxInlineTokens counts by it instead of the estimate, and only for text longer in UTF-8 bytes than the limit: 90 fourteen-letter words (about 180 estimated tokens) stay inline under 100; 150 one-letter words are materialized; another tool has no token limit. materializeMessages decides the same way.',
      { countTokens: 'words', tools: { tok: { maxInlineTokens: 100 } } },
    ),
  );
  const long = Array(90).fill('alphabetically').join(' ');
  const many = Array(150).fill('a').join(' ');
  c.materialize('w1', long, { toolName: 'tok' });
  c.materialize('w2', many, { toolName: 'tok' });
  c.materialize('w3', many, { toolName: 'other' });
  c.materializeMessages([
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'm1', name: 'tok', input: {} },
        { type: 'tool_use', id: 'm2', name: 'tok', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'm1', content: long },
        { type: 'tool_result', tool_use_id: 'm2', content: many },
      ],
    },
  ]);
}

{
  const c = add(
    new Case(
      'redact',
      'With redact, well-known secrets (an AWS key, a GitHub token, a password in an assignment and in a connection string, a private key) are replaced by [REDACTED:<kind>] before the output is written or summarised: the artifact, its sizes and the summary hold the markers, never the secrets; an output that stays inline is not written and comes back redacted (the text, never the secret); one with no secret comes back as given.',
      { redact: true },
    ),
  );
  const secrets = [
    ['AKIAIOSFODNN7EXAMPLE', 'aws-access-key'],
    ['ghp_0123456789abcdefghijABCDEFGHIJ012345', 'github-token'],
  ];
  const lines = (shown) =>
    Array.from({ length: 300 }, (_, i) => {
      if (i === 10) return `export AWS_ACCESS_KEY_ID=${shown(0)}`;
      if (i === 150) return `remote: token ${shown(1)} accepted`;
      if (i === 200) return `DATABASE_URL=postgres://app:${shown('pw')}@db:5432/app`;
      if (i === 250) return `config: password=${shown('pw2')}`;
      return `step ${i} ok: compiled module ${i} of the build`;
    }).join('\n');
  const raw = lines((k) => (k === 'pw' ? 's3cr3t-pw' : k === 'pw2' ? 'hunter2!' : secrets[k][0]));
  const redacted = lines((k) =>
    k === 'pw'
      ? '[REDACTED:connection-string-password]'
      : k === 'pw2'
        ? '[REDACTED:password]'
        : `[REDACTED:${secrets[k][1]}]`,
  );
  c.materialize('env', raw, { stored: redacted });
  c.grep('ctx://conv-1/tool/env.txt', 'REDACTED', { context: 0 });
  c.materialize('small', 'token ghp_0123456789abcdefghijABCDEFGHIJ012345', {
    stored: 'token [REDACTED:github-token]',
  });
  c.materialize('clean', 'token: none here');
  // materializeMessages too: a result under the limits holding a secret is given redacted.
  const call = {
    role: 'assistant',
    tool_calls: [{ id: 'm1', type: 'function', function: { name: 'env', arguments: '{}' } }],
  };
  const result = (content) => ({ role: 'tool', tool_call_id: 'm1', content });
  c.step(
    'materializeMessages',
    { messages: [call, result('GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345')] },
    { messages: [call, result('GITHUB_TOKEN=[REDACTED:github-token]')], refs: [], paths: [] },
  );
}

{
  const c = add(
    new Case(
      'redact-kinds',
      'With redact, secrets of each family as tools print them (AWS secret key and session token, Google, Azure storage key and SAS signature, Hugging Face, Docker Hub, Slack webhook, Bearer header, a URL password with no user, npm, Sentry DSN, Telegram, a JSON password, a Twilio auth token beside its Account SID, an Azure storage key at --account-key) are replaced by [REDACTED:<kind>], and what only looks like one is left byte for byte: code that names a secret, a call, an attribute, a type, a template, a placeholder, a word inside another (task-0123…), a git SHA, an npm integrity, a UUID, the working directory, an md5, a base64 SHA-512.',
      { redact: true },
    ),
  );
  // Values of each documented shape, fixed: a small generator, not a real key.
  let seed = 49;
  const of = (set, n) =>
    Array.from({ length: n }, () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return set[(seed >>> 16) % set.length];
    }).join('');
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const B64 = ALNUM + '+/';
  const URLSAFE = ALNUM + '_-';
  const HEX = '0123456789abcdef';
  const secrets = [
    ['AWS_SECRET_ACCESS_KEY=', of(B64, 39) + '7', '', 'aws-secret-key'],
    ['        "SessionToken": "', 'IQoJb3JpZ2luX2Vj' + of(B64, 160), '",', 'aws-session-token'],
    ['GOOGLE_API_KEY=', 'AIza' + of(URLSAFE, 34) + '9', '', 'google-api-key'],
    [
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=',
      of(B64, 85) + '1==',
      ';EndpointSuffix=core.windows.net',
      'azure-storage-key',
    ],
    [
      'GET https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=',
      of(ALNUM, 42) + '4%3D',
      ' 200',
      'azure-sas-signature',
    ],
    ['HF_TOKEN=', 'hf_' + of('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34), '', 'huggingface-token'],
    ['DOCKERHUB_TOKEN=', 'dckr_pat_' + of(URLSAFE, 26) + '3', '', 'docker-hub-token'],
    [
      'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/',
      'T0' +
        of('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 7) +
        '/B0' +
        of('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 9) +
        '/' +
        of(ALNUM, 23) +
        '8',
      '',
      'slack-webhook',
    ],
    ['> authorization: Bearer ', of(URLSAFE, 39) + '5', '', 'bearer-token'],
    ['REDIS_URL=redis://:', of(ALNUM, 15) + '6', '@cache:6379/0', 'connection-string-password'],
    ['//registry.npmjs.org/:_authToken=', 'npm_' + of(ALNUM, 35) + '2', '', 'npm-token'],
    ['SENTRY_DSN=https://', of(HEX, 31) + '0', '@o1.ingest.sentry.io/42', 'sentry-dsn'],
    ['TELEGRAM_BOT_TOKEN=', '7' + of('0123456789', 9) + ':AA' + of(URLSAFE, 33), '', 'telegram-bot-token'],
    ['  "password": "', of(ALNUM + '!%*_.-', 13) + '!', '",', 'password'],
    [
      'curl -s https://api.twilio.com/2010-04-01/Accounts.json -u AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c:',
      of(HEX, 31) + 'e',
      '',
      'twilio-auth-token',
    ],
    ['az storage blob list --account-name acct --account-key ', of(B64, 85) + '2==', ' -c logs', 'azure-storage-key'],
  ];
  const lookAlikes = [
    'api_key = os.environ["API_KEY"]',
    'def check_password(password: str) -> bool:',
    'const secret = process.env.JWT_SECRET;',
    'auth_token=get_token(user)',
    'let pwd = std::env::current_dir()?;',
    '  "password": null,',
    'task-0123456789abcdefghij started',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
    '      "integrity": "sha512-Vx0vC6Nwj8DeB1ZtqrFYXa2STSbNb3XHSLeUJDMZhFw4jvXvhzvj4DMYj5pUXPI7vhYWZvORYVQeQDo7VW79Qw==",',
    '  "requestId": "550e8400-e29b-41d4-a716-446655440000",',
    'password: ${DB_PASSWORD}',
    'client_secret: changeme',
    'PWD=/work/main',
    '5d41402abc4b2a76b9719d911017c592  hello.txt',
    '{"algorithm": "sha512", "value": "m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw=="}',
  ];
  const lines = (shown) =>
    Array.from({ length: 300 }, (_, i) => {
      if (i % 10 === 5 && i / 10 < secrets.length + 0.5) {
        const [before, value, after] = secrets[(i - 5) / 10];
        return before + shown((i - 5) / 10, value) + after;
      }
      if (i % 10 === 7 && (i - 7) / 10 < lookAlikes.length) return lookAlikes[(i - 7) / 10];
      return `step ${i} ok: compiled module ${i} of the build`;
    }).join('\n');
  c.materialize(
    'mixed',
    lines((_, value) => value),
    {
      stored: lines((k) => `[REDACTED:${secrets[k][3]}]`),
    },
  );
  c.grep('ctx://conv-1/tool/mixed.txt', 'REDACTED', { context: 0 });
  c.materialize('code', lookAlikes.slice(0, 6).join('\n'));
}

{
  const c = add(
    new Case(
      'redact-patterns',
      "redact: { patterns } adds the user's patterns to the built-in rules: a string is of kind custom, { pattern, kind, ignoreCase } names its kind and folds case, a capture group is all that is replaced, and a match inside a secret an earlier rule replaced is not matched again.",
      {
        redact: {
          patterns: [
            'ACME-[0-9]{8}',
            { pattern: 'session=([0-9a-f]{16})', kind: 'session' },
            { pattern: 'internal-host-[0-9]+', kind: 'host', ignoreCase: true },
            'AKIA[A-Z0-9]+',
          ],
        },
      },
    ),
  );
  const lines = (acme, session, host, aws) =>
    Array.from({ length: 300 }, (_, i) => {
      if (i === 5) return `order ${acme} shipped`;
      if (i === 40) return `GET /api?session=${session} 200`;
      if (i === 80) return `ping ${host}: ok`;
      if (i === 100) return `export AWS_ACCESS_KEY_ID=${aws}`;
      return `request ${i} served in ${i % 7} ms`;
    }).join('\n');
  c.materialize('svc', lines('ACME-20261202', '0123456789abcdef', 'INTERNAL-HOST-42', 'AKIAIOSFODNN7EXAMPLE'), {
    stored: lines('[REDACTED:custom]', '[REDACTED:session]', '[REDACTED:host]', '[REDACTED:aws-access-key]'),
  });
  c.grep('ctx://conv-1/tool/svc.txt', 'REDACTED', { context: 0 });
}

{
  const c = add(
    new Case(
      'redact-replace',
      "redact: { replace } puts the user's text in place of every secret, the built-in rules' too; a value that already is the replacement is left.",
      { redact: { patterns: ['tok-[0-9]{6}'], replace: '<hidden>' } },
    ),
  );
  const lines = (tok, aws, pw) =>
    Array.from({ length: 300 }, (_, i) => {
      if (i === 7) return `issued ${tok}`;
      if (i === 60) return `key ${aws}`;
      if (i === 90) return `password=${pw}`;
      return `line ${i}: nothing to see`;
    }).join('\n');
  c.materialize('out', lines('tok-123456', 'AKIAIOSFODNN7EXAMPLE', '<hidden>'), {
    stored: lines('<hidden>', '<hidden>', '<hidden>'),
  });
  c.grep('ctx://conv-1/tool/out.txt', 'hidden', { context: 0 });
}

{
  const c = add(
    new Case(
      'budget',
      'budget over an OpenAI Chat conversation of five bash results of ~1,500 characters, each under the limits so inline: past the trigger (1 token, clearing at least 0), every result before the last two becomes a pointer naming its artifact, stored first (the full text, read back byte for byte), oldest first; the first rewritten message is reported. Run again on its own output: nothing more changes (frozen). Excluded tools are never cleared; under the trigger nothing is.',
    ),
  );
  const log = (i) => Array.from({ length: 40 }, (_, k) => `step_${i} line ${k}: compiling crate_${k}`).join('\n');
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Build every crate.' },
  ];
  for (let i = 0; i < 5; i++) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: log(i) });
  }
  messages.push({ role: 'assistant', content: 'Built.' });
  c.step(
    'budget',
    { messages, triggerTokens: 1000000 },
    { messages, cleared: [], rewrittenFromMessage: null, refs: [], paths: [] },
  );
  c.step(
    'budget',
    { messages, triggerTokens: 1, clearAtLeastTokens: 0, excludeTools: ['bash'] },
    { messages, cleared: [], rewrittenFromMessage: null, refs: [], paths: [] },
  );
  const first = c.budget(messages, { triggerTokens: 1, keepLast: 2, clearAtLeastTokens: 0 });
  const after = c.steps[first].expect.messages;
  c.budget(after, { triggerTokens: 1, keepLast: 2, clearAtLeastTokens: 0 });
}

{
  const c = add(
    new Case(
      'agents-text-output',
      'The OpenAI Agents SDK writes a tool output as one text part, { type: "text", text }: materializeMessages stores its text as text (.txt, its lines read back as lines, a grep names real line numbers), not the part\'s one-line JSON; the summary replaces the output.',
    ),
  );
  const log = Array.from({ length: 400 }, (_, k) =>
    k === 271 ? 'E   AssertionError: expected 3' : `step ${k}: ok`,
  ).join('\n');
  c.materializeMessages([
    { type: 'function_call', callId: 'call_1', name: 'pytest', arguments: '{}', status: 'completed' },
    {
      type: 'function_call_result',
      name: 'pytest',
      callId: 'call_1',
      status: 'completed',
      output: { type: 'text', text: log },
    },
  ]);
  c.grep('ctx://conv-1/tool/call_1.txt', 'AssertionError', { context: 0 });
}

{
  const c = add(
    new Case(
      'budget-pages',
      'budget once the model reads back: an OpenAI Chat conversation with a bash log, three context_read pages of an artifact, a bash result that looks like a page but whose call names no ref, then two more bash logs. Past the trigger (1 token, clearing at least 0, keeping the last two), the log is stored and pointed to, each page becomes a pointer naming the exact call that returns it (tool and arguments, byte for byte; nothing stored), the look-alike stays. Run again on its own output: nothing more changes.',
    ),
  );
  const log = (i) => Array.from({ length: 40 }, (_, k) => `step_${i} line ${k}: compiling crate_${k}`).join('\n');
  const ref = 'ctx://conv-1/tool/build.txt';
  const page = (at, from) =>
    [`[${at}: lines ${from + 1}-${from + 30} of 400. More: context_read("${at}", ${from + 30})]`]
      .concat(
        Array.from({ length: 30 }, (_, k) => `${from + k + 1}| step line ${from + k}: compiling crate_${from + k}`),
      )
      .join('\n');
  const call = (id, name, args) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
  });
  const messages = [
    { role: 'user', content: 'Build every crate.' },
    call('call_0', 'bash', '{"command":"make"}'),
    { role: 'tool', tool_call_id: 'call_0', content: log(0) },
  ];
  for (let p = 0; p < 3; p++) {
    messages.push(call(`read_${p}`, 'context_read', `{"ref":"${ref}","offset":${p * 30},"limit":30}`));
    messages.push({ role: 'tool', tool_call_id: `read_${p}`, content: page(ref, p * 30) });
  }
  messages.push(call('call_1', 'bash', '{"command":"cat notes.txt"}'));
  messages.push({ role: 'tool', tool_call_id: 'call_1', content: page('ctx://conv-1/tool/other.txt', 200) });
  for (const id of ['call_2', 'call_3']) {
    messages.push(call(id, 'bash', '{"command":"make"}'));
    messages.push({ role: 'tool', tool_call_id: id, content: log(id) });
  }
  const first = c.budget(messages, { triggerTokens: 1, keepLast: 2, clearAtLeastTokens: 0 });
  c.budget(c.steps[first].expect.messages, { triggerTokens: 1, keepLast: 2, clearAtLeastTokens: 0 });
}

{
  const c = add(
    new Case(
      'unread',
      'What the model read back: materializeMessages with remindUnread over an Anthropic conversation whose two bash results are over the limits (a build log with an error, a clean test log) adds one text part to the last user message naming the unread result that reported errors; readStats, after a context_grep of the build log, counts one read of it and none of the test log; unreadRefs names the test log.',
    ),
  );
  const call = (id, name, input) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
  const result = (id, content) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] });
  const messages = [
    { role: 'user', content: 'Build it and run the tests.' },
    call('t_build', 'bash', { command: 'cargo build' }),
    result('t_build', buildLog(600, { 300: 'error[E0308]: mismatched types' })),
    call('t_test', 'bash', { command: 'cargo test' }),
    result('t_test', numbered(600)),
  ];
  const i = c.materializeMessages(messages);
  const { op, expect } = c.steps[i];
  const last = expect.messages.length - 1;
  const text = coreAt(c, i, ['messages', last, 'content', 1, 'text'], (t) => {
    if (!t.startsWith('[Not read yet: ctx://conv-1/tool/t_build.txt — ')) throw new Error(`unread: ${t}`);
  });
  expect.messages[last] = {
    ...expect.messages[last],
    content: [...expect.messages[last].content, { type: 'text', text }],
  };
  c.steps[i] = { op, messages, remindUnread: true, expect };
  const build = refOf(c.conv, 'tool', 't_build.txt');
  const test = refOf(c.conv, 'tool', 't_test.txt');
  const later = [
    ...messages.map((_, k) => from(i, 'messages', k)),
    call('t_grep', 'context_grep', { ref: build, pattern: 'error', ignore_case: true }),
    result('t_grep', '300| error[E0308]: mismatched types'),
  ];
  c.step('readStats', { messages: later }, [
    { ref: build, toolCallId: 't_build', reads: 1, errors: true },
    { ref: test, toolCallId: 't_test', reads: 0, errors: false },
  ]);
  c.step('unreadRefs', { messages: later }, [test]);
}

{
  const c = add(
    new Case(
      'message-budget',
      'messageBudgetChars 6,000: one Anthropic message with five results under the 4,000-character limit (3,500, 3,000, 3,500, 1,000 and 2,000: 13,000 in all) materializes the largest first, the first of equals first, until the rest fit (the two of 3,500); an OpenAI Chat turn of two 2,500-character results (5,000) stays as it is, as does a later message; run again on its output, nothing changes (the summaries are not fresh).',
      { messageBudgetChars: 6000 },
    ),
  );
  const text = (n) => Array.from({ length: n / 10 }, (_, i) => `row ${String(i).padStart(5, '0')}`).join('\n');
  const block = (id, n) => ({ type: 'tool_result', tool_use_id: id, content: text(n) });
  const messages = [
    { role: 'user', content: 'Look at all five.' },
    {
      role: 'assistant',
      content: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ type: 'tool_use', id, name: 'bash', input: {} })),
    },
    {
      role: 'user',
      content: [block('a', 3500), block('b', 3000), block('c', 3500), block('d', 1000), block('e', 2000)],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: ['f', 'g'].map((id) => ({ id, type: 'function', function: { name: 'bash', arguments: '{}' } })),
    },
    { role: 'tool', tool_call_id: 'f', content: text(2500) },
    { role: 'tool', tool_call_id: 'g', content: text(2500) },
  ];
  const first = c.materializeMessages(messages);
  const again = messages.map((_, k) => from(first, 'messages', k));
  c.step('materializeMessages', { messages: again }, { messages: again, refs: [], paths: [] });
}

{
  const c = add(
    new Case(
      'context-window',
      "contextWindow { tokens: 20,000 } (a result may take a quarter of what the messages before it leave free) with limits too high to matter: a 20,000-character log (about 12,000 estimated tokens, over 5,000) is materialized; a 1,000-character one after it (about 600, under the ~2,000 left) stays; a 12,000-character one after both (about 7,200) is materialized. The decisions are the test author's, with wide margins: the estimate is core's. Run again on the output: nothing changes.",
      { maxInlineChars: 1000000, maxInlineBytes: 4000000, contextWindow: { tokens: 20000 } },
    ),
  );
  c.windowPicks = new Set(['big', 'late']);
  const log = (n) => Array.from({ length: n / 10 }, (_, i) => `line ${String(i).padStart(4, '0')}`).join('\n') + '\n';
  const messages = [];
  for (const [id, n] of [
    ['big', 20000],
    ['small', 1000],
    ['late', 12000],
  ]) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: log(n) }] });
  }
  const first = c.materializeMessages(messages);
  const again = messages.map((_, k) => from(first, 'messages', k));
  c.step('materializeMessages', { messages: again }, { messages: again, refs: [], paths: [] });
}

// ---------------------------------------------------------------------------------
// Write.

const names = new Set();
for (const c of cases) {
  if (names.has(c.name)) throw new Error(`duplicate vector ${c.name}`);
  names.add(c.name);
}
// generate-logs.mjs writes materialize-failure-logs.json: not ours to remove.
const OTHERS = new Set(['materialize-failure-logs.json']);
for (const old of readdirSync(here).filter((f) => f.startsWith(`${PREFIX}-`) && f.endsWith('.json') && !OTHERS.has(f)))
  unlinkSync(join(here, old));
let bytes = 0;
let steps = 0;
for (const c of cases) {
  const text = JSON.stringify(c, null, 2) + '\n';
  bytes += Buffer.byteLength(text);
  steps += c.steps.length;
  writeFileSync(join(here, `${PREFIX}-${c.name}.json`), text);
}
console.log(
  `wrote ${cases.length} ${PREFIX} vectors, ${steps} steps, ${bytes} bytes; checked ${checks.summaries} summaries and ${checks.pages} pages`,
);
if (checks.pending > 0) {
  console.log(
    `${checks.pending} core texts are not blessed yet: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host, then run this again`,
  );
}
