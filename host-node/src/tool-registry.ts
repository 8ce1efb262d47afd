import * as wasm from '../wasm/tool_offload_wasm.js';
import type {
  ToolDefinitionFormats,
  ToolFormat,
  ToolOffloadOptions,
  ToolRegistryOptions as CoreRegistryOptions,
} from '../wasm/tool_offload_wasm.js';
import { defaultWriter } from './default-writer.js';

/**
 * Options of {@link ToolRegistry}: as in the core, but `offload.writer` defaults to a
 * `NodeFileWriter` in Node. `materialize: materializer` is the alternative to `offload`:
 * results over the materializer's limits come back as its summary.
 */
export interface ToolRegistryOptions {
  offload?: Omit<ToolOffloadOptions, 'writer'> & { writer?: ToolOffloadOptions['writer'] };
  materialize?: CoreRegistryOptions['materialize'];
}

/**
 * Tools by name, each with an async handler; `executeTool` turns every outcome into a
 * `tool_result`. With `offload`, results of at least `thresholdChars` (default 1000)
 * UTF-16 units are written to `<outputDir>/<sessionId>/<tool_use_id>.md` first and
 * come back as `[Tool result offloaded to file: …]`.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry({ offload: { outputDir: 'artifacts', sessionId: 's1' } });
 * registerTodoTools(registry);
 * const result = await registry.executeTool('toolu_1', 'TodoRead', {});
 * ```
 */
export class ToolRegistry extends wasm.ToolRegistry {
  constructor(options?: ToolRegistryOptions) {
    const offload = options?.offload;
    super(
      options == null
        ? options
        : { ...options, offload: offload && { ...offload, writer: offload.writer ?? defaultWriter() } },
    );
  }

  /**
   * Every definition, in registration order, as the `tools` array of `options.format`:
   * `"anthropic"` (the default), `"openai-chat"`, `"openai-responses"` or `"mcp"`.
   *
   * @example
   * ```ts
   * const tools = registry.getToolDefinitions({ format: 'openai-chat' });
   * await openai.chat.completions.create({ model, messages, tools });
   * ```
   */
  override getToolDefinitions<F extends ToolFormat = 'anthropic'>(options?: {
    format?: F;
  }): ToolDefinitionFormats[F][] {
    return super.getToolDefinitions(options) as ToolDefinitionFormats[F][];
  }
}
