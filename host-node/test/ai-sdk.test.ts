// tool-offload/ai-sdk in a real AI SDK agent loop (generateText with a scripted mock
// model): a tool returns a 150 KB log, the model sees the summary, greps the artifact and
// gets the line; the app keeps the full output and the history stays valid for the SDK.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  generateText,
  jsonSchema,
  modelMessageSchema,
  stepCountIs,
  tool,
  wrapLanguageModel,
  type ModelMessage,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Materializer } from 'tool-offload';
import { contextTools, materializeMiddleware, materializeTools } from 'tool-offload/ai-sdk';

import { freshDir } from './helpers.ts';

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];
type Content = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>['content'];

const FATAL = 'FATAL: disk quota exceeded on /var/cache/build';
const log = Array.from({ length: 2500 }, (_, i) =>
  i === 1234 ? FATAL : `[${String(i).padStart(5, '0')}] compiling module_${i}.rs ... ok (${i % 97} ms)`,
).join('\n');

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const reply = (content: Content, toolCalls: boolean) => ({
  content,
  finishReason: { unified: toolCalls ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
  usage,
  warnings: [],
});
const call = (toolCallId: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** The output the prompt carries for `toolCallId`. */
function toolOutput(prompt: Prompt, toolCallId: string): { type: string; value?: unknown } {
  for (const message of prompt)
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.toolCallId === toolCallId) return part.output as never;
  throw new Error(`no result for ${toolCallId} in the prompt`);
}

const bash = tool({
  description: 'Run a shell command.',
  inputSchema: jsonSchema<{ cmd: string }>({ type: 'object', properties: { cmd: { type: 'string' } } }),
  execute: async () => log,
});

test('the model gets the summary, greps the artifact and finds the line; the app keeps the full output', async () => {
  const userData = freshDir('ai-sdk-loop');
  const materializer = new Materializer({ userData, conversationId: 'conv-ai' });
  const seen: Prompt[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      seen.push(prompt);
      if (seen.length === 1) return reply([call('call_1', 'bash', { cmd: 'make' })], true);
      if (seen.length === 2) {
        const summary = toolOutput(prompt, 'call_1');
        const ref = /stored as (ctx:\/\/\S+)/.exec(String(summary.value))![1];
        return reply([call('call_2', 'context_grep', { ref, pattern: 'FATAL' })], true);
      }
      return reply([{ type: 'text', text: 'The disk quota is exceeded.' }], false);
    },
  });

  const result = await generateText({
    model,
    tools: { ...materializeTools({ bash }, materializer), ...contextTools(materializer) },
    stopWhen: stepCountIs(5),
    prompt: 'Why does the build fail?',
  });

  assert.equal(result.text, 'The disk quota is exceeded.');
  const summary = toolOutput(seen[1]!, 'call_1');
  assert.equal(summary.type, 'text');
  assert.match(String(summary.value), /^\[Output of bash \(call call_1\) stored as ctx:\/\/conv-ai\/tool\/call_1\.txt/);
  assert.ok(String(summary.value).length < 4000, 'the model never sees the 150 KB');
  const grep = toolOutput(seen[2]!, 'call_2');
  assert.ok(String(grep.value).includes(FATAL), 'the grep page holds the line');
  // The app still has the full output, and the artifact holds it.
  assert.equal(result.steps[0]!.toolResults[0]!.output, log);
  assert.equal(readFileSync(`${userData}/context/conv-ai/artifacts/tool/call_1.txt`, 'utf8'), log);
  // What the SDK keeps as history is valid for the SDK.
  for (const message of result.response.messages) assert.ok(modelMessageSchema.safeParse(message).success);
});

test('the middleware shrinks oversized results already in a prompt; small ones and summaries stay', async () => {
  const userData = freshDir('ai-sdk-middleware');
  const materializer = new Materializer({ userData, conversationId: 'conv-mw' });
  const prompts: Prompt[] = [];
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => (prompts.push(prompt), reply([{ type: 'text', text: 'ok' }], false)),
    }),
    middleware: materializeMiddleware(materializer),
  });
  const history: ModelMessage[] = [
    { role: 'user', content: 'Check the logs.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'call_big', toolName: 'logs', input: {} },
        { type: 'tool-call', toolCallId: 'call_small', toolName: 'ls', input: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call_big', toolName: 'logs', output: { type: 'text', value: log } },
        { type: 'tool-result', toolCallId: 'call_small', toolName: 'ls', output: { type: 'json', value: ['a', 'b'] } },
      ],
    },
  ];
  await generateText({ model, messages: history });
  await generateText({ model, messages: history });
  for (const prompt of prompts) {
    const big = toolOutput(prompt, 'call_big');
    assert.equal(big.type, 'text');
    assert.match(
      String(big.value),
      /^\[Output of logs \(call call_big\) stored as ctx:\/\/conv-mw\/tool\/call_big\.txt/,
    );
    assert.deepEqual(toolOutput(prompt, 'call_small'), { type: 'json', value: ['a', 'b'] });
  }
  const file = `${userData}/context/conv-mw/artifacts/tool/call_big.txt`;
  assert.ok(existsSync(file));
  assert.equal(readFileSync(file, 'utf8'), log);
  // Each turn sends the full history again: the same output reuses the same artifact.
  assert.deepEqual(readdirSync(`${userData}/context/conv-mw/artifacts/tool`), ['call_big.txt']);
  assert.equal((history[2]!.content as { output: { value: string } }[])[0]!.output.value, log, 'history untouched');
});
