// User code on the LangChain adapter type-checks without casts under the strictest
// options (see tsconfig.adapters.json).
import { createAgent, tool } from 'langchain';
import { Materializer } from 'tool-offload';
import { contextTools, materializeMiddleware } from 'tool-offload/langchain';

const materializer = new Materializer({ userData: '.agent', conversationId: 'thread-1' });
const bash = tool(async ({ cmd }: { cmd: string }) => `ran ${cmd}`, {
  name: 'bash',
  description: 'Run a shell command.',
  schema: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
});

export const agent = createAgent({
  model: 'anthropic:claude-sonnet-4-5',
  tools: [bash, ...contextTools(materializer)],
  middleware: [materializeMiddleware(materializer)],
});
