// Direct-offload latency through the npm package (wasm core): `node bench/direct.mjs`.
// Prints p50/p99 per case; numbers, not pass/fail. bench/README.md records them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileWriter, offloadToolResult } from 'tool-offload';

const line = '   Compiling serde v1.0.219 (build step 17 of 240) — 😀 ok\n';
const message = (chars) => ({
  role: 'user',
  content: [
    { type: 'text', text: 'here is the log' },
    {
      type: 'tool_result',
      tool_use_id: 'toolu_bench',
      content: [...line]
        .join('')
        .repeat(Math.ceil(chars / line.length))
        .slice(0, chars),
    },
  ],
});

const memory = { async mkdir() {}, async writeFile() {} };
const dir = mkdtempSync(join(tmpdir(), 'tool-offload-bench-'));

async function bench(name, n, fn) {
  for (let i = 0; i < Math.min(20, n); i++) await fn(); // warm-up
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  samples.sort((a, b) => a - b);
  const pct = (p) => samples[Math.round((samples.length - 1) * p)];
  console.log(
    `${name.padEnd(44)} p50 ${pct(0.5).toFixed(1).padStart(9)} µs   p99 ${pct(0.99).toFixed(1).padStart(9)} µs   (n=${n})`,
  );
}

console.log('direct offload, npm package (wasm core)');
for (const [label, chars, n] of [
  ['1 KB', 1_000, 2_000],
  ['1 MB', 1_000_000, 300],
]) {
  const msg = message(chars);
  await bench(`${label} result, in-memory writer (compute)`, n, () =>
    offloadToolResult(msg, 's', 'out', memory, { cwd: '/bench' }),
  );
  await bench(`${label} result, NodeFileWriter (disk)`, n, () =>
    offloadToolResult(msg, 's', dir, new NodeFileWriter()),
  );
}
rmSync(dir, { recursive: true, force: true });
