// Demo: offload a large tool-result message through the npm package.
//   node examples/direct-offload.mjs [outputDir]
import { readFile } from 'node:fs/promises';
import { offloadToolResultToFile } from 'tool-offload';

const sample = new URL('./sample/tool-result-message.json', import.meta.url);
const message = JSON.parse(await readFile(sample, 'utf8'));
const outputDir = process.argv[2] ?? 'out/demo';

const before = JSON.stringify(message).length;
const result = await offloadToolResultToFile(message, { sessionId: 'node', outputDir });
const after = JSON.stringify(result.message).length;

console.log('npm package (tool-offload, wasm core):');
for (const file of result.files) console.log(`  wrote ${file}`);
console.log(`  freed ${result.freedChars} characters of tool-result content`);
console.log(
  `  message: ${before} → ${after} characters (~${Math.round(before / 4)} → ~${Math.round(after / 4)} tokens)`,
);
console.log(`  first block now: ${result.message.content[0].content}`);
