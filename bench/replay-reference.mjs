// The reference replay: `tool-offload replay` (core's `replay` module) reimplemented
// straightforwardly in JavaScript over the npm package, so that the two can be compared
// figure for figure (tests/replay-reference.mjs does, on every `make test`). Every
// conversation of the corpus is replayed turn by turn through each context policy,
// measuring what the model is sent, what prompt caching makes of it, whether the previews
// kept what the agent went on to use, and whether a line of every artifact is found again
// by one `context_grep`.
//
//   node bench/replay-reference.mjs [--corpus DIR] [--quick] [--json PATH]
//
// Needs the npm package built (`node host-node/scripts/build.mjs`). The workload is
// ../shared/corpus, or its generated stand-in (bench/corpus.mjs); --quick replays the first
// 5 Anthropic conversations and the first OpenAI one. Prints the totals per policy and
// writes every figure, per conversation too, to target/bench/replay-reference.json (--json
// PATH). A conversation's id is its file name without `.json`, as `tool-offload replay`
// names it.
//
// Turns. The request at an assistant message sends every message before it; a conversation
// of n assistant messages (after the first message) is n turns. Policies:
//   none               the raw history;
//   materialize        `new Materializer({ userData, conversationId })` at its default limits
//                      (4,000 UTF-16 units / 16,384 UTF-8 bytes);
//   materialize-2000   the same with `maxInlineChars: 2000`;
//   materialize-1000   the same with `maxInlineChars: 1000`;
//   materialize-read-inline  the defaults with `tools: { Read: { materialize: 'never' } }`
//                      (Claude Code's file reads stay inline: issue 31's per-tool limits);
//   headtail-10k       plain JS, no artifact: a tool result over 10,240 characters becomes
//                      its first 5,120, `\n…[N characters cut]…\n` and its last 5,120.
// A Materializer lives as long as its conversation, as in an agent loop: each turn it is
// given the messages it returned on the turn before plus the new raw ones, and what it
// returns is what that turn sends.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { Materializer } from 'tool-offload';

import { corpusDir, loadCorpus, replayArgs } from './corpus.mjs';

const args = replayArgs(process.argv.slice(2), 'bench/replay-reference.mjs', 'replay-reference');
const log = (...m) => console.error(...m);
const started = performance.now();

const POLICIES = [
  { name: 'none', kind: 'none' },
  { name: 'materialize', kind: 'materialize', options: {}, limit: 4000 },
  { name: 'materialize-2000', kind: 'materialize', options: { maxInlineChars: 2000 }, limit: 2000 },
  { name: 'materialize-1000', kind: 'materialize', options: { maxInlineChars: 1000 }, limit: 1000 },
  {
    name: 'materialize-read-inline',
    kind: 'materialize',
    options: { tools: { Read: { materialize: 'never' } } },
    limit: 4000,
  },
  { name: 'headtail-10k', kind: 'headtail' },
];
const HEADTAIL_OVER = 10_240;
const HEADTAIL_KEEP = 5_120;
const CACHE_READ = 0.1;
const CACHE_WRITE = 1.25;
const NEEDLES_PER_ARTIFACT = 3;
const NEEDLE_MIN_CHARS = 20;
const PAGE_MAX = 4_000;
const PATTERN_MAX = 1_000; // core's longest grep pattern (docs/materializer.md, "grep patterns")
const LONG_LINE_PROBE = 200;

// -----------------------------------------------------------------------------------------
// Identifier-like strings (preview sufficiency). One tokenizer: the alternatives are tried in
// this order at each position, so every span of text is one identifier of one kind at most
// (a path is not also counted as its file name, its numbers or its snake_case segments).

const FILE_EXTENSIONS = [
  'md', 'markdown', 'txt', 'rst', 'rs', 'toml', 'lock', 'json', 'jsonl', 'yaml', 'yml', 'js', 'mjs', 'cjs',
  'ts', 'tsx', 'jsx', 'py', 'rb', 'go', 'java', 'kt', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'swift', 'pony',
  'sh', 'bash', 'html', 'css', 'scss', 'xml', 'csv', 'tsv', 'sql', 'log', 'ini', 'cfg', 'conf', 'wasm', 'patch',
  'diff', 'zip', 'gz', 'tar', 'png', 'svg', 'pdf',
]; // prettier-ignore
const ERRNO_NAMES = [
  'NOENT', 'ACCES', 'EXIST', 'PERM', 'INVAL', 'NOTDIR', 'ISDIR', 'NOTEMPTY', 'ADDRINUSE', 'CONNREFUSED',
  'CONNRESET', 'TIMEDOUT', 'PIPE', 'AGAIN', 'BADF', 'MFILE', 'NOSPC', 'ROFS', 'XDEV', 'LOOP', 'NAMETOOLONG',
  'NOTFOUND', 'NOTSUP', 'BUSY',
]; // prettier-ignore
/**
 * The identifier-like strings, by kind (`IDENTIFIER_KINDS[i]` is capture group i + 1):
 * - path: a run of `[\w.-]`, a `/`, then `[\w./-]` (at least one), holding a letter or digit, a
 *   final `.` dropped (sentence ends);
 * - file: a name with a known extension, `name(.part)*.ext` (`main.rs`, `index.d.ts`), not a
 *   call (`console.log(`);
 * - code: an uppercase run then digits (`E0308`, `TS2322`), an errno name (`ENOENT`), or
 *   all-caps with an underscore (`INVALID_ID`), 4 characters or more;
 * - number: 3 digits or more, standing alone (`\b`);
 * - identifier: a word of 4 characters or more holding `_` (snake_case) or an inner capital
 *   (camelCase: a lowercase letter or digit followed by a capital).
 */
const IDENTIFIER_RE = new RegExp(
  [
    String.raw`(?<![\w.-])([\w.-]*\/[\w./-]+)`,
    String.raw`(?<![\w.-])([\w-]+(?:\.[\w-]+)*\.(?:${FILE_EXTENSIONS.join('|')})\b(?![(\w-]))`,
    String.raw`\b([A-Z]+[0-9]+|E(?:${ERRNO_NAMES.join('|')})|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b`,
    String.raw`\b([0-9]{3,})\b`,
    String.raw`\b([A-Za-z_][A-Za-z0-9_]*)\b`,
  ].join('|'),
  'g',
);
const IDENTIFIER_KINDS = ['path', 'file', 'code', 'number', 'identifier'];

/** `Map<identifier, kind>` of `text`. */
function identifiers(text, into = new Map()) {
  for (const m of text.matchAll(IDENTIFIER_RE)) {
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    const kind = IDENTIFIER_KINDS[group - 1];
    let id = m[group];
    if (kind === 'path') {
      id = id.replace(/\.+$/, '');
      if (!/[A-Za-z0-9]/.test(id) || !id.includes('/')) continue;
    } else if (kind === 'code') {
      if (id.length < 4) continue;
    } else if (kind === 'identifier') {
      if (id.length < 4 || !(id.includes('_') || /[a-z0-9][A-Z]/.test(id))) continue;
    }
    if (!into.has(id)) into.set(id, kind);
  }
  return into;
}

/** The word runs (`[A-Za-z0-9_]+`) of `text`: the prefilter of `occurs`. */
function words(text) {
  return new Set(text.match(/[A-Za-z0-9_]+/g));
}
const isWordChar = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);
/**
 * Whether `id` occurs in `text` as a whole: a substring whose neighbours are not
 * `[A-Za-z0-9_]` (so `123` is not in `51234`, nor `/src/a.rs` in `crate_1/src/a.rs`, but
 * `src/a.rs` is in `/work/src/a.rs:42`). Every word run of such an occurrence is a whole
 * word run of the text, which `textWords` checks first.
 */
function occurs(text, textWords, id) {
  for (const w of id.match(/[A-Za-z0-9_]+/g) ?? []) if (!textWords.has(w)) return false;
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    if (!isWordChar(text[at - 1]) && !isWordChar(text[at + id.length])) return true;
  }
  return false;
}

// -----------------------------------------------------------------------------------------
// Messages: tool results (Anthropic `tool_result` blocks in user messages, OpenAI `role: 'tool'`
// messages) and the text a message holds.

/** A tool result's content as text: a string; an array's text parts joined with `\n`; else JSON. */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((p) => p && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n');
  }
  return content === undefined ? '' : JSON.stringify(content);
}

/** `[{ block, id, content }]`: the tool results of `message` (`block` -1 for an OpenAI tool message). */
function toolResults(message) {
  if (message.role === 'tool') return [{ block: -1, id: message.tool_call_id, content: message.content }];
  if (message.role !== 'user' || !Array.isArray(message.content)) return [];
  const out = [];
  message.content.forEach((b, block) => {
    if (b && b.type === 'tool_result') out.push({ block, id: b.tool_use_id, content: b.content });
  });
  return out;
}

/** The content of the tool result `r` (found in the original) within `message` as sent. */
function sentContent(message, r) {
  if (r.block < 0) return message.content;
  const at = message.content[r.block];
  if (at?.type === 'tool_result' && at.tool_use_id === r.id) return at.content;
  return message.content.find((b) => b?.type === 'tool_result' && b.tool_use_id === r.id)?.content;
}

/** The string values (and numbers) of a tool call's input, `\n`-joined: keys are the tool's schema. */
function leaves(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}
function parsedArguments(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What an assistant message says and asks for: text, and tool calls' input values. */
function assistantText(message) {
  const parts = [];
  if (typeof message.content === 'string') parts.push(message.content);
  else if (Array.isArray(message.content)) {
    for (const b of message.content) {
      if (b?.type === 'text' && typeof b.text === 'string') parts.push(b.text);
      else if (b?.type === 'tool_use') leaves(b.input, parts);
    }
  }
  for (const call of message.tool_calls ?? []) leaves(parsedArguments(call.function?.arguments ?? ''), parts);
  return parts.join('\n');
}

/** Every text of a message (for "did this identifier occur before?"). */
function messageText(message) {
  if (message.role === 'assistant') return assistantText(message);
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  const parts = [];
  for (const b of message.content) {
    if (b?.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b?.type === 'tool_result') parts.push(contentText(b.content));
  }
  return parts.join('\n');
}

// -----------------------------------------------------------------------------------------
// Serialisation: every message is serialised once (the same object, whichever policy sends
// it); a turn's history is `[` + its messages joined with `,` + `]`.

const serialised = new WeakMap();
function ser(message) {
  let s = serialised.get(message);
  if (s === undefined) serialised.set(message, (s = JSON.stringify(message)));
  return s;
}
function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
/**
 * `{ chars, prefix, stable }` of sending `sent` after `previous` (arrays of messages):
 * the serialised length, the longest common prefix with the previous turn's serialisation,
 * and whether this one, without its closing `]`, starts with the previous one without its.
 */
function turnFigures(previous, sent) {
  const strings = sent.map(ser);
  const chars = 2 + strings.reduce((n, s) => n + s.length, 0) + Math.max(0, strings.length - 1);
  if (previous === null) return { chars, prefix: 0, stable: null };
  let k = 0;
  let before = 1; // `[`, then each equal message and the `,` before the next
  while (k < previous.length && k < sent.length && ser(previous[k]) === strings[k]) {
    before += (k > 0 ? 1 : 0) + strings[k].length;
    k++;
  }
  const stable = k === previous.length;
  let prefix = before;
  if (!stable && k < sent.length) prefix += (k > 0 ? 1 : 0) + commonPrefix(ser(previous[k]), strings[k]);
  return { chars, prefix, stable };
}

// -----------------------------------------------------------------------------------------
// headtail-10k.

function cut(text) {
  if (text.length <= HEADTAIL_OVER) return text;
  const n = text.length - 2 * HEADTAIL_KEEP;
  return `${text.slice(0, HEADTAIL_KEEP)}\n…[${n} characters cut]…\n${text.slice(-HEADTAIL_KEEP)}`;
}
function cutContent(content) {
  if (typeof content === 'string') return cut(content);
  const text = contentText(content);
  if (text.length <= HEADTAIL_OVER) return content;
  // An array of parts: its texts, cut, as one text part; other parts (images) kept after it.
  const others = Array.isArray(content) ? content.filter((p) => !(p && p.type === 'text')) : [];
  return others.length === 0 ? cut(text) : [{ type: 'text', text: cut(text) }, ...others];
}
/** `message` with its tool results over 10,240 characters cut: the same object when none is. */
function headTail(message) {
  const results = toolResults(message);
  if (!results.some((r) => contentText(r.content).length > HEADTAIL_OVER)) return message;
  if (message.role === 'tool') return { ...message, content: cutContent(message.content) };
  return {
    ...message,
    content: message.content.map((b) =>
      b?.type === 'tool_result' && contentText(b.content).length > HEADTAIL_OVER
        ? { ...b, content: cutContent(b.content) }
        : b,
    ),
  };
}

// -----------------------------------------------------------------------------------------
// Needles: deterministic lines of every artifact, each looked for with one context_grep.

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const escapeRegex = (s) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
/** The first `n` UTF-16 units of `s`, one fewer rather than half a surrogate pair. */
function head(s, n) {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}
/** The longest prefix of `line` whose escaped form is a pattern core accepts (≤ 1,000 units). */
function patternOf(line) {
  let out = '';
  for (const ch of line) {
    const e = escapeRegex(ch);
    if (out.length + e.length > PATTERN_MAX) break;
    out += e;
  }
  return out;
}
/**
 * Rows of a grep page under `maxInlineChars` `limit` for `ref`: core's `row_chars` (a line is
 * matched and shown in rows of at most 2,000 characters; under small limits the header's
 * room, 200 + the ref, and the label's, 24, come off the limit).
 */
function rowChars(limit, ref) {
  const room = 200 + ref.length + 24 + 100 <= limit ? 200 + ref.length : 200;
  return Math.min(2000, limit - room - 24);
}

async function needleCheck(m, policy, conversation, ref, path) {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const candidates = [];
  lines.forEach((l, i) => l.trim() !== '' && l.length >= NEEDLE_MIN_CHARS && candidates.push(i));
  const random = mulberry32(fnv1a(`${conversation}\n${ref}`));
  const picked = [];
  const wanted = Math.min(NEEDLES_PER_ARTIFACT, candidates.length); // before `candidates` shrinks
  while (picked.length < wanted) {
    const [i] = candidates.splice(Math.floor(random() * candidates.length), 1);
    picked.push(i);
  }
  const rows = rowChars(policy.limit, ref);
  const out = [];
  for (const i of picked.sort((a, b) => a - b)) {
    const line = lines[i];
    const long = line.length > rows;
    const expect = long ? head(line, LONG_LINE_PROBE) : line;
    const pattern = patternOf(expect);
    const t0 = performance.now();
    let page;
    let error;
    try {
      page = await m.grep(ref, pattern);
    } catch (e) {
      error = `${e.code ?? 'Error'}: ${e.message}`;
    }
    const ms = performance.now() - t0;
    const found = page !== undefined && page.includes(expect);
    const ok = found && page.length <= PAGE_MAX;
    let why;
    if (!ok) {
      if (error) why = error;
      else if (page.length > PAGE_MAX) why = `page of ${page.length} characters`;
      else why = `not on the page: ${page.split('\n', 1)[0].slice(0, 160)}`;
    }
    const cutPattern = pattern !== escapeRegex(expect);
    out.push({
      ok,
      ms,
      pageChars: page?.length ?? 0,
      long,
      cutPattern,
      ...(ok ? {} : { conversation, ref, line: i + 1, lineChars: line.length, needle: expect.slice(0, 120), why }),
    });
  }
  return out;
}

// -----------------------------------------------------------------------------------------
// One conversation through one policy.

/** What the corpus says about `messages`, whichever the policy. */
function analyse(messages) {
  const turns = [];
  messages.forEach((m, i) => i > 0 && m.role === 'assistant' && turns.push(i));
  const results = [];
  messages.forEach((m, msg) => {
    for (const r of toolResults(m)) {
      const text = contentText(r.content);
      results.push({ msg, block: r.block, id: r.id, raw: r.content, rawJson: JSON.stringify(r.content), text });
    }
  });
  // Identifiers the agent used after each message, and the texts of every message.
  const used = messages.map((m) => (m.role === 'assistant' ? identifiers(assistantText(m)) : null));
  const texts = messages.map(messageText);
  const textWords = [];
  const wordsOf = (i) => (textWords[i] ??= words(texts[i]));
  const firstSeen = new Map();
  const firstMessageWith = (id) => {
    let at = firstSeen.get(id);
    if (at === undefined) {
      at = texts.findIndex((t, i) => occurs(t, wordsOf(i), id));
      firstSeen.set(id, at);
    }
    return at;
  };
  for (const r of results) {
    const rWords = words(r.text);
    r.pairs = [];
    const seen = new Set();
    for (let i = r.msg + 1; i < messages.length; i++) {
      if (!used[i]) continue;
      for (const [id, kind] of used[i]) {
        if (seen.has(id)) continue;
        seen.add(id);
        if (!occurs(r.text, rWords, id)) continue;
        const at = firstMessageWith(id);
        r.pairs.push({ id, kind, isNew: at < 0 || at >= r.msg });
      }
    }
  }
  return { turns, results };
}

async function replay(conversation, facts, policy, userData) {
  const { messages } = conversation;
  const format = messages.some((m) => m.role === 'tool' || m.tool_calls) ? 'openai' : 'anthropic';
  const m =
    policy.kind === 'materialize'
      ? new Materializer({ userData, conversationId: conversation.stem, ...policy.options })
      : null;
  const artifacts = [];
  const unrecognized = new Set();
  const turns = [];
  let previous = null;
  let sentUpTo = 0;
  const shown = new Map(); // result index → content as first sent
  for (const at of facts.turns) {
    let sent;
    if (policy.kind === 'none') sent = messages.slice(0, at);
    else if (policy.kind === 'headtail') sent = messages.slice(0, at).map(headTail);
    else {
      const input = (previous ?? []).concat(messages.slice(sentUpTo, at));
      const done = await m.materializeMessages(input);
      done.refs.forEach((ref, i) => artifacts.push({ ref: ref.id, path: done.paths[i] }));
      for (const p of done.unrecognized) unrecognized.add(p);
      sent = done.messages;
    }
    turns.push(turnFigures(previous, sent));
    facts.results.forEach((r, i) => {
      if (r.msg < at && !shown.has(i)) shown.set(i, sentContent(sent[r.msg], r));
    });
    previous = sent;
    sentUpTo = at;
  }

  // 1, 2: characters and cache.
  const chars = turns.reduce((n, t) => n + t.chars, 0);
  const cache = turns.reduce((n, t) => n + CACHE_READ * t.prefix + CACHE_WRITE * (t.chars - t.prefix), 0);
  const later = turns.slice(1);
  const stable = later.filter((t) => t.stable).length;

  // 3, 4: results shrunk, and what their previews kept.
  const suff = { all: [0, 0], new: [0, 0], byKind: {} };
  let shrunk = 0;
  let withPairs = 0;
  facts.results.forEach((r, i) => {
    if (!shown.has(i)) return; // no turn after it
    const content = shown.get(i);
    if (content === r.raw || JSON.stringify(content) === r.rawJson) return;
    shrunk++;
    if (r.pairs.length === 0) return;
    withPairs++;
    const text = contentText(content);
    const textWords = words(text);
    for (const p of r.pairs) {
      const hit = occurs(text, textWords, p.id) ? 1 : 0;
      suff.all[0] += hit;
      suff.all[1]++;
      if (p.isNew) {
        suff.new[0] += hit;
        suff.new[1]++;
      }
      const k = (suff.byKind[p.kind] ??= [0, 0]);
      k[0] += hit;
      k[1]++;
    }
  });

  // 5: needles.
  let needles = null;
  if (m) {
    needles = [];
    for (const a of artifacts) needles.push(...(await needleCheck(m, policy, conversation.stem, a.ref, a.path)));
  }
  const toolDefinitionChars = m
    ? JSON.stringify(m.getToolDefinitions({ format: format === 'openai' ? 'openai-chat' : 'anthropic' })).length
    : 0;
  return {
    turns: turns.length,
    chars,
    toolDefinitionChars,
    cache: { read: turns.reduce((n, t) => n + t.prefix, 0), cost: cache },
    stableTurns: stable,
    laterTurns: later.length,
    results: facts.results.length,
    resultsShown: shown.size,
    shrunk,
    shrunkWithIdentifiers: withPairs,
    sufficiency: suff,
    artifacts: m ? artifacts.length : 0,
    unrecognized: [...unrecognized],
    needles,
  };
}

// -----------------------------------------------------------------------------------------
// The run.

const { dir: corpus, source } = corpusDir(args.corpus);
let conversations = loadCorpus(corpus);
if (args.quick) {
  const anthropic = conversations.filter((c) => c.name.startsWith('anthropic-')).slice(0, 5);
  const openai = conversations.filter((c) => c.name.startsWith('openai-')).slice(0, 1);
  conversations = [...anthropic, ...openai];
}
const tmp = mkdtempSync(join(tmpdir(), 'tool-offload-bench-replay-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
log(`replay: ${conversations.length} conversations, ${source}`);

const perConversation = [];
const timing = {};
for (const c of conversations) {
  const t0 = performance.now();
  const facts = analyse(c.messages);
  timing.analyse = (timing.analyse ?? 0) + performance.now() - t0;
  const row = { name: c.name, messages: c.messages.length, turns: facts.turns.length, policies: {} };
  for (const p of POLICIES) {
    const t1 = performance.now();
    row.policies[p.name] = await replay(c, facts, p, join(tmp, p.name));
    timing[p.name] = (timing[p.name] ?? 0) + performance.now() - t1;
  }
  row.results = facts.results.length;
  row.identifierPairs = facts.results.reduce((n, r) => n + r.pairs.length, 0);
  perConversation.push(row);
}

const pct = (part, whole) => (whole > 0 ? (100 * part) / whole : null);
const totals = {};
for (const p of POLICIES) {
  const rows = perConversation.map((c) => c.policies[p.name]);
  const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
  const pair = (f) => [sum((r) => f(r)[0]), sum((r) => f(r)[1])];
  const kinds = {};
  for (const r of rows) {
    for (const [k, [hit, n]] of Object.entries(r.sufficiency.byKind)) {
      const t = (kinds[k] ??= [0, 0]);
      t[0] += hit;
      t[1] += n;
    }
  }
  const needles = p.kind === 'materialize' ? rows.flatMap((r) => r.needles) : null;
  totals[p.name] = {
    turns: sum((r) => r.turns),
    chars: sum((r) => r.chars),
    charsWithToolDefinitions: sum((r) => r.chars + r.turns * r.toolDefinitionChars),
    cacheCost: sum((r) => r.cache.cost),
    cacheRead: sum((r) => r.cache.read),
    stableTurns: sum((r) => r.stableTurns),
    laterTurns: sum((r) => r.laterTurns),
    results: sum((r) => r.results),
    shrunk: sum((r) => r.shrunk),
    shrunkWithIdentifiers: sum((r) => r.shrunkWithIdentifiers),
    sufficiency: {
      all: pair((r) => r.sufficiency.all),
      new: pair((r) => r.sufficiency.new),
      byKind: kinds,
    },
    artifacts: sum((r) => r.artifacts),
    unrecognized: sum((r) => r.unrecognized.length),
    needles: needles && {
      recovered: needles.filter((n) => n.ok).length,
      total: needles.length,
      longLines: needles.filter((n) => n.long).length,
      cutPatterns: needles.filter((n) => n.cutPattern).length,
      longestPage: Math.max(0, ...needles.map((n) => n.pageChars)),
      grepMs: needles.reduce((n, x) => n + x.ms, 0),
      misses: needles.filter((n) => !n.ok),
    },
  };
}
const base = totals.none;
for (const p of POLICIES) {
  const t = totals[p.name];
  t.removedPct = pct(base.chars - t.chars, base.chars);
  t.removedWithToolDefinitionsPct = pct(base.chars - t.charsWithToolDefinitions, base.chars);
  t.cacheSavingPct = pct(base.cacheCost - t.cacheCost, base.cacheCost);
  t.sufficiencyAllPct = pct(...t.sufficiency.all);
  t.sufficiencyNewPct = pct(...t.sufficiency.new);
}
for (const c of perConversation) {
  const none = c.policies.none;
  for (const p of POLICIES) {
    const r = c.policies[p.name];
    r.removedPct = pct(none.chars - r.chars, none.chars);
    r.cacheSavingPct = pct(none.cache.cost - r.cache.cost, none.cache.cost);
    r.sufficiencyAllPct = pct(...r.sufficiency.all);
    r.sufficiencyNewPct = pct(...r.sufficiency.new);
    if (r.needles) {
      r.needles = {
        recovered: r.needles.filter((n) => n.ok).length,
        total: r.needles.length,
        misses: r.needles.filter((n) => !n.ok),
      };
    }
  }
}
const seconds = (performance.now() - started) / 1000;

// -----------------------------------------------------------------------------------------
// Output.

const n = (x) => Math.round(x).toLocaleString('en');
const p1 = (x) => (x == null ? '—' : `${x.toFixed(1)} %`);
const ratio = ([a, b]) => (b > 0 ? `${p1((100 * a) / b)} (${a}/${b})` : '—');
const table = [
  [
    'policy',
    'chars sent',
    'removed',
    'cache cost',
    'cache saving',
    'prefix-stable',
    'shrunk',
    'sufficiency all',
    'sufficiency new',
    'needles',
  ],
];
for (const p of POLICIES) {
  const t = totals[p.name];
  table.push([
    p.name,
    n(t.chars),
    p1(t.removedPct),
    n(t.cacheCost),
    p1(t.cacheSavingPct),
    `${t.stableTurns}/${t.laterTurns}`,
    `${t.shrunk}/${t.results}`,
    ratio(t.sufficiency.all),
    ratio(t.sufficiency.new),
    t.needles ? `${t.needles.recovered}/${t.needles.total}` : '—',
  ]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
console.log(
  `\nReplay over whole sessions (issue 28): ${conversations.length} conversations, ` +
    `${base.turns} turns, ${source}; ${seconds.toFixed(1)} s\n`,
);
for (const [i, r] of table.entries()) {
  console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const notes = [];
for (const p of POLICIES) {
  const t = totals[p.name];
  if (p.kind === 'materialize') {
    const defs = perConversation[0]?.policies[p.name].toolDefinitionChars ?? 0;
    const nd = t.needles;
    notes.push(
      `${p.name}: ${t.artifacts} artifacts; ${p1(t.removedWithToolDefinitionsPct)} removed counting the read-back ` +
        `tools' definitions (~${n(defs)} chars) in every turn; needles: ${nd.longLines} lines longer than a row ` +
        `(first ${LONG_LINE_PROBE} searched), ${nd.cutPatterns} patterns cut to ${n(PATTERN_MAX)}, longest page ` +
        `${n(nd.longestPage)} chars, ${n(nd.grepMs)} ms of grep` +
        (t.unrecognized ? `; ${t.unrecognized} unrecognized items` : ''),
    );
    for (const miss of nd.misses.slice(0, 5)) {
      notes.push(
        `  miss: ${miss.conversation} ${miss.ref.split('/').pop()} line ${miss.line} ` +
          `(${miss.lineChars} chars${miss.long ? `, first ${LONG_LINE_PROBE} searched` : ''}` +
          `${miss.cutPattern ? `, pattern cut to ${n(PATTERN_MAX)}` : ''}): ${miss.why}`,
      );
    }
    if (nd.misses.length > 5) notes.push(`  … ${nd.misses.length - 5} more misses in the JSON`);
  }
}
console.log(`\n${notes.join('\n')}`);

const json = {
  date: new Date().toISOString(),
  seconds,
  timing: Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])),
  corpus: { source, dir: corpus, quick: args.quick, conversations: conversations.length, turns: base.turns },
  definitions: {
    turn: 'the history sent at an assistant message: every message before it (messages[0] excluded as a turn)',
    chars: 'JSON.stringify(history).length, summed over turns',
    cache: `per turn: longest common prefix with the previous turn's serialised history read at ${CACHE_READ}×, the rest written at ${CACHE_WRITE}× (first turn all written)`,
    stable:
      "turns after a conversation's first whose serialised history, without its closing ], starts with the previous one's",
    shrunk: 'tool results whose content at the first turn after them differs from the raw content',
    sufficiency:
      'pairs (shrunk result, identifier used later by the agent that occurs in the original); shown = occurs in the text sent for the result; new = did not occur in any message before the result',
    identifiers: IDENTIFIER_RE.source,
    needles: `${NEEDLES_PER_ARTIFACT} non-blank lines of ≥ ${NEEDLE_MIN_CHARS} characters per artifact (mulberry32 seeded by FNV-1a of conversation + ref); one grep(ref, escaped line) with default options; recovered when the page is ≤ ${PAGE_MAX} characters and holds the line (its first ${LONG_LINE_PROBE} characters, also the pattern, for a line longer than a row)`,
  },
  policies: POLICIES.map(({ name, options }) => ({ name, options })),
  totals,
  conversations: perConversation,
};
const out = resolve(args.json);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
log(`\nwrote ${out}`);
