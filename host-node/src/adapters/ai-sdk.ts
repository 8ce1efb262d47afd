/**
 * tool-offload for the Vercel AI SDK (`ai`, v7): oversized tool outputs reach the model as
 * a Materializer's summary while the app keeps the full output, the model reads the rest
 * back with `context_read` / `context_tail` / `context_grep`, and a middleware shrinks
 * what is already in a prompt. ESM only, as `ai` itself.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { Materializer } from 'tool-offload';
 * import { contextTools, materializeTools } from 'tool-offload/ai-sdk';
 *
 * const materializer = new Materializer({ userData: '.agent', conversationId: 'conv-1' });
 * const result = await generateText({
 *   model,
 *   tools: { ...materializeTools({ bash }, materializer), ...contextTools(materializer) },
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Why does the build fail?',
 * });
 * ```
 */
import { jsonSchema, tool, type JSONValue, type LanguageModelMiddleware, type Tool, type ToolSet } from 'ai';

import type { Materializer } from '../materializer.js';
import { readBack } from './read-back.js';

/** One read-back tool: its input as the model sends it, a page of text as its output. */
export type ContextTool = Tool<Record<string, unknown>, string>;

/** What {@link contextTools} returns. */
export interface ContextTools {
  context_read: ContextTool;
  context_tail: ContextTool;
  context_grep: ContextTool;
}

/** What an AI SDK tool's `toModelOutput` returns (the SDK's `ToolResultOutput`). */
type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * `tools`, each with a `toModelOutput` that sends the model the materializer's summary
 * when the output is over its limits (the artifact is written first); the app, the UI
 * and `onStepFinish` still see the full output. A tool's own `toModelOutput` runs first
 * and its result is what gets materialized. Outputs within the limits go to the model as
 * the SDK would send them.
 *
 * @example
 * ```ts
 * const tools = materializeTools({ bash, fetchPage }, materializer);
 * ```
 */
export function materializeTools<TOOLS extends ToolSet>(tools: TOOLS, materializer: Materializer): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, original] of Object.entries(tools) as [string, Tool][]) {
    const own = original.toModelOutput;
    wrapped[name] = {
      ...original,
      toModelOutput: async (options) => {
        const output: ModelOutput = own ? await own(options) : asModelOutput(options.output);
        return shrink(output, options.toolCallId, name, materializer);
      },
    };
  }
  return wrapped as TOOLS;
}

/**
 * `context_read`, `context_tail` and `context_grep` as AI SDK tools over `materializer`'s
 * artifacts: the same definitions and pages as the tool registry's. A refused call (a
 * ref of another conversation, a bad pattern) reaches the model as an error result.
 *
 * @example
 * ```ts
 * const tools = { ...materializeTools(myTools, materializer), ...contextTools(materializer) };
 * ```
 */
export function contextTools(materializer: Materializer): ContextTools {
  const { definitions, run } = readBack(materializer);
  const tools: Record<string, ContextTool> = {};
  for (const definition of definitions) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema<Record<string, unknown>>(definition.input_schema),
      execute: async (input, { toolCallId }) => {
        const result = await run(toolCallId, definition.name, input);
        if (result.is_error) throw new Error(result.content);
        return result.content;
      },
    });
  }
  // Core registers exactly these three names.
  return tools as unknown as ContextTools;
}

/**
 * A language-model middleware that materializes every tool result over the limits already
 * in a prompt (a history from storage, another agent's, results of tools not wrapped with
 * {@link materializeTools}), so the model is never sent one. Summaries are left alone,
 * so it costs little on every call.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: materializeMiddleware(materializer) });
 * ```
 */
export function materializeMiddleware(materializer: Materializer): LanguageModelMiddleware {
  return {
    transformParams: async ({ params }) => {
      const done = await materializer.materializeMessages(params.prompt);
      return done.refs.length === 0 ? params : { ...params, prompt: done.messages };
    },
  };
}

/** What the SDK sends the model for an output when a tool has no `toModelOutput`. */
function asModelOutput(output: unknown): ModelOutput {
  return typeof output === 'string'
    ? { type: 'text', value: output }
    : { type: 'json', value: (output ?? null) as JSONValue };
}

/** `output`, or the summary in its place when its value is over the limits. */
async function shrink(
  output: ModelOutput,
  toolCallId: string,
  toolName: string,
  materializer: Materializer,
): Promise<ModelOutput> {
  if (!('value' in output)) return output;
  const done = await materializer.materialize({ toolCallId, toolName, output: output.value });
  if (done.inline) return output;
  const isError = output.type === 'error-text' || output.type === 'error-json';
  return { type: isError ? 'error-text' : 'text', value: done.content };
}
