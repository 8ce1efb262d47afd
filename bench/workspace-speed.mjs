// Workspace.offloadToolResult against Materializer.materialize of the same text, through
// the npm package (issue 33, "The workspace at the Materializer's speed"): 1, 10 and 50 MB
// build logs, each stored fresh; ms, best of 5, the two taking turns (so that both meet
// the garbage collector alike). Numbers, not pass/fail.
//
//   node bench/workspace-speed.mjs [--quick]      (--quick: 1 and 10 MB)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { Materializer, Workspace } from 'tool-offload';

const sizes = process.argv.includes('--quick') ? [1, 10] : [1, 10, 50];

function log(bytes) {
  const line = (i) => `[${String(i).padStart(7, '0')}] INFO compiling crate_${i % 97} v0.${i % 13}.0 in ${i % 900}ms\n`;
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = i % 5000 === 4999 ? `error[E0308]: mismatched types at src/lib.rs:${i}\n` : line(i);
    parts.push(l);
    size += l.length;
  }
  return parts.join('');
}

const dir = mkdtempSync(join(tmpdir(), 'tool-offload-ws-speed-'));
let n = 0;
// Best of 5 of each, `a` and `b` taking turns.
const bestOfTurns = async (a, b) => {
  let [minA, minB] = [Infinity, Infinity];
  for (let i = 0; i < 5; i++) {
    for (const [run, set] of [
      [a, (ms) => (minA = Math.min(minA, ms))],
      [b, (ms) => (minB = Math.min(minB, ms))],
    ]) {
      const start = performance.now();
      await run(n++);
      set(performance.now() - start);
    }
  }
  return [minA, minB];
};

console.log('| output | Materializer.materialize | Workspace.offloadToolResult | × |');
console.log('|---|---:|---:|---:|');
for (const mb of sizes) {
  const text = log(mb * 1e6);
  const m = new Materializer({ userData: join(dir, 'm'), conversationId: 'c' });
  const ws = new Workspace({ root: join(dir, 'w') });
  const [materialize, offload] = await bestOfTurns(
    (i) => m.materialize({ toolCallId: `m${i}`, toolName: 'bash', output: text }),
    (i) => ws.offloadToolResult({ toolCallId: `w${i}`, toolName: 'bash', content: text }),
  );
  console.log(
    `| ${mb} MB | ${materialize.toFixed(0)} | ${offload.toFixed(0)} | ${(offload / materialize).toFixed(2)} |`,
  );
}
rmSync(dir, { recursive: true, force: true });
