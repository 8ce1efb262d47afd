// User code on the OpenAI Agents SDK adapter type-checks without casts under the
// strictest options (see tsconfig.adapters.json).
import { Agent, run, tool } from '@openai/agents';
import { Materializer } from 'tool-offload';
import { contextTools, materializeTools } from 'tool-offload/openai-agents';

const materializer = new Materializer({ userData: '.agent', conversationId: 'conv-1' });
const bash = tool({
  name: 'bash',
  description: 'Run a shell command.',
  parameters: {
    type: 'object',
    properties: { cmd: { type: 'string' } },
    required: ['cmd'],
    additionalProperties: false,
  },
  execute: async (input) => `ran ${JSON.stringify(input)}`,
});

export async function ask(question: string): Promise<string | undefined> {
  const agent = new Agent({
    name: 'builder',
    instructions: 'Fix the build.',
    tools: [...materializeTools([bash], materializer), ...contextTools(materializer)],
  });
  return (await run(agent, question)).finalOutput;
}
