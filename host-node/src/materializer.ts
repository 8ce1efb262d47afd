import * as wasm from '../wasm/tool_offload_wasm.js';
import type {
  BudgetOptions as CoreBudgetOptions,
  BudgetResult,
  ConversationBundle,
  ImportedConversation,
  ImportOptions as CoreImportOptions,
  MaterializedMessages,
  MaterializeMessagesOptions,
  MaterializeResult,
  MaterializerOptions as CoreMaterializerOptions,
  OperationOptions,
  ToolDefinitionFormats,
  ToolFormat,
  ToolOutputInput,
} from '../wasm/tool_offload_wasm.js';
import { defaultWriter } from './default-writer.js';
import { SeenMessages, toolUseBlocks } from './seen-messages.js';

/** Options of {@link Materializer.budget}. */
export interface BudgetOptions extends CoreBudgetOptions {
  /**
   * Counts a message's tokens from its `JSON.stringify` (default: the materializer's own
   * `countTokens`, else `estimateTokens`).
   */
  countTokens?: (text: string) => number;
}

/**
 * Options of {@link Materializer}: as in the core, but `writer` defaults to a
 * `NodeFileWriter` in Node (which is then the reader too); browsers must give one.
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
    super(options == null ? options : { ...options, writer: options.writer ?? defaultWriter() });
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
   * is a summary is left alone, so this can run on every turn. With `remindUnread`, one
   * line at the end of the last user turn names the results that reported errors and
   * that the model never read back.
   */
  override async materializeMessages<M extends object>(
    messages: readonly M[],
    options?: MaterializeMessagesOptions,
  ): Promise<MaterializedMessages<M>> {
    // Messages an earlier call returned unchanged, and that still read the same, are not
    // walked again (see SeenMessages for what "the same" covers); when every message is
    // such, wasm is not entered at all. Only with no signal or one that has not fired:
    // anything else is core's to check and report.
    if (!Array.isArray(messages) || !quietOptions(options) || this.#windowed) {
      return super.materializeMessages(messages, options) as Promise<MaterializedMessages<M>>;
    }
    const seen = this.#seen;
    const known: boolean[] = new Array(messages.length);
    let allKnown = true;
    for (let i = 0; i < messages.length; i++) allKnown = (known[i] = seen.has(messages[i])) && allKnown;
    if (allKnown) return { messages: messages.slice(), refs: [], paths: [], unrecognized: [] };
    const prints: (unknown[] | undefined)[] = new Array(messages.length);
    for (let i = 0; i < messages.length; i++) if (!known[i]) prints[i] = seen.fingerprint(messages[i]);
    // Core still reads the tool calls remembered messages name (a new result takes its
    // tool's name from them; the first call with an id wins). A remembered message that
    // names none is handed over as an empty object, in which core finds nothing. The
    // Anthropic `tool_use` blocks of the remembered messages before the first new one go
    // over together, the very block objects in their order, as one stand-in in the first
    // one's place; from the first remembered message naming tools another way (OpenAI
    // `tool_calls`, Responses `function_call`), messages go over as they are, so the
    // order in which core meets every call stays the conversation's.
    const input: object[] = messages.slice();
    const firstNew = known.indexOf(false);
    const calls: object[] = [];
    let callsAt = -1;
    let combining = true;
    for (let i = 0; i < messages.length; i++) {
      if (!known[i]) continue;
      const blocks = toolUseBlocks(messages[i]);
      if (blocks !== undefined && blocks.length === 0) {
        input[i] = EMPTY;
      } else if (blocks !== undefined && combining && i < firstNew) {
        for (const block of blocks) calls.push(block);
        if (callsAt < 0) callsAt = i;
        input[i] = EMPTY;
      } else {
        combining = false;
      }
    }
    if (callsAt >= 0) input[callsAt] = { content: calls };
    const done = (await super.materializeMessages(input, options)) as MaterializedMessages<M>;
    const out = done.messages as M[];
    // A message with an item core could not place is reported on every call: not remembered.
    const reported = new Set(done.unrecognized.map((path) => Number(/^messages\[(\d+)\]/.exec(path)?.[1])));
    for (let i = 0; i < messages.length; i++) {
      if (input[i] !== messages[i]) out[i] = messages[i];
      const print = prints[i];
      if (print !== undefined && out[i] === messages[i] && !reported.has(i)) seen.remember(messages[i], print);
    }
    return done;
  }

  /**
   * Clear old tool results when the history is over budget: each message counted as its
   * `JSON.stringify` by `options.countTokens` (default: the materializer's `countTokens`,
   * else {@link estimateTokens}); past
   * `triggerTokens`, results before the last `keepLast` (default 3, not of
   * `excludeTools`) become one-line pointers to their artifacts, oldest first, down to half
   * the trigger, if that saves `clearAtLeastTokens` (default a tenth of the trigger).
   * Every cleared result reads back byte for byte. Send what it returns; give it that plus
   * the new messages next turn (pointers are never cleared again).
   *
   * @example
   * ```ts
   * const { messages: sent, cleared, rewrittenFromMessage } = await materializer.budget(history, { triggerTokens: 100_000 });
   * ```
   */
  override budget<M extends object>(messages: readonly M[], options: BudgetOptions): Promise<BudgetResult<M>> {
    // Counting (and a counter's failure, as an OffloadError) is the wasm's.
    return super.budget(messages, options as never) as Promise<BudgetResult<M>>;
  }

  readonly #seen = new SeenMessages();
  /** With a context window, a result's fate depends on every message before it. */
  readonly #windowed = this.options.contextWindow !== undefined;

  /**
   * The definitions of `context_read`, `context_tail` and `context_grep` as the `tools`
   * array of `options.format` (`"anthropic"`, the default, `"openai-chat"`,
   * `"openai-responses"` or `"mcp"`), for a loop that runs them itself.
   *
   * @example
   * ```ts
   * const tools = materializer.getToolDefinitions({ format: 'openai-chat' });
   * ```
   */
  override getToolDefinitions<F extends ToolFormat = 'anthropic'>(options?: {
    format?: F;
  }): ToolDefinitionFormats[F][] {
    return super.getToolDefinitions(options) as ToolDefinitionFormats[F][];
  }

  /** One self-contained bundle of `messages` and every artifact they refer to, each with its SHA-256. */
  override exportConversation<M extends object>(
    messages: readonly M[],
    options?: OperationOptions,
  ): Promise<ConversationBundle<M>> {
    return super.exportConversation(messages, options) as Promise<ConversationBundle<M>>;
  }
}

/** The stand-in for a remembered message that names no tool, or whose calls went over with others. */
const EMPTY: object = Object.freeze({});

/**
 * Whether `options` asks for nothing core must check: absent, or a signal that has not
 * fired, and no reminder.
 */
function quietOptions(options: MaterializeMessagesOptions | undefined): boolean {
  if (options === undefined || options === null) return true;
  if (typeof options !== 'object') return false;
  // The reminder reads every tool call of the history, which the remembered messages'
  // stand-ins leave out.
  if (options.remindUnread !== undefined) return false;
  const signal: unknown = options.signal;
  if (signal === undefined || signal === null) return true;
  return (
    typeof signal === 'object' &&
    (signal as AbortSignal).aborted === false &&
    typeof (signal as AbortSignal).addEventListener === 'function' &&
    typeof (signal as AbortSignal).removeEventListener === 'function'
  );
}

/** Options of {@link importConversation}: `writer` defaults to a `NodeFileWriter` in Node (the reader too). */
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
  const writer = options?.writer ?? defaultWriter();
  return wasm.importConversation(bundle, options == null ? options : { ...options, writer }) as Promise<
    ImportedConversation<M>
  >;
}
