/** Every failure is thrown (or rejected) as an `OffloadError`, a real `Error` subclass. */
export interface OffloadError extends Error {
  readonly name: 'OffloadError';
  readonly code: ErrorCode;
  /** With `WRITE_FAILED` / `READ_FAILED`: the file or directory that could not be written or read. */
  readonly path?: string;
  /**
   * With `WRITE_FAILED` / `READ_FAILED`: what the writer or reader threw (or the value it
   * wrongly resolved to). `INVALID_PATTERN` has none: core compiles grep patterns, and the
   * message says why one is refused.
   */
  readonly cause?: unknown;
}

/** The `OffloadError` class. */
export interface OffloadErrorConstructor {
  new (message: string, code: ErrorCode, options?: { cause?: unknown }): OffloadError;
  readonly prototype: OffloadError;
}

/**
 * The injected IO. `mkdir` is recursive and succeeds when the directory exists;
 * `writeFile` replaces any existing file.
 *
 * `createFile` writes `data` only if nothing is at `path` yet, atomically: of any number
 * of concurrent creators of one path (calls, workers, processes) exactly one resolves
 * `true` and its data is what the file holds; the others resolve `false` and write
 * nothing. Every place that picks a free name (the Materializer's `<id>-1`, `-2`…, batch
 * offload's `tool-result-<id>-N.md`, import) relies on it so nothing is ever overwritten.
 * A writer without it still works with a weaker guarantee: the name is checked with
 * `readFile` (when there is one) and then written, so two concurrent calls may race.
 *
 * `data` may hold lone UTF-16 surrogates (content cut mid-emoji): write them as U+FFFD,
 * as `TextEncoder` and Node's `fs` do, so every host writes the same bytes. It is a
 * `Uint8Array` for a binary output (a `.bin` artifact, created with `createFile`, or
 * `writeFile` when there is none): write its bytes as they are.
 */
export interface FileWriter {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  createFile?(path: string, data: string | Uint8Array): Promise<boolean>;
  /** Retention (`gc`) only: size, modification time and kind, `undefined` when nothing is there. */
  stat?(path: string): Promise<{ size: number; modifiedMs: number; isDir: boolean; isLink?: boolean } | undefined>;
  /** Retention (`gc`) only: remove a file; nothing there is not an error. */
  remove?(path: string): Promise<void>;
}

/**
 * Reading artifacts back, the counterpart of `FileWriter`. `readFile` resolves to the
 * UTF-8 content, or `undefined` when there is no such file (`null` is taken as missing
 * too); `listDir` to the sorted entry names, or `[]` when the directory does not exist.
 * `size` resolves to the file's size in bytes (`undefined` when missing) and
 * `readRange` to its bytes `start..end` (fewer at the end of the file): read-back pages
 * through artifacts with them, so a page of a 1 GB artifact costs a page. A reader
 * without them still works, reading each artifact whole once per call.
 */
export interface FileReader {
  readFile(path: string): Promise<string | undefined>;
  listDir(dir: string): Promise<string[]>;
  size?(path: string): Promise<number | undefined>;
  readRange?(path: string, start: number, end: number): Promise<Uint8Array>;
}

// Message shapes name the fields tool-offload reads; any other field is kept as is at
// run time. They carry no index signature, so the SDKs' own types are assignable to them.

/** An Anthropic `text` block. */
export interface TextBlock {
  type: 'text';
  text: string;
}
/** An Anthropic `image` block. */
export interface ImageBlock {
  type: 'image';
  source: unknown;
}
/** An Anthropic `tool_use` block. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
/** An Anthropic `tool_result` block; `content` may be omitted (counts as empty). */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}
/** Any other block type; kept verbatim. */
export interface OtherBlock {
  type: string;
}
export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

/** An Anthropic Messages API message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}
/** A content part of an OpenAI Chat Completions message. */
export interface ContentPart {
  type: string;
}
/** An OpenAI Chat Completions tool message. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string | ContentPart[];
}
/** An OpenAI Responses API `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | ContentPart[];
}
/** A message (or input item) that can carry a tool result. */
export type Message = AnthropicMessage | OpenAIToolMessage | OpenAIFunctionCallOutput;

/**
 * One of your own patterns for `redact`, beside the built-in rules: `context_grep`'s
 * syntax (core's linear-time engine, not `RegExp`: no look-around or backreferences),
 * matched within one line; with a capture group, only the group is replaced. A string
 * or a `RegExp` (its source; its `i` flag folds case) is of kind `custom`; `kind` names
 * it (1–64 ASCII letters, digits, `-`, `_`, `.`).
 */
export type RedactPattern = string | RegExp | { pattern: string | RegExp; kind?: string; ignoreCase?: boolean };

/**
 * The `redact` option of every writer: `true` for the built-in rules, or `{ patterns,
 * replace }` for the built-in rules and your `patterns` after them, each secret replaced
 * by `replace` when given (else `[REDACTED:<kind>]`). A bad pattern or kind throws
 * `INVALID_PATTERN` or `INVALID_ARGUMENT`.
 */
export type Redact = boolean | { patterns?: RedactPattern[]; replace?: string };

/** `redact` as a Materializer's `options` shows it. */
export type RedactShown =
  true | { patterns: { pattern: string; kind: string; ignoreCase: boolean }[]; replace?: string };

export interface OffloadOptions {
  /** Absolute directory a relative `outputDir` resolves against (default: `process.cwd()`, or `/` without Node). */
  cwd?: string;
  /**
   * Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
   * passwords in assignments and connection strings), and what your own `patterns`
   * match, by `[REDACTED:<kind>]` in the files written (default false; see `Redact`).
   * The placeholders and sizes in the messages are as without it.
   */
  redact?: Redact;
}

/** Options of `offloadToolResults`. */
export interface BatchOptions {
  /** Directory for the files, created recursively; relative paths resolve against `cwd`. */
  outputDir: string;
  /** Offload content of at least this many UTF-16 code units (default 100; empty content never). */
  threshold?: number;
  /** Where files go. */
  writer: FileWriter;
  /** Absolute directory a relative `outputDir` resolves against (default: `process.cwd()`, or `/` without Node). */
  cwd?: string;
  /** Cancels the batch: it rejects with `ABORTED` (see `OperationOptions`). */
  signal?: AbortSignal;
  /**
   * Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
   * passwords in assignments and connection strings), and what your own `patterns`
   * match, by `[REDACTED:<kind>]` in the files written (default false; see `Redact`).
   * The placeholders and sizes in the messages are as without it.
   */
  redact?: Redact;
}

/**
 * Options of the long operations (`materializeMessages`, `exportConversation`): an
 * `AbortSignal` that cancels the call. Every wait on the writer or reader is raced
 * against it, so even a writer that never settles cannot hang the call, which then
 * rejects with `ABORTED` (`cause`: the signal's reason) and reports nothing as done.
 * Files already written stay (each is complete: writes are atomic).
 */
export interface OperationOptions {
  signal?: AbortSignal;
}

/** What `offloadToolResults` did. */
export interface BatchResult<M = unknown> {
  /** The conversation: unchanged messages are the same objects, changed ones deep copies. */
  messages: M[];
  /** Number of tool results offloaded. */
  offloadedCount: number;
  /** Sum of the original sizes of the offloaded contents, in UTF-16 code units. */
  freedChars: number;
  /** Absolute paths written, in walk order. */
  files: string[];
  /**
   * Paths of the items that look like tool results but are of no shape we know
   * (`messages[3]`, `messages[2].content[1]`: a `type` ending in `_result` or `_output`,
   * such as Anthropic's `mcp_tool_result`): left as they are, and reported here.
   */
  unrecognized: string[];
}

/** A tool as the Anthropic API describes it (the `tools` parameter). */
export interface ToolDefinition {
  /** `^[a-zA-Z0-9_-]{1,64}$`, unique in a registry. */
  name: string;
  /** What the tool does and when to use it: the model reads this (default ""). */
  description?: string;
  /** A JSON Schema object describing the tool's input. */
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** The `tools` formats `getToolDefinitions({ format })` returns definitions in. */
export type ToolFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'mcp';

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: { type: 'object'; [key: string]: unknown } };
}

/** An OpenAI Responses function tool (not strict: strict mode refuses optional properties). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: { type: 'object'; [key: string]: unknown };
  strict: false;
}

/** A Model Context Protocol tool, as `tools/list` lists it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

/** Options of `getToolDefinitions`. */
export interface DefinitionsOptions {
  /** The API the definitions are for (default `"anthropic"`). */
  format?: ToolFormat;
}

/** What `getToolDefinitions({ format })` returns for each format. */
export interface ToolDefinitionFormats {
  anthropic: ToolDefinition & { description: string };
  'openai-chat': OpenAIChatTool;
  'openai-responses': OpenAIResponsesTool;
  mcp: McpTool;
}

/** What a handler resolves to. */
export interface ToolOutput {
  content: string;
  /** The tool ran but failed; the model should adapt. */
  is_error?: boolean;
}

/**
 * A tool's implementation: receives the model's `input`, never the `tool_use_id`. Bytes
 * (a `Uint8Array` or `Buffer`) are stored as a binary artifact by a registry with a
 * materializer; without one the model is told their size and kind.
 */
export type ToolHandler = (params: any) => ToolOutput | Uint8Array | Promise<ToolOutput | Uint8Array>;

/** A registered tool, as `getTool` returns it. */
export interface RegisteredTool {
  definition: ToolDefinition;
  handler: ToolHandler;
}

/** A `tool_result` block answering one `tool_use`. */
export interface ToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** Offloading of large results by a `ToolRegistry`. */
export interface ToolOffloadOptions {
  /** Files go to `<outputDir>/<sessionId>/<tool_use_id>.md`. */
  outputDir: string;
  sessionId: string;
  /** Offload results of at least this many UTF-16 code units (default 1000). */
  thresholdChars?: number;
  writer: FileWriter;
  /** Absolute directory a relative `outputDir` resolves against (default: `process.cwd()`, or `/` without Node). */
  cwd?: string;
  /**
   * Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
   * passwords in assignments and connection strings), and what your own `patterns`
   * match, by `[REDACTED:<kind>]` in the files written (default false; see `Redact`).
   * The placeholders and sizes in the messages are as without it.
   */
  redact?: Redact;
}

/** Options of `new ToolRegistry(...)`. */
export interface ToolRegistryOptions {
  /** Offload results of at least `thresholdChars` to files (placeholder in the result). */
  offload?: ToolOffloadOptions;
  /** Or: materialize results over the materializer's limits (summary in the result). */
  materialize?: {
    materialize(input: ToolOutputInput<string | Uint8Array>): Promise<MaterializeResult<string | Uint8Array>>;
  };
}

/** One tool output for `materialize`. */
export interface ToolOutputInput<T = unknown> {
  /** The call's id: names the artifact file, so it must be a safe file name. */
  toolCallId: string;
  toolName: string;
  /** The MCP server (or other origin), if any. */
  serverName?: string;
  /**
   * A string, or any JSON value (measured and written as its `JSON.stringify`), or binary
   * data (a `Uint8Array`, `Buffer` or `ArrayBuffer`): stored as it is in `<toolCallId>.bin`
   * whatever its size, never shown; the writer receives a `Uint8Array`.
   */
  output: T;
}

/** What a ref's hint says about its artifact. */
export interface RefHint {
  toolName: string;
  serverName?: string;
  toolCallId: string;
  /** UTF-8 bytes (of binary data: its bytes). */
  bytes: number;
  /** UTF-16 code units (0 for binary data). */
  chars: number;
  /** Lines (0 for binary data). */
  lines: number;
  /** Whether the artifact is JSON (`.json`). */
  isJson: boolean;
  /** The secrets `redact` replaced in it, by kind (absent when none). */
  redacted?: Record<string, number>;
}

/** A reference to an artifact, readable with `read`, `tail` and `grep` at once. */
export interface ContextRef {
  kind: 'artifact';
  /** `ctx://<conversationId>/tool/<toolCallId>.<json|txt>`, both ids percent-encoded outside `A–Z a–z 0–9 - . _ ~ :` (docs/materializer.md, "Refs"). */
  id: string;
  hint: RefHint;
}

/** What `materialize` did: left the output inline, unchanged, or wrote it to an artifact. */
export type MaterializeResult<T = unknown> =
  | { inline: true; content: T }
  | {
      inline: false;
      /** Text for the model: the pointer first, then sizes, head and tail, errors, reading advice. */
      content: string;
      ref: ContextRef;
      /** Absolute path of the artifact. */
      path: string;
    };

/** What `offloadToolResult` did. */
export interface OffloadResult<M = Message> {
  /** A deep copy of the message, each tool result's content replaced by its placeholder. */
  message: M;
  /** Σ (original − placeholder) UTF-16 code units; negative if content was shorter. */
  freedChars: number;
  /** Absolute path of the first file written. */
  file: string;
  /** Absolute paths of all files written, in message order. */
  files: string[];
}
