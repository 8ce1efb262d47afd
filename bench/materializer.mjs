// The Materializer's hot paths (issue 10):
//
//   node bench/materializer.mjs [--quick]
//
// 1. `materializeMessages` on a 500-message conversation with nothing new: the array
//    a first call returned, passed again every turn (what an agent loop does), through
//    the npm package and the tokio host's `materialize_messages` (the same messages, via
//    host-tokio/examples/readback_artifact.rs `messages`), beside a plain JS loop that
//    only checks every tool result's length (the floor: what "nothing to do" costs).
// 2. npm `materialize()` of a 1 MB and a 10 MB string to disk beside `fs/promises`
//    `writeFile` of the same string to a fresh path, interleaved.
//
// Medians; numbers, not pass/fail. Writes target/bench/materializer.json;
// bench/report.mjs turns it into verdicts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Materializer } from 'tool-offload';

import { repoRoot } from './corpus.mjs';

const quick = process.argv.includes('--quick');
const log = (...m) => console.error(...m);
const benchDir = join(repoRoot, 'target/bench');
const targetDir = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
const tmp = mkdtempSync(join(tmpdir(), 'tool-offload-bench-materializer-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const now = () => process.hrtime.bigint();
const since = (t0) => Number(now() - t0) / 1e6;
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const pct = (p) => s[Math.round((s.length - 1) * p)];
  return { n: s.length, median: pct(0.5), p10: pct(0.1), p90: pct(0.9), min: s[0] };
}

/** Log-like ASCII lines up to `bytes` (deterministic). */
function logText(bytes) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `2026-11-23T12:00:${String(i % 60).padStart(2, '0')}.000Z INFO  worker-${i % 8} req=${String(i).padStart(10, '0')} GET /api/items/${(i * 7919) % 1e6} status=200 took=${i % 500}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

// -----------------------------------------------------------------------------------
// 1. materializeMessages, 500 messages, nothing new.

/** 250 assistant tool calls and their results (Anthropic format); every 10th result 20 KB. */
function conversation() {
  const messages = [];
  for (let i = 0; i < 250; i++) {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `step ${i}` },
        { type: 'tool_use', id, name: 'bash', input: { command: `make step-${i}` } },
      ],
    });
    const size = i % 10 === 9 ? 20_000 : 200 + ((i * 37) % 1800);
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: logText(size) }] });
  }
  return messages;
}

const given = conversation();
const messagesFile = join(tmp, 'messages-500.json');
writeFileSync(messagesFile, JSON.stringify(given));
const turns = quick ? 200 : 2000;

const m = new Materializer({ userData: join(tmp, 'npm-messages'), conversationId: 'bench' });
const first = await m.materializeMessages(given);
const steady = first.messages;
const npmSamples = [];
for (let i = 0; i < turns + 50; i++) {
  const t0 = now();
  const done = await m.materializeMessages(steady);
  const ms = since(t0);
  if (done.refs.length) throw new Error('a second pass wrote artifacts');
  if (i >= 50) npmSamples.push(ms);
}
log(
  `materializeMessages: ${steady.length} messages, ${first.refs.length} materialized by the first call; npm median ${summary(npmSamples).median.toFixed(4)} ms`,
);

/** The floor: find the tool results and check their length, nothing else. */
function plainCheck(messages) {
  let over = 0;
  for (const msg of messages) {
    if (!Array.isArray(msg.content)) continue;
    for (const block of msg.content) {
      if (
        block.type === 'tool_result' &&
        typeof block.content === 'string' &&
        block.content.length > 4000 &&
        !block.content.startsWith('[')
      )
        over++;
    }
  }
  return over;
}
const plainSamples = [];
for (let i = 0; i < turns + 50; i++) {
  const t0 = now();
  plainCheck(steady);
  if (i >= 50) plainSamples.push(since(t0));
}

log('materialize_messages through the tokio host (readback_artifact messages) …');
execFileSync(
  'cargo',
  ['build', '--quiet', '--profile', 'bench', '-p', 'tool-offload', '--example', 'readback_artifact'],
  { cwd: repoRoot, stdio: 'inherit' },
);
let rust;
try {
  const out = execFileSync(
    join(targetDir, 'release/examples/readback_artifact'),
    ['messages', messagesFile, String(turns)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const r = JSON.parse(out.trim().split('\n').at(-1));
  rust = { ...summary(r.samples), messages: r.messages, written: r.written };
} catch (e) {
  rust = { error: String(e.stderr || e.message).trim() };
}

// -----------------------------------------------------------------------------------
// 2. materialize() of a big string to disk vs fs.writeFile of the same string.

async function bigString(bytes, n) {
  const text = logText(bytes);
  const dir = join(tmp, `big-${bytes}`);
  mkdirSync(join(dir, 'plain'), { recursive: true });
  const mat = new Materializer({ userData: join(dir, 'npm'), conversationId: 'bench' });
  const samples = { materialize: [], writeFile: [] };
  const cases = {
    materialize: async (i) => {
      const r = await mat.materialize({ toolCallId: `call_${i}`, toolName: 'bash', output: text });
      if (r.inline) throw new Error('stayed inline');
    },
    writeFile: (i) => writeFile(join(dir, 'plain', `call_${i}.txt`), text),
  };
  const warmup = 3;
  const names = Object.keys(cases);
  for (let i = 0; i < warmup + n; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const t0 = now();
      await cases[name](i);
      if (i >= warmup) samples[name].push(since(t0));
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const ratios = samples.materialize.map((x, i) => x / samples.writeFile[i]);
  return {
    bytes: Buffer.byteLength(text),
    materialize: summary(samples.materialize),
    writeFile: summary(samples.writeFile),
    ratio: summary(ratios).median,
  };
}

const big = {};
for (const [label, bytes, n] of [
  ['1MB', 1e6, quick ? 10 : 40],
  ['10MB', 1e7, quick ? 4 : 12],
]) {
  log(`materialize() of ${label} vs fs.writeFile …`);
  big[label] = await bigString(bytes, n);
}

const results = {
  date: new Date().toISOString(),
  materializeMessages: {
    messages: steady.length,
    materializedFirst: first.refs.length,
    turns,
    npm: summary(npmSamples),
    rust,
    plainCheck: summary(plainSamples),
  },
  materialize: big,
};
mkdirSync(benchDir, { recursive: true });
writeFileSync(join(benchDir, 'materializer.json'), JSON.stringify(results, null, 2));

const f = (x, d = 3) => (x == null ? '—' : x.toFixed(d));
const mm = results.materializeMessages;
console.log(
  `\nmaterializeMessages, ${mm.messages} messages (${mm.materializedFirst} summaries), nothing new, median of ${turns} turns\n`,
);
console.log('| host | median ms | p90 ms |');
console.log('|---|---|---|');
console.log(`| npm package | ${f(mm.npm.median, 4)} | ${f(mm.npm.p90, 4)} |`);
console.log(`| tokio host | ${rust.error ? `FAILED: ${rust.error}` : f(rust.median, 4)} | ${f(rust.p90, 4)} |`);
console.log(`| plain JS length check (floor) | ${f(mm.plainCheck.median, 4)} | ${f(mm.plainCheck.p90, 4)} |`);
console.log('\nnpm materialize() of a string to disk vs fs/promises writeFile (medians, interleaved)\n');
console.log('| string | materialize ms | writeFile ms | ratio (per-iteration median) |');
console.log('|---|---|---|---|');
for (const [label, r] of Object.entries(big)) {
  console.log(`| ${label} | ${f(r.materialize.median, 2)} | ${f(r.writeFile.median, 2)} | ${f(r.ratio, 2)}× |`);
}
