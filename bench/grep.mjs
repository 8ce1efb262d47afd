// grep throughput through the npm package (core's regex-lite engine in wasm):
// `node bench/grep.mjs`. For comparison, the same rows searched by JavaScript's own RegExp
// in plain JS (what grep used before issue 9, minus the wasm callback per row). Prints
// milliseconds per MB of artifact; numbers, not pass/fail. bench/README.md records them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Materializer } from 'tool-offload';

// A ~1 MB build log: INFO lines, an error every 1000 lines.
const lines = [];
for (let i = 0; i < 16_000; i++) {
  lines.push(`2026-11-23 12:00:${String(i % 60).padStart(2, '0')} INFO worker ${i % 7} processed item ${i} in 12ms`);
  if (i % 1000 === 0) lines.push('ERROR something failed: Exception in thread "main"');
}
const text = lines.join('\n');
const mb = Buffer.byteLength(text) / 1e6;

const dir = mkdtempSync(join(tmpdir(), 'tool-offload-bench-grep-'));
const m = new Materializer({ userData: dir, conversationId: 'bench' });
const { ref } = await m.materialize({ toolCallId: 'log', toolName: 'bash', output: text });

// The worst the limits allow: a program near the 64 KiB compiled limit, every state live.
const worst = '(a|aa){256}c';
const runs = 'a'.repeat(1999) + 'b\n';
const { ref: runsRef } = await m.materialize({ toolCallId: 'runs', toolName: 'bash', output: runs.repeat(500) });
const runsMb = Buffer.byteLength(runs.repeat(500)) / 1e6;

// One line of minified JSON, ~3 MB: its rows are cut from it as its bytes arrive (a
// line longer than a read chunk); this took ~2.5 s a MB natively before the cut stopped
// recounting the rest of the chunk for each row.
const oneLine = JSON.stringify(
  Array.from({ length: 40_000 }, (_, i) => ({ id: i, user: 'ann', note: i % 5000 === 0 ? 'error: x' : 'ok' })),
);
const { ref: lineRef } = await m.materialize({ toolCallId: 'line', toolName: 'bash', output: oneLine });
const lineMb = Buffer.byteLength(oneLine) / 1e6;

async function time(fn, n) {
  await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e6 / n;
}

const cases = [
  ['Error|Exception', ref.id, mb, lines, false],
  ['error|exception|traceback|panic|fatal|failed', ref.id, mb, lines, true],
  ['item \\d+5 in', ref.id, mb, lines, false],
  ['(a+)+$ (rows of 1999 a then b)', runsRef.id, runsMb, null, false],
  [`${worst} (rows of 1999 a then b)`, runsRef.id, runsMb, null, false],
  ['error (one line of minified JSON)', lineRef.id, lineMb, null, false],
];
console.log(`grep over ${mb.toFixed(2)} MB (${lines.length} lines) and ${runsMb.toFixed(2)} MB of long runs`);
for (const [label, r, size, rows, ignoreCase] of cases) {
  const pattern = label.split(' (')[0];
  const n = pattern === worst ? 1 : 5;
  const ms = await time(() => m.grep(r, pattern, { context: 0, maxMatches: 1, ignoreCase }), n);
  let js = '';
  if (rows) {
    const re = new RegExp(pattern, ignoreCase ? 'i' : '');
    const jsMs = await time(() => rows.filter((row) => re.test(row)).length, n);
    js = `   JS RegExp ${(jsMs / size).toFixed(2).padStart(8)} ms/MB`;
  }
  console.log(`${label.padEnd(48)} grep ${(ms / size).toFixed(1).padStart(8)} ms/MB${js}`);
}
rmSync(dir, { recursive: true, force: true });
