/**
 * tool-offload for the OpenAI Agents SDK (`@openai/agents`): function tools whose outputs
 * over a Materializer's limits reach the model as the summary, and the read-back tools
 * (`context_read`, `context_tail`, `context_grep`) as Agents SDK tools. ESM only.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { Materializer } from 'tool-offload';
 * import { contextTools, materializeTools } from 'tool-offload/openai-agents';
 *
 * const materializer = new Materializer({ userData: '.agent', conversationId: 'conv-1' });
 * const agent = new Agent({
 *   name: 'builder',
 *   instructions: 'Fix the build.',
 *   tools: [...materializeTools([bash], materializer), ...contextTools(materializer)],
 * });
 * await run(agent, 'Why does the build fail?');
 * ```
 */
import { randomUUID } from 'node:crypto';

import { tool, type FunctionTool, type Tool } from '@openai/agents';

import type { Materializer } from '../materializer.js';
import { readBack } from './read-back.js';

/** The Agents SDK's non-strict JSON object schema (not exported by the SDK). */
type NonStrictSchema = {
  type: 'object';
  properties: Record<string, any>;
  required: string[];
  additionalProperties: true;
};

/**
 * `tools`, each function tool's output materialized when it is over the limits: the model
 * (and the run's history) get the summary, the artifact holds the full output (read it
 * back with the materializer, or let the model use {@link contextTools}). The artifact is
 * named after the call's `callId`. Other tools (hosted, computer) are returned as they are.
 *
 * @example
 * ```ts
 * const tools = materializeTools([bash, fetchPage], materializer);
 * ```
 */
export function materializeTools<TOOLS extends readonly Tool<any>[]>(tools: TOOLS, materializer: Materializer): TOOLS {
  return tools.map((t) => (t.type === 'function' ? materializeTool(t, materializer) : t)) as unknown as TOOLS;
}

/** One function tool, its output materialized when over the limits. */
function materializeTool<T extends FunctionTool<any, any, any>>(original: T, materializer: Materializer): T {
  return {
    ...original,
    invoke: async (runContext, input, details) => {
      const output = await original.invoke(runContext, input, details);
      const toolCallId = details?.toolCall?.callId ?? randomUUID();
      const done = await materializer.materialize({ toolCallId, toolName: original.name, output });
      return done.inline ? output : done.content;
    },
  };
}

/**
 * `context_read`, `context_tail` and `context_grep` as Agents SDK function tools over
 * `materializer`'s artifacts: the definitions and pages of the tool registry's read-back
 * tools (not strict: their inputs have optional fields). A refused call (another
 * conversation's ref, a bad pattern) reaches the model as its error text.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'a', tools: [...myTools, ...contextTools(materializer)] });
 * ```
 */
export function contextTools(materializer: Materializer): FunctionTool<any, any, string>[] {
  const { definitions, run } = readBack(materializer);
  return definitions.map((definition) =>
    tool({
      name: definition.name,
      description: definition.description,
      // The SDK's non-strict JSON Schema shape: optional fields stay optional.
      parameters: { ...definition.input_schema, additionalProperties: true } as NonStrictSchema,
      strict: false,
      execute: async (input, _runContext, details) => {
        const toolCallId = details?.toolCall?.callId ?? randomUUID();
        const result = await run(toolCallId, definition.name, input);
        return result.content;
      },
    }),
  );
}
