import * as wasm from '../wasm/tool_offload_wasm.js';
import type {
  OffloadedMessages,
  OperationOptions,
  ToolDefinitionFormats,
  ToolFormat,
  ToolResultInput,
  ToolResultOffload,
  WorkspaceOptions as CoreWorkspaceOptions,
} from '../wasm/tool_offload_wasm.js';
import { defaultSha256 } from './default-hash.js';
import { defaultWriter } from './default-writer.js';

/**
 * Options of {@link Workspace}: as in the core, but `writer` defaults to a
 * `NodeFileWriter` in Node (which is then the reader too); browsers must give one.
 */
export interface WorkspaceOptions extends Omit<CoreWorkspaceOptions, 'writer'> {
  writer?: CoreWorkspaceOptions['writer'];
}

/**
 * A knowledge store over one namespace of `<root>/context/<namespace>/`: one artifact and
 * metadata record per tool call (`offloadToolResult`, `offloadMessages`) or per `add`,
 * durable before the call resolves; a `<knowledge_list>` reference in place of results of
 * `inlineLimit` (default 40000) UTF-16 units or more; queries over the metadata; and the
 * knowledge read tools for the model (`registerTools`).
 *
 * @example
 * ```ts
 * const ws = new Workspace({ root: '/var/lib/agent', taskId: 'task-1' });
 * const { content } = await ws.offloadToolResult({ toolCallId: 'call_1', toolName: 'bash', content: log });
 * const mine = await ws.queryArtifacts({ context_type: 'tool_result', task_id: 'task-1' });
 * ```
 */
export class Workspace extends wasm.Workspace {
  constructor(options: WorkspaceOptions) {
    // Validation of every field (including a missing options object) happens in core.
    super(
      options == null
        ? options
        : { ...options, writer: options.writer ?? defaultWriter(), sha256: options.sha256 ?? defaultSha256() },
    );
  }

  /** Decide, store and (from `inlineLimit` characters on) replace one tool result. */
  override offloadToolResult<T>(input: ToolResultInput<T>, options?: OperationOptions): Promise<ToolResultOffload<T>> {
    return super.offloadToolResult(input, options) as Promise<ToolResultOffload<T>>;
  }

  /** `offloadToolResult` over a conversation; unchanged messages are the same objects. */
  override offloadMessages<M extends object>(
    messages: readonly M[],
    options?: OperationOptions,
  ): Promise<OffloadedMessages<M>> {
    return super.offloadMessages(messages, options) as Promise<OffloadedMessages<M>>;
  }

  /** The knowledge tools' definitions as the `tools` array of `options.format`. */
  override getToolDefinitions<F extends ToolFormat = 'anthropic'>(options?: {
    format?: F;
  }): ToolDefinitionFormats[F][] {
    return super.getToolDefinitions(options) as ToolDefinitionFormats[F][];
  }
}
