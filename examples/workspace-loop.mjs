// Demo: a Workspace shared by two tasks. Each tool result goes through
// offloadToolResult: small ones stay in the conversation, larger ones are stored with
// who produced them, and the largest come back as a <knowledge_list> reference. Then the
// platform queries the store, and the model reads back with the knowledge tools. Scripted
// (examples/workspace-loop/script.json): no network, no API key.
//   node examples/workspace-loop.mjs [rootDir]
//
// host-tokio/examples/workspace_loop.rs replays the same script with the Rust crate (and
// its SQLite index); both print the same report and write byte-identical files.
import { readFile, rm } from 'node:fs/promises';
import { ToolRegistry, Workspace } from 'tool-offload';

const script = JSON.parse(await readFile(new URL('./workspace-loop/script.json', import.meta.url), 'utf8'));
const root = process.argv[2] ?? 'out/workspace-loop/node';
await rm(root, { recursive: true, force: true });

/** A call's output: a log of `lines` lines (errors where asked), or JSON rows. */
function output(call) {
  if (call.rows !== undefined)
    return {
      rows: Array.from({ length: call.rows }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, ok: i % 7 !== 0 })),
    };
  const { lines, text, errorAt = [] } = call.log;
  return Array.from({ length: lines }, (_, i) =>
    errorAt.includes(i + 1) ? `error[E0${i + 1}]: something failed at line ${i + 1}` : `${text}${i + 1}`,
  ).join('\n');
}
const size = (content) => (typeof content === 'string' ? content : JSON.stringify(content)).length;

console.log('Workspace loop — npm package (tool-offload, wasm core)');
let clock = script.start;
let before = 0;
let after = 0;
for (const task of script.tasks) {
  const ws = new Workspace({
    root,
    namespace: script.namespace,
    agentId: task.agentId,
    taskId: task.taskId,
    sessionId: task.sessionId,
    offloadTools: script.offloadTools,
    now: () => clock,
  });
  console.log(`\n${task.taskId} (agent ${task.agentId}, session ${task.sessionId})`);
  for (const call of task.calls) {
    clock += 1000;
    const content = output(call);
    const done = await ws.offloadToolResult({
      toolCallId: call.id,
      toolName: call.tool,
      actionName: call.action,
      content,
    });
    const shown = size(done.content);
    before += size(content);
    after += shown;
    const what = done.content === content ? (done.offloaded ? 'stored, inline' : 'inline') : '<knowledge_list>';
    console.log(
      `  ${call.id.padEnd(12)} ${call.tool.padEnd(10)} ${String(size(content)).padStart(6)} → ${String(shown).padStart(6)} chars  ${what} (${done.reason})`,
    );
  }
}
console.log(
  `\nTool results: ${before} characters; the model sees ${after} (${Math.round((100 * (before - after)) / before)}% moved out).`,
);

const ws = new Workspace({ root, namespace: script.namespace });
console.log('\nqueryArtifacts({ tool_name: "bash" }):');
for (const r of await ws.queryArtifacts({ tool_name: 'bash' }))
  console.log(`  ${r.id}  task ${r.metadata.task_id}  ${r.metadata.lines} lines  ${r.metadata.created_at}`);
console.log('getToolResultOffloadInfo({ taskId: "task-report" }):');
for (const info of await ws.getToolResultOffloadInfo({ taskId: 'task-report' }))
  console.log(`  ${info.artifact_id}  ${info.tool_name}/${info.action_name}  ${info.chars} chars`);

const registry = new ToolRegistry();
ws.registerTools(registry);
const { id, pattern, context } = script.grep;
console.log(`\nThe model calls grep_knowledge(${JSON.stringify(id)}, ${JSON.stringify(pattern)}):`);
const grep = await registry.executeTool('toolu_g', 'grep_knowledge', { id, pattern, context });
for (const line of grep.content.split('\n')) console.log(`  ${line}`);
console.log('and get_knowledge_by_lines around the match:');
const page = await registry.executeTool('toolu_l', 'get_knowledge_by_lines', { id, start_line: 1788, end_line: 1790 });
for (const line of page.content.split('\n')) console.log(`  ${line}`);
