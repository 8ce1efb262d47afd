// User code on the AI SDK adapter type-checks without casts under the strictest options
// (exactOptionalPropertyTypes, noUncheckedIndexedAccess; see tsconfig.json here).
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Materializer } from 'tool-offload';
import { contextTools, materializeMiddleware, materializeTools } from 'tool-offload/ai-sdk';

const materializer = new Materializer({ userData: '.agent', conversationId: 'conv-1' });
const bash = tool({
  description: 'Run a shell command.',
  inputSchema: jsonSchema<{ cmd: string }>({ type: 'object', properties: { cmd: { type: 'string' } } }),
  execute: async ({ cmd }) => `ran ${cmd}`,
});
const model: LanguageModel = wrapLanguageModel({
  model: new MockLanguageModelV4(),
  middleware: materializeMiddleware(materializer),
});

export async function run(): Promise<string> {
  const tools = { ...materializeTools({ bash }, materializer), ...contextTools(materializer) };
  const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Build it.' });
  const first = result.steps[0]?.toolResults[0];
  return `${first?.toolCallId ?? 'no call'}: ${result.text}`;
}
