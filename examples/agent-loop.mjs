// Demo: a complete agent loop whose tool results go through a ToolRegistry with
// offloading on, then a batch offload of the whole history. The model is scripted
// (examples/agent-loop/script.json): no network, no API key.
//   node examples/agent-loop.mjs [outputDir]
//
// host-tokio/examples/agent_loop.rs replays the same script with the Rust crate; both
// print the same numbers and write byte-identical files.
import { readFile, rm, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { ToolRegistry, offloadToolResults, registerTodoTools } from 'tool-offload';

const fixtures = new URL('./agent-loop/', import.meta.url);
const script = JSON.parse(await readFile(new URL('script.json', fixtures), 'utf8'));
const outputDir = process.argv[2] ?? 'out/agent-loop/node';
await rm(outputDir, { recursive: true, force: true });

// ── Tools ────────────────────────────────────────────────────────────────────────
const registry = new ToolRegistry({
  offload: { outputDir, sessionId: script.sessionId, thresholdChars: script.registryThreshold },
});
registerTodoTools(registry);

const buildLog = generateBuildLog(script.build);
registry.register(
  {
    name: 'run_build',
    description: 'Run a build command in the repository and return its full output.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  // The build fails, so the result reports is_error (offloading keeps the flag).
  async () => ({ content: buildLog, is_error: true }),
);
registry.register(
  {
    name: 'search_file',
    description: 'Print the lines of a file that contain `pattern` (numbered like grep -n), each followed by `after` lines.',
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
      properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1 } },
      required: ['path'],
    },
  },
  async ({ path, offset = 1, limit = 2000 }) => {
    if (path.startsWith('/') || path.split('/').includes('..')) return { content: `not in the repository: ${path}`, is_error: true };
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
// `history` is what the loop sends; `fullHistory` is the same conversation with every
// tool result kept whole (read back from its file), to show what offloading saved.
const tools = registry.getToolDefinitions(); // what a real loop passes as `tools`
const model = scriptedModel(script.assistant);
const prompt = { role: 'user', content: script.prompt };
const history = [prompt];
const fullHistory = [prompt];
const registryFiles = [];
let sent = 0;
let sentFull = 0;

console.log('Agent loop — npm package (tool-offload, wasm core), scripted model:');
console.log(`  ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);
console.log(`  user: ${script.prompt}`);
for (let turn = 1; ; turn++) {
  sent += size(history);
  sentFull += size(fullHistory);
  const reply = model(history);
  history.push(reply);
  fullHistory.push(reply);
  const text = reply.content.find((b) => b.type === 'text')?.text ?? '';
  const calls = reply.content.filter((b) => b.type === 'tool_use');
  const [first, ...more] = text.split('\n');
  console.log(`  turn ${turn} assistant: ${first}`);
  for (const line of more) console.log(`  | ${line}`.trimEnd());
  if (calls.length === 0) break; // end_turn: no tool_use, the model has answered

  const results = [];
  const fullResults = [];
  for (const call of calls) {
    const result = await registry.executeTool(call.id, call.name, call.input);
    const file = offloadedPath(result.content);
    const full = file ? { ...result, content: await readFile(file, 'utf8') } : result;
    if (file) registryFiles.push(file);
    results.push(result);
    fullResults.push(full);
    const where = file ? `offloaded → ${relative(outputDir, file)}` : 'inline';
    const flag = result.is_error ? ' (is_error)' : '';
    console.log(`    ${call.name.padEnd(12)} ${call.id.padEnd(18)} ${String(full.content.length).padStart(6)} chars  ${where}${flag}`);
  }
  history.push({ role: 'user', content: results });
  fullHistory.push({ role: 'user', content: fullResults });
}

// ── Batch offload of the finished history ────────────────────────────────────────
const batch = await offloadToolResults(history, { outputDir: `${outputDir}/history`, threshold: script.batchThreshold });

const calls = history.filter((m) => m.role === 'assistant').length;
console.log(`\nConversation size (${history.length} messages; JSON characters, ~4 per token):`);
console.log(`  without offloading    ${chars(size(fullHistory))}`);
console.log(`  with the registry     ${chars(size(history))}   results of ≥ ${script.registryThreshold} chars offloaded as they arrived`);
console.log(`  after the batch step  ${chars(size(batch.messages))}   ${batch.offloadedCount} more results of ≥ ${script.batchThreshold} chars offloaded (${batch.freedChars} chars)`);
console.log(`Sent to the model over ${calls} calls: ${sent} chars (~${tokens(sent)} tokens); without offloading ${sentFull} chars (~${tokens(sentFull)} tokens)`);

console.log('\nFiles written:');
for (const file of [...registryFiles, ...batch.files]) {
  console.log(`  ${relative(outputDir, file).padEnd(40)} ${String((await stat(file)).size).padStart(6)} bytes`);
}

console.log('\nFinal todo list:');
const { content } = await registry.getTool('TodoRead').handler({});
const marks = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
for (const todo of JSON.parse(content).todos) console.log(`  ${marks[todo.status]} ${todo.content}`);

// ── Helpers ──────────────────────────────────────────────────────────────────────

/** Size of a conversation as the API receives it: UTF-16 length of its JSON. */
function size(messages) {
  return JSON.stringify(messages).length;
}

/** A rough token estimate: about four characters per token. */
function tokens(n) {
  return Math.round(n / 4);
}

function chars(n) {
  return `${String(n).padStart(6)} chars ≈ ${String(tokens(n)).padStart(5)} tokens`;
}

/** The absolute path in a registry placeholder, or undefined for a result kept inline. */
function offloadedPath(content) {
  return /^\[Tool result offloaded to file: (.+)\]$/.exec(content)?.[1];
}

/**
 * A model that replies with the script's assistant turns in order. Like a real model it
 * reads earlier results: "{{offloaded:<id>}}" becomes the path from that result's placeholder.
 */
function scriptedModel(turns) {
  let next = 0;
  return (history) => {
    if (next === turns.length) throw new Error('the script has no more turns');
    const results = history.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
    const fill = (value) => {
      if (typeof value === 'string') {
        return value.replace(/\{\{offloaded:([^}]+)\}\}/g, (_, id) => {
          const path = offloadedPath(results.find((r) => r.tool_use_id === id)?.content ?? '');
          if (!path) throw new Error(`the script expects ${id} to have been offloaded`);
          return path;
        });
      }
      if (Array.isArray(value)) return value.map(fill);
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
      return value;
    };
    return fill(turns[next++]);
  };
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

/**
 * A deterministic cargo-style build log of about `targetChars` characters: compile
 * lines with a warning every 89th line, then `tail` ({warnings} filled in). The random
 * numbers are a Park–Miller generator (exact in both JavaScript and Rust integers).
 */
function generateBuildLog({ seed, targetChars, crates, tail }) {
  let state = seed;
  const next = (n) => (state = (state * 48271) % 2147483647) % n;
  const lines = [];
  let total = 0;
  let warnings = 0;
  for (let i = 1; total < targetChars; i++) {
    const crate = crates[next(crates.length)];
    const version = `0.${next(30)}.${next(20)}`;
    const ms = next(3000);
    let line;
    if (i % 89 === 0) {
      warnings++;
      line = `warning: unused variable: \`tmp_${i}\` — src/worker_${i % 9}.rs:${(ms % 400) + 1}:9`;
    } else if (i % 37 === 0) {
      line = `  Downloaded ${crate} v${version} (${(ms % 900) + 20} KB)`;
    } else {
      line = `   Compiling ${crate} v${version} (build #${i}, ${ms} ms)`;
    }
    lines.push(line);
    total += line.length + 1;
  }
  for (const line of tail) lines.push(line.replaceAll('{warnings}', String(warnings)));
  return lines.join('\n');
}
