/** How a `Workspace` stores, whom its results belong to, and when they are stored and replaced. */
export interface WorkspaceOptions {
  /** Root directory; the namespace lives in `<root>/context/<namespace>/`. Relative paths resolve against `cwd`. */
  root: string;
  /** The namespace this workspace stores in and reads from (default `"default"`): a safe directory name. */
  namespace?: string;
  /** Recorded as `agent_id` on every tool result. */
  agentId?: string;
  /** Recorded as `task_id` on every tool result. */
  taskId?: string;
  /** Recorded as `session_id` on every tool result. */
  sessionId?: string;
  /** Contents of at least this many UTF-16 units come back as a `<knowledge_list>` (default 40000, at least 2000). */
  inlineLimit?: number;
  /** Tools whose results are always stored. */
  offloadTools?: string[];
  /**
   * Per-tool limits by tool name (`"*"`: every tool without its own entry): `materialize:
   * "never"` or `"always"` stores never or always, `maxInlineChars`/`maxInlineBytes` store
   * what is over them, `maxInlineTokens` replaces `tokenThreshold`. A tool's own entry comes
   * before `offloadTools`, the `"*"` entry after it. The entry that applies decides alone on
   * every axis: under an entry without `maxInlineTokens`, `tokenThreshold` does not apply
   * (`"within_tool_limit"`). An entry that sets nothing is as if absent.
   */
  tools?: Record<string, ToolLimits>;
  /** Results over this many tokens are stored (default 2000). */
  tokenThreshold?: number;
  /**
   * Replace well-known secrets (and what your `patterns` match) by `[REDACTED:<kind>]` before a content is measured,
   * hashed or written (default false; the Materializer's `redact`, see `Redact`); the record's `metadata.redacted`
   * counts them by kind.
   */
  redact?: Redact;
  /**
   * Counts a text's tokens (plug in a real tokenizer); default: `estimateTokens` (docs/tokens.md). Must return a
   * non-negative integer, and never more tokens than the text has UTF-8 bytes: it is asked only for results longer
   * in bytes than the threshold.
   */
  countTokens?: (text: string) => number;
  /** The clock for `created_at`, ms since the epoch or a `Date` (default `Date.now`). */
  now?: () => number | Date;
  /** SHA-256 of a content's UTF-8 bytes (given as a view into wasm memory: read them before returning, keep no reference), as 64 hex digits: a faster hasher than the built-in one. The npm package passes `node:crypto`'s in Node; trusted as given. */
  sha256?: (utf8: Uint8Array) => string;
  /** Where knowledge is written. */
  writer: FileWriter;
  /** Where it is read back from (default: `writer`, when it has `readFile`). */
  reader?: FileReader;
  /** Called for every decision and store; whatever it throws is ignored. */
  logger?: (entry: WorkspaceLogEntry) => void;
  /** Absolute directory a relative `root` resolves against (default: `process.cwd()`, or `/` without Node). */
  cwd?: string;
}

/** What a `Workspace` logs: `decision` (offload, reason, tokens), `stored` (id, path, reused, replaced) or `skipped` (already stored content: a `<knowledge_list>`, a summary, a placeholder, a page read back). */
export interface WorkspaceLogEntry {
  event: 'decision' | 'stored' | 'skipped';
  context_type: string;
  biz_id?: string;
  offload?: boolean;
  reason?: OffloadReason;
  tokens?: number;
  id?: string;
  path?: string;
  reused?: boolean;
  replaced?: boolean;
}

/** Which rule decided: `metadata.offload` false or true, a `tools` entry's `never` or `always`, a tool in `offloadTools`, a `tools` entry's size limit (over it, or within it: an entry decides alone), or the token threshold. */
export type OffloadReason =
  | 'flag_false'
  | 'flag_true'
  | 'tool_never'
  | 'tool_always'
  | 'listed_tool'
  | 'over_tool_limit'
  | 'within_tool_limit'
  | 'over_threshold'
  | 'under_threshold';

/** Any knowledge to `add`. */
export interface KnowledgeInput {
  /** The artifact id: a safe file name. */
  id: string;
  /** A string, or any JSON value (stored as its `JSON.stringify`). */
  content: unknown;
  /** `"text"` (a string) or `"json"` (a JSON value, or a string holding a JSON document); default from `content`. */
  type?: 'text' | 'json';
  /** Its metadata; `context_type` says what it is. */
  metadata: { context_type: string; [key: string]: unknown };
}

/** A knowledge artifact's record: its id, type and metadata (with `chars`, `bytes`, `lines`, `sha256`, `created_at`). */
export interface KnowledgeRecord {
  id: string;
  type: 'text' | 'json';
  metadata: Record<string, unknown>;
}

/** What `add` stored. */
export interface StoredKnowledge extends KnowledgeRecord {
  /** The content's path. */
  path: string;
  /** Whether it was already stored with the same content (nothing was written). */
  reused: boolean;
}

/** A knowledge artifact with its content. */
export interface Knowledge extends KnowledgeRecord {
  content: string;
}

/** One tool result for `offloadToolResult`. */
export interface ToolResultInput<T = unknown> {
  /** The call's id: the artifact is `tool_result_<toolCallId>` (`-1`, `-2`… after it when that id holds another output). */
  toolCallId: string;
  toolName: string;
  actionName?: string;
  /** A string, or any JSON value (stored as its `JSON.stringify`). */
  content: T;
  /** More metadata; `offload: true | false` forces the decision and is not stored. */
  metadata?: Record<string, unknown>;
}

/** What `offloadToolResult` did. */
export interface ToolResultOffload<T = unknown> {
  /** Whether the result is stored. */
  offloaded: boolean;
  /** The `<knowledge_list>` from `inlineLimit` characters on, else the content given. */
  content: string | T;
  /** The artifact id, when stored. */
  artifactId?: string;
  /** Which rule decided (absent when the content already stood for stored content, a `<knowledge_list>` say). */
  reason?: OffloadReason;
}

/** What `offloadMessages` did. */
export interface OffloadedMessages<M = object> {
  /** The conversation: unchanged messages are the same objects, changed ones deep copies. */
  messages: M[];
  /** The ids stored (or found stored), in walk order. */
  artifactIds: string[];
  /** Items that look like tool results but are of no shape we know (`messages[3]`): left as they are. */
  unrecognized?: string[];
}

/** Paging of `queryArtifacts`. */
export interface QueryOptions {
  /** Records at most (default 50, at most 1000). */
  limit?: number;
  /** Records skipped first (default 0). */
  offset?: number;
}

/** Which results `getToolResultOffloadInfo` lists. */
export interface OffloadInfoOptions {
  /** Must be this workspace's namespace when given. */
  namespace?: string;
  taskId?: string;
  sessionId?: string;
}

/** One stored tool result, for a prompt. */
export interface ToolResultOffloadInfo {
  artifact_id: string;
  biz_id: string;
  tool_name: string;
  action_name?: string;
  chars: number;
  bytes: number;
  lines: number;
  created_at: string;
}

/** A namespace exported by `exportNamespace`. */
export interface WorkspaceBundle {
  format: 'tool-offload/workspace';
  version: 1;
  namespace: string;
  items: { record: KnowledgeRecord; sha256: string; content: string }[];
}
