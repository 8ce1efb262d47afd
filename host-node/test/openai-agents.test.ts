// tool-offload/openai-agents in a real Agents SDK run with a scripted Model: a tool
// returns a 150 KB log, the model sees the summary, greps the artifact and gets the line;
// the run's items stay valid for the SDK (a second run continues from them).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  Agent,
  run,
  setTracingDisabled,
  tool,
  Usage,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from '@openai/agents';
import { Materializer } from 'tool-offload';
import { contextTools, materializeTools } from 'tool-offload/openai-agents';

import { freshDir } from './helpers.ts';

setTracingDisabled(true);

const FATAL = 'FATAL: disk quota exceeded on /var/cache/build';
const log = Array.from({ length: 2500 }, (_, i) =>
  i === 1234 ? FATAL : `[${String(i).padStart(5, '0')}] compiling module_${i}.rs ... ok (${i % 97} ms)`,
).join('\n');

/** A model answering from a script: each turn sees the request and returns output items. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: ((request: ModelRequest) => ModelResponse['output'])[]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.script[this.requests.length - 1];
    if (!turn) throw new Error(`no scripted turn ${this.requests.length}`);
    return { usage: new Usage(), output: turn(request) };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed');
  }
}

const call = (callId: string, name: string, input: unknown) => ({
  type: 'function_call' as const,
  callId,
  name,
  arguments: JSON.stringify(input),
  status: 'completed' as const,
});
const say = (text: string) => ({
  type: 'message' as const,
  role: 'assistant' as const,
  status: 'completed' as const,
  content: [{ type: 'output_text' as const, text }],
});

/** The output text the request carries for `callId`. */
function outputOf(request: ModelRequest, callId: string): string {
  const items = typeof request.input === 'string' ? [] : request.input;
  for (const item of items as AgentInputItem[])
    if (item.type === 'function_call_result' && item.callId === callId) {
      const output = item.output as string | { type: string; text?: string };
      return typeof output === 'string' ? output : String(output.text);
    }
  throw new Error(`no result for ${callId}`);
}

test('the model gets the summary, greps the artifact and finds the line', async () => {
  const userData = freshDir('agents-loop');
  const materializer = new Materializer({ userData, conversationId: 'conv-agents' });
  const bash = tool({
    name: 'bash',
    description: 'Run a shell command.',
    parameters: {
      type: 'object',
      properties: { cmd: { type: 'string' } },
      required: ['cmd'],
      additionalProperties: false,
    },
    execute: async () => log,
  });
  const model = new ScriptedModel([
    () => [call('call_1', 'bash', { cmd: 'make' })],
    (request) => {
      const ref = /stored as (ctx:\/\/\S+)/.exec(outputOf(request, 'call_1'))![1];
      return [call('call_2', 'context_grep', { ref, pattern: 'FATAL' })];
    },
    () => [say('The disk quota is exceeded.')],
    () => [say('Still the disk quota.')],
  ]);
  const agent = new Agent({
    name: 'builder',
    instructions: 'Find why the build fails.',
    model,
    tools: [...materializeTools([bash], materializer), ...contextTools(materializer)],
  });

  const result = await run(agent, 'Why does the build fail?', { maxTurns: 5 });
  assert.equal(result.finalOutput, 'The disk quota is exceeded.');
  const summary = outputOf(model.requests[1]!, 'call_1');
  assert.match(summary, /^\[Output of bash \(call call_1\) stored as ctx:\/\/conv-agents\/tool\/call_1\.txt/);
  assert.ok(summary.length < 4000, 'the model never sees the 150 KB');
  assert.ok(outputOf(model.requests[2]!, 'call_2').includes(FATAL), 'the grep page holds the line');
  assert.equal(readFileSync(`${userData}/context/conv-agents/artifacts/tool/call_1.txt`, 'utf8'), log);

  // The run's history, summaries in it, is input the SDK takes for the next run.
  const next = await run(agent, [...result.history, { role: 'user', content: 'And now?' }], { maxTurns: 2 });
  assert.equal(next.finalOutput, 'Still the disk quota.');
  assert.match(outputOf(model.requests[3]!, 'call_1'), /^\[Output of bash/);
});
