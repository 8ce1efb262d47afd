/** What `materializeMessages` did. */
export interface MaterializedMessages<M = object> {
  /** The conversation: unchanged messages are the same objects, changed ones deep copies whose oversize tool results hold their summaries. */
  messages: M[];
  /** The refs of the artifacts written, in message order. */
  refs: ContextRef[];
  /** Their absolute paths. */
  paths: string[];
  /**
   * Paths of the items that look like tool results but are of no shape we know
   * (`messages[3]`, `messages[2].content[1]`: a `type` ending in `_result` or `_output`,
   * such as Anthropic's `mcp_tool_result`): left as they are, and reported here.
   */
  unrecognized: string[];
}

/** Options of `materializeMessages`. */
export interface MaterializeMessagesOptions extends OperationOptions {
  /**
   * Add one line at the end of the last user turn naming the results that reported
   * errors and that no later tool call read back (`[Not read yet: ctx://… — …]`); the same
   * unread refs give the same line, and earlier messages are never touched.
   */
  remindUnread?: boolean;
}

/** A result shown by reference, and how often the model read it back (`readStats`). */
export interface ShownRef {
  /** The ref (`ctx://…`), or the file an offload placeholder names (`tool-result-<id>.md`). */
  ref: string;
  /** The tool call whose result it stands for. */
  toolCallId: string;
  /** Later tool calls whose input names it. */
  reads: number;
  /** Whether the result reported errors (its summary found error lines, or it is `is_error`). */
  errors: boolean;
}

/** Options of `budget` (docs/materializer.md, "The budget"). */
export interface BudgetOptions {
  /** Clear only when the history holds more tokens than this. */
  triggerTokens: number;
  /** The most recent tool results never cleared (default 3). */
  keepLast?: number;
  /** Clear only when that saves at least this many tokens (default: a tenth of `triggerTokens`). */
  clearAtLeastTokens?: number;
  /** Tools whose results are never cleared. */
  excludeTools?: string[];
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** What the wasm `budget` takes: the options, and how to count each message. */
export interface BudgetCallOptions extends BudgetOptions {
  /**
   * Counts a message's tokens from its `JSON.stringify` (default: the materializer's own
   * `countTokens`, else `estimateTokens`). One that throws, or returns no non-negative
   * integer, rejects the call with `INVALID_ARGUMENT` (what it threw as `cause`).
   */
  countTokens?: (text: string) => number;
  /** The tokens of each message, counted already (then nothing is counted). */
  messageTokens?: number[];
}

/** One tool result `budget` cleared. */
export interface ClearedResult {
  /** The index of its message. */
  message: number;
  toolCallId: string;
  toolName: string;
  /** The ref it reads back with, byte for byte. */
  ref: string;
  /** The full output's length in UTF-16 code units. */
  chars: number;
  /** Tokens saved (estimated). */
  tokens: number;
}

/** What `budget` did. */
export interface BudgetResult<M = object> {
  /** The history to send: unchanged messages are the same objects, rewritten ones copies. */
  messages: M[];
  /** The results cleared, oldest first. */
  cleared: ClearedResult[];
  tokensBefore: number;
  tokensAfter: number;
  /** The first message rewritten: the cached prefix ends before it; `null` when nothing was. */
  rewrittenFromMessage: number | null;
  /** Artifacts written for results that were inline. */
  refs: ContextRef[];
  /** Their absolute paths. */
  paths: string[];
}

/** One artifact in a conversation bundle. */
export interface BundledArtifact {
  /** `ctx://<conversationId>/tool/<file>` or `…/terminal/<file>`, ids percent-encoded (docs/materializer.md, "Refs"). */
  ref: string;
  /** `tool/<file>` or `terminal/<file>`, under the conversation's artifacts: the file's own name, not encoded. */
  path: string;
  /** Lowercase hex SHA-256 of the content's UTF-8 bytes. */
  sha256: string;
  content: string;
}

/** A self-contained conversation: messages plus every artifact they refer to. */
export interface ConversationBundle<M = unknown> {
  format: 'tool-offload/conversation';
  version: 1;
  conversationId: string;
  messages: M[];
  artifacts: BundledArtifact[];
}

/** Where `importConversation` restores a bundle. */
export interface ImportOptions {
  /** Root directory: artifacts go under `<userData>/context/<conversationId>/artifacts/`. */
  userData: string;
  /** Writes the artifacts. */
  writer: FileWriter;
  /** Checks what is already there; defaults to `writer` when it can read. */
  reader?: FileReader;
  /** Absolute directory a relative `userData` resolves against (default: `process.cwd()`). */
  cwd?: string;
  /** Cancels the import: it rejects with `ABORTED` (see `OperationOptions`). */
  signal?: AbortSignal;
}

/** What `importConversation` restored. */
export interface ImportedConversation<M = unknown> {
  /** Make a `Materializer` with this id to read the refs. */
  conversationId: string;
  messages: M[];
  /** Absolute paths of the artifacts (written, or already there and identical). */
  paths: string[];
}

/** One tool call and its response, for `formatLegacyToolRecord`. */
export interface LegacyToolRecord {
  toolName: string;
  toolCallId?: string;
  /** The call's arguments (any JSON value). */
  arguments: unknown;
  /** What the model sees: the output when inline, else the summary. */
  response: unknown;
}
