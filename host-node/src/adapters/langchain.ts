/**
 * tool-offload for LangChain (`langchain` v1 agents): a middleware that materializes tool
 * results over a Materializer's limits before the model sees them, and the read-back tools
 * (`context_read`, `context_tail`, `context_grep`) as LangChain tools. ESM only.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { Materializer } from 'tool-offload';
 * import { contextTools, materializeMiddleware } from 'tool-offload/langchain';
 *
 * const materializer = new Materializer({ userData: '.agent', conversationId: 'thread-1' });
 * const agent = createAgent({
 *   model: 'anthropic:claude-sonnet-4-5',
 *   tools: [bash, ...contextTools(materializer)],
 *   middleware: [materializeMiddleware(materializer)],
 * });
 * ```
 */
import { randomUUID } from 'node:crypto';

import { createMiddleware, tool, ToolMessage } from 'langchain';

import type { Materializer } from '../materializer.js';
import { readBack } from './read-back.js';

/**
 * An agent middleware: every tool's result over the materializer's limits is written to
 * an artifact (named after the tool call's id) and the `ToolMessage` the model sees holds
 * the summary; its `artifact` field (which LangChain never sends to the model) keeps
 * `{ ref, path }` unless the tool set one. Text content blocks are stored as their text.
 *
 * @example
 * ```ts
 * createAgent({ model, tools, middleware: [materializeMiddleware(materializer)] });
 * ```
 */
export function materializeMiddleware(materializer: Materializer) {
  return createMiddleware({
    name: 'ToolOffloadMaterialize',
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      if (!ToolMessage.isInstance(result)) return result;
      const done = await materializer.materialize({
        toolCallId: result.tool_call_id,
        toolName: request.toolCall.name,
        output: result.content,
      });
      if (done.inline) return result;
      return new ToolMessage({
        content: done.content,
        tool_call_id: result.tool_call_id,
        ...(result.name === undefined ? {} : { name: result.name }),
        ...(result.id === undefined ? {} : { id: result.id }),
        status: result.status ?? 'success',
        artifact: result.artifact ?? { ref: done.ref, path: done.path },
      });
    },
  });
}

/**
 * `context_read`, `context_tail` and `context_grep` as LangChain tools over
 * `materializer`'s artifacts: the definitions and pages of the tool registry's read-back
 * tools. A refused call (another conversation's ref, a bad pattern) comes back as an
 * error `ToolMessage` the model can read.
 *
 * @example
 * ```ts
 * createAgent({ model, tools: [...myTools, ...contextTools(materializer)] });
 * ```
 */
export function contextTools(materializer: Materializer) {
  const { definitions, run } = readBack(materializer);
  return definitions.map((definition) =>
    tool(
      async (input: Record<string, unknown>, config) => {
        const toolCallId = config?.toolCall?.id ?? randomUUID();
        const result = await run(toolCallId, definition.name, input);
        return new ToolMessage({
          content: result.content,
          tool_call_id: toolCallId,
          name: definition.name,
          status: result.is_error ? 'error' : 'success',
        });
      },
      { name: definition.name, description: definition.description, schema: definition.input_schema },
    ),
  );
}
