// Shared by examples/agent-loop.mjs and examples/materialize-loop.mjs: the scripted
// model, the turn loop, the size accounting and the failing build both demos replay.
// host-tokio/examples/common/scripted_loop.rs is the Rust counterpart.
import { readFile, stat } from 'node:fs/promises';
import { relative } from 'node:path';

/**
 * A model that replies with the script's assistant turns in order. Like a real model it
 * reads earlier results: every string of a turn goes through `fillString(text, contentOf)`,
 * where `contentOf(id)` is the content of the tool result for `id` ('' if there is none).
 */
export function scriptedModel(turns, fillString) {
  let next = 0;
  return (history) => {
    if (next === turns.length) throw new Error('the script has no more turns');
    const results = history
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result');
    const contentOf = (id) => results.find((r) => r.tool_use_id === id)?.content ?? '';
    const fill = (value) => {
      if (typeof value === 'string') return fillString(value, contentOf);
      if (Array.isArray(value)) return value.map(fill);
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
      return value;
    };
    return fill(turns[next++]);
  };
}

/**
 * The agent loop: prints `title`, the tools and the prompt, then asks `model` for a turn,
 * prints its text and runs its tool calls through `registry` until a turn has none.
 * `history` is what the loop sends; `fullHistory` is the same conversation with every
 * result whose full text is in a file (`fullCopy(content)` names it, or returns undefined
 * for a result kept inline) read back from that file. `printCall({ call, result, full,
 * file, flag })` reports each call; `flag` is ' (is_error)' for an error result, else ''.
 * Returns both histories, the files in the order they appeared, and how many characters
 * were sent over all the model calls with and without the files' contents inline.
 */
export async function runLoop({ title, registry, model, prompt, fullCopy, printCall }) {
  const tools = registry.getToolDefinitions(); // what a real loop passes as `tools`
  const message = { role: 'user', content: prompt };
  const history = [message];
  const fullHistory = [message];
  const files = [];
  let sent = 0;
  let sentFull = 0;

  console.log(`${title}, scripted model:`);
  console.log(`  ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);
  console.log(`  user: ${prompt}`);
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
      const file = fullCopy(result.content);
      const full = file ? { ...result, content: await readFile(file, 'utf8') } : result;
      if (file) files.push(file);
      results.push(result);
      fullResults.push(full);
      printCall({ call, result, full, file, flag: result.is_error ? ' (is_error)' : '' });
    }
    history.push({ role: 'user', content: results });
    fullHistory.push({ role: 'user', content: fullResults });
  }
  return { history, fullHistory, files, sent, sentFull };
}

/** The line above the size report: how many messages the conversation has. */
export function printSizeHeading({ history }) {
  console.log(`\nConversation size (${history.length} messages; JSON characters, ~4 per token):`);
}

/** What was sent over all the model calls, and what would have been `without` the feature. */
export function printSent({ history, sent, sentFull }, without) {
  const calls = history.filter((m) => m.role === 'assistant').length;
  console.log(
    `Sent to the model over ${calls} calls: ${sent} chars (~${tokens(sent)} tokens); without ${without} ${sentFull} chars (~${tokens(sentFull)} tokens)`,
  );
}

/** `heading`, then each file relative to `dir` (padded to `width`) with its size in bytes. */
export async function printFiles(heading, dir, files, width) {
  console.log(`\n${heading}`);
  for (const file of files) {
    console.log(`  ${relative(dir, file).padEnd(width)} ${String((await stat(file)).size).padStart(6)} bytes`);
  }
}

/** Size of a conversation as the API receives it: UTF-16 length of its JSON. */
export function size(messages) {
  return JSON.stringify(messages).length;
}

/** A rough token estimate: about four characters per token. */
export function tokens(n) {
  return Math.round(n / 4);
}

export function chars(n) {
  return `${String(n).padStart(6)} chars ≈ ${String(tokens(n)).padStart(5)} tokens`;
}

/**
 * Registers `run_build`, whose result is always the build log `build` describes (see
 * generateBuildLog). The build fails, so the result reports is_error, which offloading and
 * materializing keep.
 */
export function registerBuildTool(registry, build) {
  const buildLog = generateBuildLog(build);
  registry.register(
    {
      name: 'run_build',
      description: 'Run a build command in the repository and return its full output.',
      input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
    async () => ({ content: buildLog, is_error: true }),
  );
}

/**
 * A deterministic cargo-style build log of about `targetChars` characters: compile lines
 * with a warning every 89th line, `buried[i]` (if given) inserted after line i, then
 * `tail` ({warnings} filled in). The random numbers are a Park–Miller generator (exact in
 * both JavaScript and Rust integers).
 */
function generateBuildLog({ seed, targetChars, crates, buried = {}, tail }) {
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
