// tool-offload/langchain in a real LangChain v1 agent (createAgent with LangChain's fake
// tool-calling model): a tool returns a 150 KB log, the model sees the summary, greps the
// artifact and gets the line; the state's messages stay LangChain messages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  AIMessage,
  createAgent,
  createMiddleware,
  FakeToolCallingModel,
  tool,
  ToolMessage,
  type BaseMessage,
} from 'langchain';
import { Materializer } from 'tool-offload';
import { contextTools, materializeMiddleware } from 'tool-offload/langchain';

import { freshDir } from './helpers.ts';

const FATAL = 'FATAL: disk quota exceeded on /var/cache/build';
const log = Array.from({ length: 2500 }, (_, i) =>
  i === 1234 ? FATAL : `[${String(i).padStart(5, '0')}] compiling module_${i}.rs ... ok (${i % 97} ms)`,
).join('\n');

/** A middleware remembering the messages of every model call. */
function recorder() {
  const seen: BaseMessage[][] = [];
  const middleware = createMiddleware({
    name: 'Recorder',
    wrapModelCall: (request, handler) => (seen.push([...request.messages]), handler(request)),
  });
  return { seen, middleware };
}

const toolMessage = (messages: BaseMessage[], id: string): ToolMessage => {
  const found = messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === id);
  assert.ok(found, `no ToolMessage for ${id}`);
  return found as ToolMessage;
};

test('the model gets the summary, greps the artifact and finds the line', async () => {
  const userData = freshDir('langchain-loop');
  const materializer = new Materializer({ userData, conversationId: 'conv-lc' });
  const bash = tool(async () => log, {
    name: 'bash',
    description: 'Run a shell command.',
    schema: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  });
  const { seen, middleware: record } = recorder();
  const model = new FakeToolCallingModel({
    toolCalls: [
      [{ name: 'bash', args: { cmd: 'make' }, id: 'call_1' }],
      [{ name: 'context_grep', args: { ref: 'ctx://conv-lc/tool/call_1.txt', pattern: 'FATAL' }, id: 'call_2' }],
      [],
    ],
  });
  const agent = createAgent({
    model,
    tools: [bash, ...contextTools(materializer)],
    middleware: [materializeMiddleware(materializer), record],
  });

  const state = await agent.invoke({ messages: [{ role: 'user', content: 'Why does the build fail?' }] });

  const summary = toolMessage(seen[1]!, 'call_1');
  assert.match(
    String(summary.content),
    /^\[Output of bash \(call call_1\) stored as ctx:\/\/conv-lc\/tool\/call_1\.txt/,
  );
  assert.ok(String(summary.content).length < 4000, 'the model never sees the 150 KB');
  assert.deepEqual(summary.artifact, {
    ref: (summary.artifact as { ref: unknown }).ref,
    path: `${userData}/context/conv-lc/artifacts/tool/call_1.txt`,
  });
  const grep = toolMessage(seen[2]!, 'call_2');
  assert.ok(String(grep.content).includes(FATAL), 'the grep page holds the line');
  assert.equal(grep.status, 'success');
  assert.equal(readFileSync(`${userData}/context/conv-lc/artifacts/tool/call_1.txt`, 'utf8'), log);
  // The state holds real LangChain messages, the summary in place of the log.
  assert.ok(state.messages.every((m: BaseMessage) => typeof m.getType === 'function'));
  assert.ok(AIMessage.isInstance(state.messages.at(-1)));
  assert.equal(String(toolMessage(state.messages, 'call_1').content), String(summary.content));
});

test('a refused read-back call reaches the model as an error ToolMessage', async () => {
  const materializer = new Materializer({ userData: freshDir('langchain-refused'), conversationId: 'conv-lc' });
  const { seen, middleware: record } = recorder();
  const model = new FakeToolCallingModel({
    toolCalls: [[{ name: 'context_read', args: { ref: 'ctx://other-conv/tool/x.txt' }, id: 'call_1' }], []],
  });
  const agent = createAgent({
    model,
    tools: contextTools(materializer),
    middleware: [materializeMiddleware(materializer), record],
  });
  await agent.invoke({ messages: [{ role: 'user', content: 'Read it.' }] });
  const refused = toolMessage(seen[1]!, 'call_1');
  assert.equal(refused.status, 'error');
  assert.match(String(refused.content), /outside this conversation/);
});
