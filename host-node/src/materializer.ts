import * as wasm from '../wasm/tool_offload_wasm.js';
import type {
  ConversationBundle,
  ImportedConversation,
  ImportOptions as CoreImportOptions,
  MaterializedMessages,
  MaterializeResult,
  MaterializerOptions as CoreMaterializerOptions,
  OperationOptions,
  ToolOutputInput,
} from '../wasm/tool_offload_wasm.js';
import { NodeFileWriter } from './node-file-writer.js';

/**
 * Options of {@link Materializer}: as in the core, but `writer` defaults to a
 * {@link NodeFileWriter} (which is then the reader too).
 */
export interface MaterializerOptions extends Omit<CoreMaterializerOptions, 'writer'> {
  writer?: CoreMaterializerOptions['writer'];
}

/**
 * Moves tool outputs over the inline limits (`maxInlineChars` UTF-16 units, default
 * 4000; `maxInlineBytes` UTF-8 bytes, default 16384) into artifacts under
 * `<userData>/context/<conversationId>/artifacts/tool/`, written before `materialize`
 * resolves, and gives the model a summary with a ref it can read back with `read`,
 * `tail` and `grep`. Calls may run concurrently.
 *
 * @example
 * ```ts
 * const materializer = new Materializer({ userData: '/var/lib/agent', conversationId: 'conv-1' });
 * const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output: log });
 * if (!result.inline) console.log(await materializer.tail(result.ref.id, 50));
 * ```
 */
export class Materializer extends wasm.Materializer {
  constructor(options: MaterializerOptions) {
    // Validation of every field (including a missing options object) happens in core.
    super(options == null ? options : { ...options, writer: options.writer ?? new NodeFileWriter() });
  }

  /**
   * Leave `output` inline (`{ inline: true, content: output }`, the very value given) when
   * within both limits; otherwise write it to `…/artifacts/tool/<toolCallId>.json|.txt`
   * first and resolve to `{ inline: false, content: summary, ref, path }`.
   */
  override materialize<T>(input: ToolOutputInput<T>): Promise<MaterializeResult<T>> {
    return super.materialize(input) as Promise<MaterializeResult<T>>;
  }

  /**
   * Every tool result over the limits gets its summary as content; content that already
   * is a summary is left alone, so this can run on every turn.
   */
  override materializeMessages<M extends object>(messages: readonly M[], options?: OperationOptions): Promise<MaterializedMessages<M>> {
    return super.materializeMessages(messages, options) as Promise<MaterializedMessages<M>>;
  }

  /** One self-contained bundle of `messages` and every artifact they refer to, each with its SHA-256. */
  override exportConversation<M extends object>(messages: readonly M[], options?: OperationOptions): Promise<ConversationBundle<M>> {
    return super.exportConversation(messages, options) as Promise<ConversationBundle<M>>;
  }
}

/** Options of {@link importConversation}: `writer` defaults to a {@link NodeFileWriter} (the reader too). */
export interface ImportOptions extends Omit<CoreImportOptions, 'writer'> {
  writer?: CoreImportOptions['writer'];
}

/**
 * Restore a bundle from `exportConversation` under `options.userData`, so every ref in
 * its messages resolves again. Refuses (`INVALID_BUNDLE`, before writing anything) a
 * bundle whose hashes do not match or whose paths would land outside the
 * conversation's artifacts, and never overwrites a different file (`ARTIFACT_EXISTS`).
 *
 * @example
 * ```ts
 * const bundle = await materializer.exportConversation(messages);
 * const { conversationId } = await importConversation(bundle, { userData: '/srv/agent' });
 * ```
 */
export function importConversation<M = unknown>(
  bundle: ConversationBundle<M>,
  options: ImportOptions,
): Promise<ImportedConversation<M>> {
  const writer = options?.writer ?? new NodeFileWriter();
  return wasm.importConversation(bundle, options == null ? options : { ...options, writer }) as Promise<
    ImportedConversation<M>
  >;
}
