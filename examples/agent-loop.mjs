// Demo: a complete agent loop whose tool results go through a ToolRegistry with
// offloading on, then a batch offload of the whole history. The model is scripted
// (examples/agent-loop/script.json): no network, no API key.
//   node examples/agent-loop.mjs [outputDir]
//
// host-tokio/examples/agent_loop.rs replays the same script with the Rust crate; both
// print the same numbers and write byte-identical files.
import { readFile, rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { ToolRegistry, offloadToolResults, registerTodoTools } from 'tool-offload';
import {
  chars,
  printFiles,
  printSent,
  printSizeHeading,
  registerBuildTool,
  runLoop,
  scriptedModel,
  size,
} from './lib/scripted-loop.mjs';

const fixtures = new URL('./agent-loop/', import.meta.url);
const script = JSON.parse(await readFile(new URL('script.json', fixtures), 'utf8'));
const outputDir = process.argv[2] ?? 'out/agent-loop/node';
await rm(outputDir, { recursive: true, force: true });

// ── Tools ────────────────────────────────────────────────────────────────────────
const registry = new ToolRegistry({
  offload: { outputDir, sessionId: script.sessionId, thresholdChars: script.registryThreshold },
});
registerTodoTools(registry);
registerBuildTool(registry, script.build); // fails, so its result reports is_error (offloading keeps the flag)
registry.register(
  {
    name: 'search_file',
    description:
      'Print the lines of a file that contain `pattern` (numbered like grep -n), each followed by `after` lines.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, pattern: { type: 'string' }, after: { type: 'integer', minimum: 0 } },
      required: ['path', 'pattern'],
    },
  },
  async ({ path, pattern, after = 0 }) => {
    let text;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return { content: `cannot read ${path}`, is_error: true };
    }
    return { content: searchLines(text.split('\n'), pattern, after) };
  },
);
registry.register(
  {
    name: 'read_file',
    description: 'Read lines of a file in the repository, numbered like cat -n.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer', minimum: 1 },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
  },
  async ({ path, offset = 1, limit = 2000 }) => {
    if (path.startsWith('/') || path.split('/').includes('..'))
      return { content: `not in the repository: ${path}`, is_error: true };
    let text;
    try {
      text = await readFile(new URL(`project/${path}`, fixtures), 'utf8');
    } catch {
      return { content: `no such file: ${path}`, is_error: true };
    }
    const lines = text.split('\n').slice(offset - 1, offset - 1 + limit);
    return { content: lines.map((line, i) => `${String(offset + i).padStart(6)}\t${line}`).join('\n') };
  },
);

// ── The loop ─────────────────────────────────────────────────────────────────────
// `fullHistory` is the conversation with every tool result kept whole (read back from
// its file), to show what offloading saved.
const loop = await runLoop({
  title: 'Agent loop — npm package (tool-offload, wasm core)',
  registry,
  model: scriptedModel(script.assistant, fillOffloaded),
  prompt: script.prompt,
  fullCopy: offloadedPath,
  printCall: ({ call, full, file, flag }) => {
    const where = file ? `offloaded → ${relative(outputDir, file)}` : 'inline';
    console.log(
      `    ${call.name.padEnd(12)} ${call.id.padEnd(18)} ${String(full.content.length).padStart(6)} chars  ${where}${flag}`,
    );
  },
});
const { history, fullHistory } = loop;

// ── Batch offload of the finished history ────────────────────────────────────────
const batch = await offloadToolResults(history, {
  outputDir: `${outputDir}/history`,
  threshold: script.batchThreshold,
});

printSizeHeading(loop);
console.log(`  without offloading    ${chars(size(fullHistory))}`);
console.log(
  `  with the registry     ${chars(size(history))}   results of ≥ ${script.registryThreshold} chars offloaded as they arrived`,
);
console.log(
  `  after the batch step  ${chars(size(batch.messages))}   ${batch.offloadedCount} more results of ≥ ${script.batchThreshold} chars offloaded (${batch.freedChars} chars)`,
);
printSent(loop, 'offloading');

await printFiles('Files written:', outputDir, [...loop.files, ...batch.files], 40);

console.log('\nFinal todo list:');
const { content } = await registry.getTool('TodoRead').handler({});
const marks = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
for (const todo of JSON.parse(content).todos) console.log(`  ${marks[todo.status]} ${todo.content}`);

// ── Helpers ──────────────────────────────────────────────────────────────────────

/** The absolute path in a registry placeholder, or undefined for a result kept inline. */
function offloadedPath(content) {
  return /^\[Tool result offloaded to file: (.+)\]$/.exec(content)?.[1];
}

/** A script string as the model says it: "{{offloaded:<id>}}" becomes the path from that result's placeholder. */
function fillOffloaded(text, contentOf) {
  return text.replace(/\{\{offloaded:([^}]+)\}\}/g, (_, id) => {
    const path = offloadedPath(contentOf(id));
    if (!path) throw new Error(`the script expects ${id} to have been offloaded`);
    return path;
  });
}

/** `grep -n -A<after>`: matching lines and the `after` lines following each, numbered from 1. */
function searchLines(lines, pattern, after) {
  const out = [];
  let shownUpTo = -1;
  lines.forEach((line, i) => {
    if (!line.includes(pattern)) return;
    for (let j = Math.max(i, shownUpTo + 1); j <= Math.min(i + after, lines.length - 1); j++) {
      out.push(`${j + 1}${lines[j].includes(pattern) ? ':' : '-'}${lines[j]}`);
      shownUpTo = j;
    }
  });
  return out.length ? out.join('\n') : `no lines contain ${JSON.stringify(pattern)}`;
}
