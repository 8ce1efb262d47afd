// A deterministic stand-in for ../shared/corpus (real agent transcripts, not in a fresh
// clone): same number of conversations, messages and tool results per conversation, and
// the same size distribution of tool-result content.
//
//   node bench/gen-corpus.mjs DIR   writes DIR/anthropic/*.json and DIR/openai/*.json
//
// Real corpus (see /work/shared/corpus/README.md): 30 Anthropic conversations, 896
// messages, 535 tool results, 8,196,495 UTF-16 units of tool-result content, 301 results
// ≥ 4,000, largest 66,333, 14 with array content, ~3 % non-ASCII (BMP only); 3 OpenAI
// conversations, 214 messages, 103 tool results, 150,702 units, largest 20,740.
// Sizes here come from the real corpus's quantiles (stratified, then shuffled), so the
// totals land within a few percent and the ≥ 4,000 count exactly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// [messages, tool results] of each real conversation, in file-name order.
const ANTHROPIC_SHAPE = [
  [17, 15],
  [19, 12],
  [17, 15],
  [15, 7],
  [19, 11],
  [13, 8],
  [15, 11],
  [13, 2],
  [13, 6],
  [13, 2],
  [35, 21],
  [19, 11],
  [17, 10],
  [21, 12],
  [17, 11],
  [37, 18],
  [31, 22],
  [33, 20],
  [19, 12],
  [13, 3],
  [23, 13],
  [57, 37],
  [47, 37],
  [67, 41],
  [57, 29],
  [49, 30],
  [53, 33],
  [45, 27],
  [47, 25],
  [55, 34],
];
const OPENAI_SHAPE = [
  [100, 49],
  [67, 32],
  [47, 22],
];

// Tool-result sizes (UTF-16 units) at quantiles 0, 5, …, 100 % of the real corpus, plus a
// knot putting exactly 301 of 535 Anthropic results at ≥ 4,000.
const ANTHROPIC_QUANTILES = knots(
  [
    8, 21, 25, 96, 160, 327, 446, 1573, 3374, 4698, 7719, 12951, 18800, 23190, 26353, 29348, 31910, 35896, 37745, 40793,
    66333,
  ],
  [[1 - 301 / 535, 4000]],
);
const OPENAI_QUANTILES = knots(
  [0, 0, 20, 41, 64, 80, 119, 137, 140, 208, 232, 245, 263, 302, 555, 713, 824, 1448, 1950, 5231, 20740],
  [],
);

function knots(every5, extra) {
  const points = every5.map((v, i) => [i / 20, v]);
  for (const p of extra) points.push(p);
  return points.sort((a, b) => a[0] - b[0]);
}

function quantile(points, u) {
  for (let i = 1; i < points.length; i++) {
    const [u1, v1] = points[i];
    if (u <= u1) {
      const [u0, v0] = points[i - 1];
      return Math.round(v0 + ((v1 - v0) * (u - u0)) / (u1 - u0 || 1));
    }
  }
  return points.at(-1)[1];
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  next.pick = (list) => list[next.int(list.length)];
  next.shuffle = (list) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = next.int(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  };
  return next;
}

const WORDS = (
  'the of and to in is that for it with as was on be at by this from or have an are not but ' +
  'file line error warning build test module function return const let import export async await ' +
  'compile crate value string number array object result offload tool message content session path ' +
  'directory config option default schema request response status server client handler parse token'
).split(' ');
const NON_ASCII = ['—', 'é', '→', '✓', '…', '“', '”', 'ü', '×', '•', '─', '│'];
const LINE_KINDS = [
  (r) => `   Compiling ${r.pick(WORDS)}-${r.pick(WORDS)} v${r.int(3)}.${r.int(40)}.${r.int(300)}`,
  (r) => `${String(r.int(900) + 1).padStart(6)}→${'    '.repeat(r.int(4))}${sentence(r, 3 + r.int(9))}`,
  (r) =>
    `src/${r.pick(WORDS)}/${r.pick(WORDS)}.rs:${r.int(900)}:${r.int(80)}: ${r.pick(['error', 'warning', 'note'])}: ${sentence(r, 4 + r.int(8))}`,
  (r) => `- ${sentence(r, 5 + r.int(14))}`,
  (r) => `${r.pick(['## ', '### ', '', ''])}${sentence(r, 2 + r.int(20))}`,
  () => '',
];

function sentence(r, words) {
  let s = '';
  for (let i = 0; i < words; i++) {
    let w = r.pick(WORDS);
    // ~3 % of characters non-ASCII, as in the real corpus.
    if (r() < 0.2) w = w.slice(0, 2) + r.pick(NON_ASCII) + w.slice(2);
    s += (i ? ' ' : '') + w;
  }
  return s;
}

/** Text of exactly `units` UTF-16 code units (BMP only, so units = characters). */
function text(r, units) {
  let out = '';
  while (out.length < units) out += r.pick(LINE_KINDS)(r) + '\n';
  return out.slice(0, units);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const toolUseId = (r) => 'toolu_01' + Array.from({ length: 22 }, () => BASE62[r.int(62)]).join('');

/** Stratified sizes from `points`, shuffled, so the distribution is matched closely. */
function sizes(r, points, n) {
  const list = Array.from({ length: n }, (_, k) => quantile(points, (k + 0.5) / n));
  list[n - 1] = points.at(-1)[1]; // the largest as in the real corpus
  return r.shuffle(list);
}

function anthropic(r, shapes) {
  const total = shapes.reduce((s, [, results]) => s + results, 0);
  const pool = sizes(r, ANTHROPIC_QUANTILES, total);
  // 14 of the real results carry an array of text blocks instead of a string.
  const arrayAt = new Set(r.shuffle([...pool.keys()].filter((k) => pool[k] >= 4000)).slice(0, 14));
  let next = 0;
  return shapes.map(([messages, results]) => {
    const users = Math.ceil(messages / 2);
    // Results go in user messages 2…users, each answering the assistant turn before it:
    // mostly one per message, a few messages with up to six, some with none.
    const perUser = new Array(users).fill(0);
    for (let k = 0; k < results; k++) {
      const i = k < users - 1 ? k + 1 : 1 + r.int(users - 1);
      if (perUser[i] < 6) perUser[i]++;
      else k--;
    }
    const conversation = [];
    let ids = [];
    for (let u = 0; u < users; u++) {
      const blocks = [];
      for (const id of ids) {
        const size = pool[next];
        const block = { type: 'tool_result', tool_use_id: id };
        if (arrayAt.has(next)) {
          // Sized so that its JSON.stringify (what is measured and written) has `size` units or one less.
          let body = text(r, Math.max(0, size - 27));
          for (let over; (over = JSON.stringify([{ type: 'text', text: body }]).length - size) > 0 && body;)
            body = body.slice(0, -over);
          block.content = [{ type: 'text', text: body }];
        } else {
          block.content = text(r, size);
        }
        if (r() < 0.15) block.is_error = r() < 0.2;
        blocks.push(block);
        next++;
      }
      if (u === 0 || perUser[u] === 0 || r() < 0.25) blocks.push({ type: 'text', text: text(r, 40 + r.int(3000)) });
      conversation.push({ role: 'user', content: u === 0 && r() < 0.2 ? text(r, 200 + r.int(2000)) : blocks });
      if (conversation.length === messages) break;
      const calls = u + 1 < users ? perUser[u + 1] : 0;
      const assistant = [{ type: 'text', text: text(r, 20 + r.int(1500)) }];
      if (r() < 0.5) assistant.push({ type: 'text', text: text(r, 20 + r.int(1500)) });
      ids = [];
      for (let c = 0; c < calls; c++) {
        const id = toolUseId(r);
        ids.push(id);
        assistant.push({
          type: 'tool_use',
          id,
          name: r.pick(['Bash', 'Read', 'Grep', 'Edit', 'Glob']),
          input: { command: sentence(r, 3 + r.int(10)), description: sentence(r, 4 + r.int(8)) },
        });
      }
      conversation.push({ role: 'assistant', content: assistant });
    }
    return conversation;
  });
}

function openai(r, shapes) {
  const total = shapes.reduce((s, [, results]) => s + results, 0);
  const pool = sizes(r, OPENAI_QUANTILES, total);
  let next = 0;
  return shapes.map(([messages, results]) => {
    const conversation = [
      { role: 'system', content: text(r, 5602) },
      { role: 'user', content: text(r, 3000 + r.int(3000)) },
    ];
    for (let k = 0; k < results; k++) {
      const id = `toolu_${String(k + 1).padStart(2, '0')}`;
      conversation.push({
        role: 'assistant',
        content: text(r, 100 + r.int(400)),
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: 'execute_bash', arguments: JSON.stringify({ command: sentence(r, 4 + r.int(8)) }) },
          },
        ],
      });
      conversation.push({ role: 'tool', tool_call_id: id, content: text(r, pool[next++]) });
    }
    while (conversation.length < messages) conversation.push({ role: 'assistant', content: text(r, 100 + r.int(400)) });
    return conversation;
  });
}

/** The stand-in corpus: `[{ name, format, messages }]`, in file-name order. */
export function generateCorpus(seed = 20261122) {
  const r = rng(seed);
  const a = anthropic(r, ANTHROPIC_SHAPE).map((messages, i) => ({
    name: `anthropic/generated-${String(i).padStart(2, '0')}.json`,
    format: 'anthropic',
    messages,
  }));
  const o = openai(r, OPENAI_SHAPE).map((messages, i) => ({
    name: `openai/generated-${String(i).padStart(2, '0')}.json`,
    format: 'openai',
    messages,
  }));
  return [...a, ...o];
}

/** Write the stand-in under `dir` (anthropic/, openai/). */
export function writeCorpus(dir, conversations = generateCorpus()) {
  for (const c of conversations) {
    const file = join(dir, c.name);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(c.messages));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node bench/gen-corpus.mjs DIR');
    process.exit(2);
  }
  writeCorpus(dir);
  console.log(`wrote the generated stand-in corpus to ${dir}`);
}
