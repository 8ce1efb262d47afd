// Regenerates sample/tool-result-message.json, the demo's bundled input: a user message
// answering two tool calls, one with a ~120 KB build log (string content) and one with
// a test report (array content). Deterministic: `node examples/sample/generate.mjs`.
import { writeFileSync } from 'node:fs';

let seed = 42;
const rand = (n) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
const crates = ['serde', 'tokio', 'hyper', 'regex', 'rand', 'clap', 'syn', 'quote', 'anyhow', 'tracing'];
const lines = [];
for (let i = 0; lines.join('\n').length < 120_000; i++) {
  const krate = crates[rand(crates.length)];
  const version = `1.${rand(40)}.${rand(20)}`;
  if (i % 97 === 96) lines.push(`warning: unused variable: \`tmp_${i}\` --> src/worker_${rand(9)}.rs:${rand(400)}:9`);
  else if (i % 61 === 60)
    lines.push(`   Downloaded ${krate} v${version} (${rand(900) + 20} KB) — 😀 cache hit ratio ${rand(100)}%`);
  else lines.push(`   Compiling ${krate} v${version} (build #${i}, ${rand(3000)} ms)`);
}
lines.push(
  'error[E0308]: mismatched types --> src/main.rs:42:17',
  'error: could not compile `agent` due to 1 previous error',
);

const report = Array.from({ length: 40 }, (_, i) => ({
  type: 'text',
  text: `test suite ${i}: ${rand(200)} passed, ${rand(3)} failed, ${rand(5)} ignored; finished in ${(rand(9000) / 1000).toFixed(3)}s`,
}));

const message = {
  role: 'user',
  content: [
    { type: 'tool_result', tool_use_id: 'toolu_01BuildLog', content: lines.join('\n') },
    { type: 'text', text: 'Both commands finished; the build failed.' },
    { type: 'tool_result', tool_use_id: 'toolu_02TestReport', content: report, cache_control: { type: 'ephemeral' } },
  ],
};
writeFileSync(new URL('./tool-result-message.json', import.meta.url), JSON.stringify(message, null, 1) + '\n');
