/**
 * The read-back tools every adapter exposes in its framework's form: their definitions
 * and a way to run one, from a private registry holding them (so each adapter is only
 * the framework's glue).
 *
 * @example
 * ```ts
 * const { definitions, run } = readBack(materializer);
 * const result = await run('call_1', 'context_tail', { ref, lines: 50 });
 * ```
 */
import type { ToolDefinition, ToolResult } from '../../wasm/tool_offload_wasm.js';
import type { Materializer } from '../materializer.js';
import { ToolRegistry } from '../tool-registry.js';

/** What {@link readBack} gives an adapter. */
export interface ReadBack {
  /** `context_read`, `context_tail`, `context_grep`, Anthropic-style. */
  definitions: (ToolDefinition & { description: string })[];
  /** Run one; a refused call is an `is_error` result, never a throw. */
  run(toolCallId: string, name: string, input: unknown): Promise<ToolResult>;
}

/** The read-back tools over `materializer`'s artifacts. */
export function readBack(materializer: Materializer): ReadBack {
  const registry = new ToolRegistry();
  materializer.registerTools(registry);
  return {
    definitions: registry.getToolDefinitions(),
    run: (toolCallId, name, input) => registry.executeTool(toolCallId, name, input),
  };
}
