// Everything both entries export (index.ts for Node, browser.ts for browsers and
// workers); writers left out come from default-writer.ts, which only the Node entry sets.
import * as wasm from '../wasm/tool_offload_wasm.js';
import type {
  BatchOptions,
  BatchResult,
  ErrorCode,
  FileReader,
  FileWriter,
  GcOptions,
  GcReport,
  Message,
  OffloadOptions,
  OffloadResult,
} from '../wasm/tool_offload_wasm.js';
import { defaultWriter } from './default-writer.js';

export type {
  AnthropicMessage,
  BatchOptions,
  BatchResult,
  ContentBlock,
  ContentPart,
  ContextRef,
  ErrorCode,
  FileReader,
  FileWriter,
  GcOptions,
  GcReport,
  GrepOptions,
  ImageBlock,
  MaterializeLogEntry,
  MaterializeResult,
  MaterializeStats,
  Message,
  OffloadOptions,
  OperationOptions,
  OffloadResult,
  OpenAIFunctionCallOutput,
  OpenAIToolMessage,
  OtherBlock,
  ReadOptions,
  RefHint,
  Redact,
  RedactPattern,
  RedactShown,
  RegisteredTool,
  ResolvedMaterializerOptions,
  MaterializedMessages,
  MaterializeMessagesOptions,
  ShownRef,
  BudgetOptions as CoreBudgetOptions,
  BudgetResult,
  ClearedResult,
  ConversationBundle,
  BundledArtifact,
  ImportedConversation,
  LegacyToolRecord,
  TextBlock,
  ToolDefinition,
  ToolDefinitionFormats,
  DefinitionsOptions,
  ToolFormat,
  OpenAIChatTool,
  OpenAIResponsesTool,
  McpTool,
  Knowledge,
  KnowledgeInput,
  KnowledgeRecord,
  OffloadedMessages,
  OffloadInfoOptions,
  OffloadReason,
  QueryOptions,
  StoredKnowledge,
  ToolResultInput,
  ToolResultOffload,
  ToolResultOffloadInfo,
  WorkspaceBundle,
  WorkspaceLogEntry,
  ToolHandler,
  ToolOffloadOptions,
  ToolOutput,
  ToolOutputInput,
  ToolResult,
  ToolResultBlock,
  ToolUseBlock,
} from '../wasm/tool_offload_wasm.js';
export { ToolRegistry } from './tool-registry.js';
export type { ToolRegistryOptions } from './tool-registry.js';
export { Materializer, importConversation } from './materializer.js';
export { Workspace } from './workspace.js';
export type { WorkspaceOptions } from './workspace.js';
export type { MaterializerOptions, ImportOptions, BudgetOptions } from './materializer.js';
export const formatLegacyToolRecord = wasm.formatLegacyToolRecord;
/**
 * The estimated tokens of `text`: core's estimate, calibrated against o200k_base so that
 * it does not undercount tool output (docs/tokens.md).
 *
 * @example
 * ```ts
 * estimateTokens('src/main.rs:42:    let x = 1;'); // 13
 * ```
 */
export const estimateTokens: (text: string) => number = wasm.estimateTokens;
export { MemoryWriter } from './memory-writer.js';
export { OpfsWriter } from './opfs-writer.js';
export type { OpfsWriterOptions } from './opfs-writer.js';

export { OffloadError } from './errors.js';

/**
 * Every {@link ErrorCode}, in order: the list the type is generated from, for an
 * exhaustive check or a lookup table.
 *
 * @example
 * ```ts
 * ERROR_CODES.includes('WRITE_FAILED'); // true
 * ```
 */
export const ERROR_CODES: readonly ErrorCode[] = Object.freeze(wasm.errorCodes());

/**
 * Offload every tool result of one message (each Anthropic `tool_result` block, an
 * OpenAI `role: "tool"` message, or a Responses `function_call_output` item) to
 * `<outputDir>/<sessionId>/<id>.md` through `writer`. Returns a deep copy whose
 * contents are `[Tool result offloaded to file: <absolute path>]`.
 *
 * @example
 * ```ts
 * const result = await offloadToolResult(message, 'session-1', 'artifacts', new MemoryWriter());
 * ```
 */
export function offloadToolResult<M extends object>(
  message: M,
  sessionId: string,
  outputDir: string,
  writer: FileWriter,
  options?: OffloadOptions | null,
): Promise<OffloadResult<M>> {
  // Core checks the shape (any message we know: docs/offload.md, "Message shapes").
  return wasm.offloadToolResult(message as Message, sessionId, outputDir, writer, options) as Promise<OffloadResult<M>>;
}

/**
 * Register TodoWrite and TodoRead on `registry`, both over one new in-memory todo list.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * registerTodoTools(registry);
 * registry.getToolDefinitions(); // [TodoWrite, TodoRead]
 * ```
 */
export const registerTodoTools = wasm.registerTodoTools;

/** Options of {@link offloadToolResults}: `writer` defaults to a `NodeFileWriter` in Node; browsers must give one. */
export interface OffloadToolResultsOptions extends Omit<BatchOptions, 'writer'> {
  writer?: FileWriter;
}

/**
 * Offload every tool result of at least `threshold` (default 100) UTF-16 code units in a
 * conversation to `<outputDir>/tool-result-<id>.md`, replacing its content with
 * `[Content offloaded to: ./tool-result-<id>.md]`. Handles Anthropic `tool_result`
 * blocks, OpenAI Chat `role: "tool"` messages, OpenAI Responses
 * `function_call_output` items and the AI SDK's, Agents SDK's and LangChain's tool results,
 * in any mix. Unchanged messages are returned as the same
 * objects; the input is never mutated.
 *
 * @example
 * ```ts
 * const { messages: slim, offloadedCount, freedChars } = await offloadToolResults(history, { outputDir: 'artifacts' });
 * ```
 */
export function offloadToolResults<M extends object>(
  messages: readonly M[],
  options: OffloadToolResultsOptions,
): Promise<BatchResult<M>> {
  const writer = options?.writer ?? defaultWriter();
  return wasm.offloadToolResults(messages, { ...options, writer }) as Promise<BatchResult<M>>;
}

/** Options of {@link gcDirectory}: the rules, and `writer` (default a `NodeFileWriter` in Node). */
export interface GcDirectoryOptions extends GcOptions {
  writer?: FileWriter & FileReader;
}

/**
 * Remove what nobody needs under `dir`, a user-data or batch output directory (see
 * docs/retention.md): files of ours older than `olderThanMs`, then the least recently
 * written until ours take at most `maxBytes`; never one the messages of `keep` refer to,
 * never a file that is not ours. `Materializer.gc` does the same for its user data.
 *
 * @example
 * ```ts
 * const { removed, bytes } = await gcDirectory('artifacts', { olderThanMs: 7 * 86_400_000, keep: history });
 * ```
 */
export function gcDirectory(dir: string, options: GcDirectoryOptions): Promise<GcReport> {
  return wasm.gcDirectory(dir, { ...options, writer: options?.writer ?? defaultWriter() });
}
