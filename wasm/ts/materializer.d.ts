/** Options of `new Materializer(...)`. */
export interface MaterializerOptions {
  /** Root directory; artifacts go under `<userData>/context/<conversationId>/artifacts/`. Relative paths resolve against `cwd`. */
  userData: string;
  /** The conversation whose artifacts this materializer writes and may read: a safe directory name. */
  conversationId: string;
  /** Outputs over this many UTF-16 code units are materialized (default 4000). */
  maxInlineChars?: number;
  /** Outputs over this many UTF-8 bytes are materialized (default 16384). */
  maxInlineBytes?: number;
  /** Lines of head and of tail in a summary (default 40). */
  snippetLines?: number;
  /** Also a byte budget for head and for tail, e.g. 2048 (default: none, lines only). */
  snippetBytes?: number;
  /**
   * The `outputDir` of `offloadToolResult`/`offloadToolResults`, when they run beside this
   * materializer: then `read`, `tail`, `grep` and the read tools also read the files their
   * placeholders name (`./tool-result-<id>.md`, `<dir>/<session>/<id>.md`, or the
   * placeholder whole), and nothing else in that directory. Relative paths resolve
   * against `cwd`.
   */
  offloadDir?: string;
  /**
   * Per-tool limits, by tool name (exact); `"*"` for every tool without its own entry.
   * The entry that applies to a tool (its own, else a limit the tool declared over MCP,
   * else `"*"`) decides for it on every axis: the limits it sets are the only ones, an
   * axis it leaves unset has no limit, and `maxInlineChars`/`maxInlineBytes` above apply
   * only to tools no entry applies to (so `{ bash: { maxInlineChars: 30000 } }` keeps a
   * 20,000-character output inline). An entry that sets nothing is as if absent.
   * `materialize: "never"` keeps a tool's outputs inline whatever their size (a file
   * reader the model asked for), `"always"` materializes them whatever their size. They
   * decide whether an output is materialized; summaries and pages keep the limits above.
   */
  tools?: Record<string, ToolLimits>;
  /**
   * Replace well-known secrets (AWS, GitHub, GitLab, Slack, Stripe, OpenAI and Anthropic
   * keys, JWTs, private keys, passwords in assignments and connection strings), and what
   * your own `patterns` match, by `[REDACTED:<kind>]` before an output is written or
   * summarised (default false; see `Redact`). The ref's `hint.redacted` counts them.
   */
  redact?: Redact;
  /**
   * When the fresh results of one message (within their limits, not yet summaries)
   * together hold more UTF-16 code units than this, `materializeMessages` materializes
   * the largest first until the rest fit (default: off; Claude Code uses 200,000).
   */
  messageBudgetChars?: number;
  /**
   * The model's window, for `materializeMessages`: a result is materialized when its
   * tokens exceed `resultShare` (default 0.25) of what the messages before it leave free
   * of `tokens` (default: off). Tokens by `countTokens`, else `estimateTokens`.
   */
  contextWindow?: { tokens: number; resultShare?: number };
  /**
   * Counts tokens for `tools` entries' `maxInlineTokens` and for `contextWindow` (default:
   * `estimateTokens`), e.g. `(text) => encode(text).length` with `gpt-tokenizer` or
   * `js-tiktoken`; also `budget`'s default counter. It must return a non-negative integer
   * and never more tokens than the text has UTF-8 bytes (true of every BPE tokenizer):
   * an output of at most `maxInlineTokens` bytes is within without being counted. What
   * it throws rejects the call that asked (`INVALID_ARGUMENT`), before anything is written.
   */
  countTokens?: (text: string) => number;
  /** Where artifacts are written. */
  writer: FileWriter;
  /** Where artifacts are read back from (default: `writer`, when it has `readFile`). */
  reader?: FileReader;
  /** Called once per materialization (not for inline outputs); whatever it throws is ignored. */
  logger?: (entry: MaterializeLogEntry) => void;
  /** Absolute directory a relative `userData` resolves against (default: `process.cwd()`, or `/` without Node). */
  cwd?: string;
}

/** The options a `Materializer` runs with, defaults filled in. */
export interface ResolvedMaterializerOptions {
  userData: string;
  conversationId: string;
  cwd: string;
  maxInlineChars: number;
  maxInlineBytes: number;
  snippetLines: number;
  snippetBytes?: number;
  /** As given, resolved against `cwd`. */
  offloadDir?: string;
  tools?: Record<string, ToolLimits>;
  redact?: RedactShown;
  messageBudgetChars?: number;
  contextWindow?: { tokens: number; resultShare: number };
}

/** One tool's entry in `MaterializerOptions.tools` and `WorkspaceOptions.tools`. */
export interface ToolLimits {
  /** This tool's outputs over this many UTF-16 code units are materialized. */
  maxInlineChars?: number;
  /** This tool's outputs over this many UTF-8 bytes are materialized. */
  maxInlineBytes?: number;
  /**
   * This tool's outputs over this many tokens are materialized: by the options'
   * `countTokens`, else `estimateTokens`. In a Workspace it replaces `tokenThreshold`.
   */
  maxInlineTokens?: number;
  /** Whatever the size: `"never"` (always inline) or `"always"` (always an artifact). */
  materialize?: 'never' | 'always';
}

/** Options of `read`. */
export interface ReadOptions {
  /** First line, 0-based (default 0): line 57 is offset 56. */
  offset?: number;
  /** For a line over 2000 characters, shown as parts 57.1, 57.2…: the part to start at (default 1). */
  part?: number;
  /**
   * Start at this character of the line instead (UTF-16 units, 0-based; wins over
   * `part`): a grep window labelled `57.3@4010` is `{ offset: 56, char: 4010 }`. Past the
   * line's end, the page starts at the next line.
   */
  char?: number;
  /** Lines at most (default 200). */
  limit?: number;
  /**
   * A JSON path (`$.items[10].sku`, `$.items[0:5]`, `$.data[*].id`) or JSON Pointer
   * (`/items/10/sku`): the page shows what it selects in a JSON artifact, pretty-printed,
   * and `offset`/`part`/`limit` page through that.
   */
  path?: string;
}

/** Options of `grep`. */
export interface GrepOptions {
  /** Rows of context around each match (default 2). */
  context?: number;
  /** Matches shown at most (default 50). */
  maxMatches?: number;
  /** Match case-insensitively (default false). */
  ignoreCase?: boolean;
}

/** Options of `Materializer.gc` (docs/retention.md); at least one of the two rules. */
export interface GcOptions {
  /** Remove artifacts last written longer ago than this. */
  olderThanMs?: number;
  /** Then remove the least recently written until ours take at most this many bytes. */
  maxBytes?: number;
  /** Messages still in use: nothing they refer to is removed. */
  keep?: readonly object[];
  /** Report what would go; remove nothing. */
  dryRun?: boolean;
}

/** What `Materializer.gc` removed (or, dry, would remove). */
export interface GcReport {
  /** Paths removed, in path order (line indexes and stale temporary files included). */
  removed: string[];
  /** Their bytes. */
  bytes: number;
  /** Artifacts of ours that stay, and their bytes. */
  kept: number;
  keptBytes: number;
}

/** Counts over a materializer's lifetime. */
export interface MaterializeStats {
  /** Outputs materialized. */
  hits: number;
  /** Outputs left inline. */
  inlined: number;
  /** UTF-16 units kept out of the conversation: Σ (output − summary). */
  savedChars: number;
  /** `savedChars / hits`, 0 without hits. */
  avgSavedChars: number;
}

/** What the logger is told about one materialization. */
export interface MaterializeLogEntry extends RefHint {
  /** Absolute path of the artifact. */
  path: string;
  /** The ref's id. */
  ref: string;
  /** Length of the summary, in UTF-16 code units. */
  summaryChars: number;
}

/** The MCP resource template artifacts are advertised under (`mcpResourceTemplate()`). */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}
