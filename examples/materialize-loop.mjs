// Demo: an agent loop whose tool results go through a Materializer: an oversized result
// is stored as an artifact and the model gets a summary with a ref, which it reads back
// with the context_grep / context_read tools. Then the conversation is exported to one
// bundle file and imported elsewhere. The model is scripted
// (examples/materialize-loop/script.json): no network, no API key.
//   node examples/materialize-loop.mjs [userDataDir]
//
// host-tokio/examples/materialize_loop.rs replays the same script with the Rust crate;
// both print the same report and write byte-identical files.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Materializer, ToolRegistry, importConversation } from 'tool-offload';

const script = JSON.parse(await readFile(new URL('./materialize-loop/script.json', import.meta.url), 'utf8'));
const userData = process.argv[2] ?? 'out/materialize-loop/node';
const conversationId = script.conversationId;
await rm(userData, { recursive: true, force: true });

// ── Tools: the Materializer's read-back tools and a build that prints a lot ──────────
const materializer = new Materializer({ userData, conversationId });
const registry = new ToolRegistry({ materialize: materializer });
materializer.registerTools(registry); // context_read, context_tail, context_grep

const buildLog = generateBuildLog(script.build);
registry.register(
  {
    name: 'run_build',
    description: 'Run a build command in the repository and return its full output.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  async () => ({ content: buildLog, is_error: true }), // the build fails; is_error is kept
);

// ── The loop ─────────────────────────────────────────────────────────────────────
// `history` is what the loop sends; `fullHistory` is the same conversation with every
// materialized result inline in full (read back from its artifact).
const tools = registry.getToolDefinitions(); // what a real loop passes as `tools`
const model = scriptedModel(script.assistant);
const prompt = { role: 'user', content: script.prompt };
const history = [prompt];
const fullHistory = [prompt];
const artifacts = [];
let sent = 0;
let sentFull = 0;

console.log('Materialize loop — npm package (tool-offload, wasm core), scripted model:');
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
    const ref = summaryRef(result.content);
    const full = ref ? { ...result, content: await readFile(artifactPath(ref), 'utf8') } : result;
    if (ref) artifacts.push(artifactPath(ref));
    results.push(result);
    fullResults.push(full);
    const flag = result.is_error ? ' (is_error)' : '';
    const where = ref ? `summary; the output (${full.content.length} chars) is in the artifact` : 'inline';
    console.log(`    ${call.name.padEnd(12)} ${call.id.padEnd(15)} ${String(result.content.length).padStart(5)} chars  ${where}${flag}`);
    console.log(`      ${result.content.split('\n')[0]}`);
  }
  history.push({ role: 'user', content: results });
  fullHistory.push({ role: 'user', content: fullResults });
}

const calls = history.filter((m) => m.role === 'assistant').length;
console.log(`\nConversation size (${history.length} messages; JSON characters, ~4 per token):`);
console.log(`  without materialization  ${chars(size(fullHistory))}   every result inline in full`);
console.log(`  with materialization     ${chars(size(history))}   oversized results replaced by their summary`);
console.log(`Sent to the model over ${calls} calls: ${sent} chars (~${tokens(sent)} tokens); without materialization ${sentFull} chars (~${tokens(sentFull)} tokens)`);
const { hits, inlined, savedChars, avgSavedChars } = materializer.stats();
console.log(`stats(): hits ${hits}, inlined ${inlined}, savedChars ${savedChars}, avgSavedChars ${avgSavedChars}`);
const again = await materializer.materializeMessages(history);
console.log(`materializeMessages(history) again: ${again.refs.length} new artifacts (summaries are left alone)`);

// ── Export, then import into a second directory ──────────────────────────────────
const bundle = await materializer.exportConversation(history);
const bundleFile = join(userData, 'bundle.json');
await writeFile(bundleFile, JSON.stringify(bundle));
const importDir = join(userData, 'imported');
const imported = await importConversation(JSON.parse(await readFile(bundleFile, 'utf8')), { userData: importDir });
const n = bundle.artifacts.length;
console.log(`\nExported ${bundle.messages.length} messages and ${n} artifact${n === 1 ? '' : 's'} (with SHA-256) to bundle.json; imported it into imported/`);
const restored = new Materializer({ userData: importDir, conversationId: imported.conversationId });
const ref = bundle.artifacts[0].ref;
console.log(`  grep(${JSON.stringify(ref)}, "error", first match) in imported/:`);
for (const line of (await restored.grep(ref, 'error', { context: 0, maxMatches: 1 })).split('\n')) console.log(`    ${line}`);

console.log('\nFiles written (relative to the output directory):');
for (const file of [...artifacts, bundleFile, ...imported.paths]) {
  console.log(`  ${relative(userData, file).padEnd(58)} ${String((await stat(file)).size).padStart(6)} bytes`);
}

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

/** The ref named on the first line of a summary, or undefined for any other content. */
function summaryRef(content) {
  return /^\[Output of .*? stored as (ctx:\/\/\S+) and not shown in full: /.exec(content)?.[1];
}

/** Where a ref of this conversation is stored: …/context/<conversationId>/artifacts/<kind>/<file>. */
function artifactPath(ref) {
  return join(userData, 'context', conversationId, 'artifacts', ref.slice(`ctx://${conversationId}/`.length));
}

/**
 * A model that replies with the script's assistant turns in order. Like a real model it
 * reads earlier results: a string "{{ref:<id>}}" becomes the ref on the first line of that result's summary.
 */
function scriptedModel(turns) {
  let next = 0;
  return (history) => {
    if (next === turns.length) throw new Error('the script has no more turns');
    const results = history.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
    const fill = (value) => {
      const id = typeof value === 'string' ? /^\{\{ref:(.+)\}\}$/.exec(value)?.[1] : undefined;
      if (id !== undefined) {
        const ref = summaryRef(results.find((r) => r.tool_use_id === id)?.content ?? '');
        if (!ref) throw new Error(`the script expects ${id} to have been materialized`);
        return ref;
      }
      if (Array.isArray(value)) return value.map(fill);
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
      return value;
    };
    return fill(turns[next++]);
  };
}

/**
 * A deterministic cargo-style build log of about `targetChars` characters: compile lines
 * with a warning every 89th line, `buried[i]` inserted after line i, then `tail`
 * ({warnings} filled in). The random numbers are a Park–Miller generator (exact in both
 * JavaScript and Rust integers).
 */
function generateBuildLog({ seed, targetChars, crates, buried, tail }) {
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
    for (const added of [line, ...(buried[i] ?? [])]) {
      lines.push(added);
      total += added.length + 1;
    }
  }
  for (const line of tail) lines.push(line.replaceAll('{warnings}', String(warnings)));
  return lines.join('\n');
}
