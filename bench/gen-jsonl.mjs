// A long conversation as JSON Lines (one message per line), deterministic, streamed:
//
//   node bench/gen-jsonl.mjs OUTPUT [BYTES]      (default 1 GiB; OUTPUT `-` is stdout)
//
// The generated stand-in corpus (gen-corpus.mjs: 30 Anthropic + 3 OpenAI conversations,
// ~8.4 M UTF-16 units of tool results) repeated pass after pass as one conversation, every
// tool-call id suffixed with its pass number so ids stay unique, until at least BYTES
// bytes are written. Prints what it wrote on stderr.
import { closeSync, openSync, writeSync } from 'node:fs';

import { generateCorpus } from './gen-corpus.mjs';

const [output, bytesArg] = process.argv.slice(2);
if (!output) {
  console.error('usage: node bench/gen-jsonl.mjs OUTPUT [BYTES]');
  process.exit(2);
}
const target = Number(bytesArg ?? 2 ** 30);
const conversations = generateCorpus();
const fd = output === '-' ? 1 : openSync(output, 'w');

const suffixIds = (message, pass) => {
  const s = `-p${pass}`;
  const m = { ...message };
  if (typeof m.tool_call_id === 'string') m.tool_call_id += s;
  if (Array.isArray(m.tool_calls)) m.tool_calls = m.tool_calls.map((c) => ({ ...c, id: c.id + s }));
  if (Array.isArray(m.content)) {
    m.content = m.content.map((b) => {
      if (b.type === 'tool_use') return { ...b, id: b.id + s };
      if (b.type === 'tool_result') return { ...b, tool_use_id: b.tool_use_id + s };
      return b;
    });
  }
  return m;
};

let written = 0;
let messages = 0;
let passes = 0;
let chunk = [];
let chunkBytes = 0;
const flush = () => {
  const buffer = Buffer.from(chunk.join(''), 'utf8');
  for (let off = 0; off < buffer.length;) off += writeSync(fd, buffer, off);
  written += buffer.length;
  chunk = [];
  chunkBytes = 0;
};
while (written + chunkBytes < target) {
  for (const c of conversations) {
    for (const message of c.messages) {
      const line = JSON.stringify(suffixIds(message, passes)) + '\n';
      chunk.push(line);
      chunkBytes += Buffer.byteLength(line);
      messages++;
      if (chunkBytes >= 4 << 20) flush();
    }
  }
  passes++;
}
flush();
if (fd !== 1) closeSync(fd);
console.error(`gen-jsonl: ${written} bytes, ${messages} messages (${passes} passes over the generated corpus)`);
