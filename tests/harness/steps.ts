// The conformance vectors (tests/vectors/*.json, format in tests/vectors/README.md) for
// the JavaScript hosts: a small interpreter of their steps. Mirrors
// tests/conformance/src/steps: the same canonical outcome, recorded in
// target/conformance/<host>.json for cross-host.mjs. No Node API here: the browser host
// (tests/browser/) runs this very module in Chromium; files and records are node-io.ts.

import type { RefHint } from '../../host-node/wasm/tool_offload_wasm.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Step {
  op: string;
  expect?: Json;
  error?: Json;
  [input: string]: Json | undefined;
}

export interface Vector {
  /** The file name without `.json`: the key of recorded outcomes. */
  id: string;
  name: string;
  description: string;
  cwd?: string;
  options?: {
    conversationId?: string;
    maxInlineChars?: number;
    maxInlineBytes?: number;
    snippetLines?: number;
    snippetBytes?: number;
    offloadDir?: string;
    messageBudgetChars?: number;
    contextWindow?: { tokens: number; resultShare?: number };
    countTokens?: 'words';
  };
  steps: Step[];
  files: Record<string, string>;
}

/** A writer; `readFile`/`listDir` too for materializers. */
export interface ReadWriter {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
  readFile(path: string): Promise<string | undefined>;
  listDir(dir: string): Promise<string[]>;
}

interface Ref {
  kind: string;
  id: string;
  hint: RefHint;
}

type Materialized = { inline: boolean; content: unknown; ref?: Ref; path?: string };

/** The part of a materializer the vectors exercise. */
export interface MaterializerLike {
  materialize(input: {
    toolCallId: string;
    toolName: string;
    serverName?: string;
    output: unknown;
  }): Promise<Materialized>;
  materializeTerminal(snippetId: string, text: string): Promise<Materialized>;
  materializeMessages(
    messages: unknown[],
    options?: { remindUnread?: boolean },
  ): Promise<{ messages: unknown[]; refs: Ref[]; paths: string[]; unrecognized: string[] }>;
  readStats(messages: unknown[]): { ref: string; toolCallId: string; reads: number; errors: boolean }[];
  unreadRefs(messages: unknown[]): string[];
  read(ref: string, options?: { offset?: number; part?: number; limit?: number; path?: string }): Promise<string>;
  tail(ref: string, lines?: number): Promise<string>;
  grep(
    ref: string,
    pattern: string,
    options?: { context?: number; maxMatches?: number; ignoreCase?: boolean },
  ): Promise<string>;
  grepAll(pattern: string, options?: { context?: number; maxMatches?: number; ignoreCase?: boolean }): Promise<string>;
  exportConversation(messages: unknown[]): Promise<Record<string, unknown>>;
  budget(
    messages: unknown[],
    options: Record<string, unknown>,
  ): Promise<{
    messages: unknown[];
    cleared: { message: number; toolCallId: string; toolName: string; ref: string; chars: number }[];
    rewrittenFromMessage: number | null;
    refs: Ref[];
    paths: string[];
  }>;
  registerTools(registry: RegistryLike): void;
  stats(): { hits: number; inlined: number; savedChars: number };
}

export interface RegistryLike {
  register(definition: unknown, handler: (params: unknown) => Promise<unknown>): void;
  getToolDefinitions(options?: { format: string }): unknown[];
  executeTool(toolUseId: string, name: string, params: unknown): Promise<unknown>;
}

/** The part of a workspace the vectors exercise. */
export interface WorkspaceLike {
  offloadToolResult(input: Record<string, unknown>): Promise<{ content: unknown } & Record<string, unknown>>;
  add(input: Record<string, unknown>): Promise<Record<string, unknown> & { path: string }>;
  offloadMessages(messages: unknown[]): Promise<Record<string, unknown>>;
  queryArtifacts(filter?: unknown, options?: { limit?: number; offset?: number }): Promise<unknown[]>;
  getToolResultOffloadInfo(options?: { taskId?: string; sessionId?: string }): Promise<unknown[]>;
  getById(id: string): Promise<unknown>;
  getByLines(id: string, startLine: number, endLine?: number): Promise<string>;
  grep(
    id: string,
    pattern: string,
    options?: { context?: number; maxMatches?: number; ignoreCase?: boolean },
  ): Promise<string>;
  exportNamespace(): Promise<unknown>;
  importNamespace(bundle: unknown): Promise<string[]>;
  registerTools(registry: RegistryLike): void;
}

/** Run `{ op: "ws", call, … }` on `ws` (the step's fields as the method takes them). */
async function workspaceCall(
  ws: WorkspaceLike,
  s: Record<string, any>,
  rel: (path: string) => string,
  problems: string[],
): Promise<unknown> {
  const pick = (keys: string[]) => Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
  switch (s.call) {
    case 'offloadToolResult': {
      const given = pick(['toolCallId', 'toolName', 'actionName', 'content', 'metadata']);
      const r = await ws.offloadToolResult(given);
      if (typeof r.content !== 'string' && r.content !== given.content) problems.push('content is not the value given');
      return r;
    }
    case 'add': {
      const r = await ws.add(pick(['id', 'content', 'type', 'metadata']));
      return { ...r, path: rel(r.path) };
    }
    case 'offloadMessages':
      return ws.offloadMessages(s.messages);
    case 'queryArtifacts':
      return ws.queryArtifacts(s.filter, pick(['limit', 'offset']));
    case 'getToolResultOffloadInfo':
      return ws.getToolResultOffloadInfo(pick(['taskId', 'sessionId']));
    case 'getById':
      return ws.getById(s.id);
    case 'getByLines':
      return ws.getByLines(s.id, s.startLine, s.endLine);
    case 'grep':
      return ws.grep(s.id, s.pattern, pick(['context', 'maxMatches', 'ignoreCase']));
    case 'exportNamespace':
      return ws.exportNamespace();
    case 'importNamespace':
      return ws.importNamespace(s.bundle);
    default:
      throw new Error(`unknown workspace call ${String(s.call)}`);
  }
}

type Writer = Pick<ReadWriter, 'mkdir' | 'writeFile'>;

/** The JavaScript API the vectors exercise (the raw wasm module or the npm package). */
export interface Api {
  offloadToolResult(
    message: unknown,
    sessionId: string,
    outputDir: string,
    writer: Writer,
    options?: { cwd?: string },
  ): Promise<Record<string, unknown>>;
  offloadToolResults(
    messages: unknown[],
    options: { outputDir: string; threshold?: number; writer: Writer; cwd?: string },
  ): Promise<Record<string, unknown>>;
  Materializer: new (options: Record<string, unknown>) => MaterializerLike;
  importConversation(
    bundle: unknown,
    options: { userData: string; writer: ReadWriter; reader?: ReadWriter },
  ): Promise<{ conversationId: string; messages: unknown; paths: string[] }>;
  ToolRegistry: new (options?: Record<string, unknown>) => RegistryLike;
  registerTodoTools(registry: RegistryLike): void;
  Workspace: new (options: Record<string, unknown>) => WorkspaceLike;
  estimateTokens(text: string): number;
}

/** A host: its API and IO, the real directory standing for `/` ('' in memory), and every file by virtual path. */
export interface Host {
  api: Api;
  io: ReadWriter;
  root: string;
  files(): Record<string, string> | Promise<Record<string, string>>;
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const only = (v: Record<string, Json>, key: string) => Object.keys(v).length === 1 && key in v;

/** `value` with every `{"$text": [...]}` recipe expanded. */
export function expand(value: Json): Json {
  if (Array.isArray(value)) return value.map(expand);
  if (!isObject(value)) return value;
  if (only(value, '$text') && Array.isArray(value.$text)) {
    return value.$text
      .map((p) => (typeof p === 'string' ? p : (p as [string, number])[0].repeat((p as [string, number])[1])))
      .join('');
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
}

class Unblessed extends Error {}

/** `value` with `$from` replaced by earlier results and, in expectations, `$core` unwrapped. */
function resolve(value: Json | undefined, actual: Json[], expectation: boolean): Json {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => resolve(v, actual, expectation));
  if (!isObject(value)) return value;
  if (only(value, '$from')) {
    const [step, ...path] = value.$from as [number, ...(string | number)[]];
    let at: Json = actual[step] ?? null;
    for (const key of path) at = (at as Record<string | number, Json> | null)?.[key] ?? null;
    return at;
  }
  if (expectation && only(value, '$core')) {
    if (value.$core === null) throw new Unblessed();
    return value.$core;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, actual, expectation)]));
}

/** The expected canonical outcome given the actual step results, or null while unblessed. */
export function expectedOutcome(vector: Vector, actual: Json[]): string | null {
  try {
    const steps = vector.steps.map((s) =>
      s.error ? { error: resolve(s.error, actual, true) } : { expect: resolve(s.expect, actual, true) },
    );
    return JSON.stringify({ steps, files: vector.files });
  } catch (e) {
    if (e instanceof Unblessed) return null;
    throw e;
  }
}

function relative(path: string, root: string): string {
  return path.startsWith(root + '/') ? path.slice(root.length + 1) : `OUTSIDE THE ROOT: ${path}`;
}

function canonicalRef(r: Ref): Json {
  const h = r.hint;
  return {
    kind: r.kind,
    id: r.id,
    hint: {
      toolName: h.toolName,
      ...(h.serverName !== undefined ? { serverName: h.serverName } : {}),
      toolCallId: h.toolCallId,
      bytes: h.bytes,
      chars: h.chars,
      lines: h.lines,
      isJson: h.isJson,
    },
  };
}

function canonicalBundle(b: Record<string, unknown>): Json {
  const out: Record<string, unknown> = {};
  for (const key of ['format', 'version', 'conversationId', 'messages']) out[key] = b[key] ?? null;
  out.artifacts = Array.isArray(b.artifacts)
    ? b.artifacts.map((a: Record<string, unknown>) => ({
        ref: a.ref ?? null,
        path: a.path ?? null,
        sha256: a.sha256 ?? null,
        content: a.content ?? null,
      }))
    : null;
  for (const [k, v] of Object.entries(b)) if (!(k in out)) out[k] = v;
  return out as Json;
}

/** A writer failing with "injected failure" on one path (a file, or the directory to create), counting directories. */
class Failing implements Writer {
  mkdirs = 0;
  constructor(
    readonly inner: Writer,
    readonly failOn?: string,
  ) {}
  mkdir(dir: string): Promise<void> {
    this.mkdirs++;
    return dir === this.failOn ? Promise.reject(new Error('injected failure')) : this.inner.mkdir(dir);
  }
  writeFile(path: string, data: string): Promise<void> {
    return path === this.failOn ? Promise.reject(new Error('injected failure')) : this.inner.writeFile(path, data);
  }
  /** The inner writer's reader, when it has one: how a writer without `createFile` finds a name taken. */
  readFile(path: string): Promise<string | undefined> {
    const inner = this.inner as Partial<ReadWriter>;
    return inner.readFile ? inner.readFile(path) : Promise.resolve(undefined);
  }
}

/** A handler, as a vector declares it. */
function handler(spec: Record<string, Json>): (params: unknown) => Promise<unknown> {
  if (isObject(spec.returns)) {
    const output = spec.returns;
    return async () => ({ content: output.content, ...(output.is_error === true ? { is_error: true } : {}) });
  }
  if (typeof spec.fails === 'string') {
    const message = spec.fails;
    return async () => {
      throw new Error(message);
    };
  }
  if (spec.echo === true) return async (params) => ({ content: JSON.stringify(params) });
  throw new Error(`unknown handler ${JSON.stringify(spec)}`);
}

/** The vectors' `countTokens: "words"`: space-separated words. */
const words = (text: string) => text.split(' ').length;

/**
 * Run every step of `vector` on `host`: the canonical outcome (as the Rust runner
 * records it) and each step's result (null for a failed step).
 */
export async function runVector(vector: Vector, host: Host): Promise<{ outcome: string; actual: Json[] }> {
  const { api, io, root } = host;
  const cwd = vector.cwd ?? '/work';
  const data = `${root}/data`;
  const options = {
    conversationId: 'conv-1',
    ...vector.options,
    ...(vector.options?.offloadDir !== undefined ? { offloadDir: `${root}${vector.options.offloadDir}` } : {}),
    // `countTokens: "words"` counts space-separated words (a tokenizer's stand-in).
    ...(vector.options?.countTokens === 'words' ? { countTokens: words } : {}),
  };
  const make = (userData?: string) =>
    new api.Materializer({ ...options, userData: userData ? `${data}/${userData}` : data, writer: io, reader: io });
  const main = make();
  const rooted = new RootedWriter(root, io);
  const rel = (p: string) => relative(p, data);
  const materialized = (r: Materialized): Json =>
    r.inline
      ? { inline: true, content: r.content as Json }
      : { inline: false, content: r.content as Json, ref: canonicalRef(r.ref!), path: rel(r.path!) };
  let registry: RegistryLike = new api.ToolRegistry();
  let workspace: WorkspaceLike | undefined;
  const actual: Json[] = [];
  const steps: Json[] = [];
  const problems: string[] = [];
  for (const [i, raw] of vector.steps.entries()) {
    const s = resolve({ ...raw, expect: null, error: null } as Json, actual, false) as Record<string, any>;
    const other = s.userData ? make(s.userData) : main;
    const opts = (keys: string[]) => Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
    const failing = new Failing(rooted, s.failOn);
    const input = structuredClone(s.message ?? s.messages);
    try {
      let result: Json;
      switch (raw.op) {
        case 'materialize': {
          const given = { toolCallId: s.toolCallId, toolName: s.toolName, ...opts(['serverName']), output: s.output };
          const r = await main.materialize(given);
          // The very value given — or, with redact, the redacted text the vector expects.
          const expected = (raw.expect as { content?: unknown } | null | undefined)?.content;
          if (r.inline && r.content !== given.output && r.content !== expected)
            problems.push(`step ${i}: inline content is not the output given`);
          result = materialized(r);
          break;
        }
        case 'terminal':
          result = materialized(await main.materializeTerminal(s.snippetId, s.text));
          break;
        case 'read':
          result = await other.read(s.ref, opts(['offset', 'part', 'char', 'limit', 'path']));
          break;
        case 'tail':
          result = await other.tail(s.ref, s.lines);
          break;
        case 'grep':
          result =
            s.ref === undefined
              ? await other.grepAll(s.pattern, opts(['context', 'maxMatches', 'ignoreCase']))
              : await other.grep(s.ref, s.pattern, opts(['context', 'maxMatches', 'ignoreCase']));
          break;
        case 'readStats':
          result = main.readStats(s.messages) as Json;
          break;
        case 'unreadRefs':
          result = main.unreadRefs(s.messages) as Json;
          break;
        case 'materializeMessages': {
          const r = await main.materializeMessages(
            s.messages,
            s.remindUnread === undefined ? undefined : { remindUnread: s.remindUnread },
          );
          result = {
            messages: r.messages as Json,
            refs: r.refs.map(canonicalRef),
            paths: r.paths.map(rel),
            ...(r.unrecognized.length > 0 ? { unrecognized: r.unrecognized } : {}),
          };
          break;
        }
        case 'budget': {
          // Each message counted as its JSON.stringify by core's estimate: the npm package
          // counts them itself (the same way), the raw wasm takes the counts given.
          const messageTokens = s.messages.map((m: unknown) => api.estimateTokens(JSON.stringify(m)));
          const r = await main.budget(s.messages, {
            triggerTokens: s.triggerTokens,
            keepLast: s.keepLast,
            clearAtLeastTokens: s.clearAtLeastTokens,
            excludeTools: s.excludeTools,
            messageTokens,
          });
          result = {
            messages: r.messages as Json,
            cleared: r.cleared.map(({ message, toolCallId, toolName, ref, chars }) => ({
              message,
              toolCallId,
              toolName,
              ref,
              chars,
            })),
            rewrittenFromMessage: r.rewrittenFromMessage,
            refs: r.refs.map(canonicalRef),
            paths: r.paths.map(rel),
          };
          break;
        }
        case 'export':
          result = canonicalBundle(await main.exportConversation(s.messages));
          break;
        case 'import': {
          const r = await api.importConversation(s.bundle, {
            userData: s.userData ? `${data}/${s.userData}` : data,
            writer: io,
            reader: io,
          });
          result = { conversationId: r.conversationId, messages: r.messages as Json, paths: r.paths.map(rel) };
          break;
        }
        case 'offloadToolResult': {
          const r = await api.offloadToolResult(s.message, s.sessionId, s.outputDir, failing, { cwd });
          result = { message: r.message, freedChars: r.freedChars, file: r.file, files: r.files } as Json;
          break;
        }
        case 'offloadToolResults': {
          const r = await api.offloadToolResults(s.messages, {
            outputDir: s.outputDir,
            writer: failing,
            cwd,
            ...opts(['threshold']),
          });
          problems.push(...identityProblems(s.messages, r.messages as unknown[]));
          result = {
            messages: r.messages,
            offloadedCount: r.offloadedCount,
            freedChars: r.freedChars,
            files: r.files,
            ...((r.unrecognized as string[]).length > 0 ? { unrecognized: r.unrecognized } : {}),
          } as Json;
          break;
        }
        case 'registry': {
          const offload = s.offload && { ...s.offload, writer: new Failing(rooted, s.offload.failOn) };
          registry = new api.ToolRegistry({
            ...(offload ? { offload } : {}),
            ...(s.materialize ? { materialize: main } : {}),
          });
          result = null;
          break;
        }
        case 'register':
          registry.register(s.definition, handler(s.handler));
          result = null;
          break;
        case 'registerTodoTools':
          api.registerTodoTools(registry);
          result = null;
          break;
        case 'registerReadTools':
          main.registerTools(registry);
          result = null;
          break;
        case 'stats': {
          const { hits, inlined, savedChars } = main.stats();
          result = { hits, inlined, savedChars };
          break;
        }
        case 'definitions':
          result = (
            s.format === undefined ? registry.getToolDefinitions() : registry.getToolDefinitions({ format: s.format })
          ) as Json;
          break;
        case 'execute':
          result = (await registry.executeTool(s.toolUseId, s.name, s.params ?? null)) as Json;
          break;
        case 'workspace': {
          // `now` is the clock of every call; `countTokens: "words"` counts space-separated words.
          const { now, countTokens, ...rest } = (s.options ?? {}) as Record<string, unknown>;
          workspace = new api.Workspace({
            ...rest,
            root: data,
            writer: io,
            reader: io,
            now: () => now ?? 0,
            ...(countTokens === 'words' ? { countTokens: words } : {}),
          });
          result = null;
          break;
        }
        case 'ws':
          result = (await workspaceCall(workspace!, s, rel, problems)) as Json;
          break;
        case 'registerKnowledgeTools':
          workspace!.registerTools(registry);
          result = null;
          break;
        default:
          throw new Error(`${vector.id} step ${i}: unknown op ${String(raw.op)}`);
      }
      // Through JSON: what a host returns is compared as data.
      result = JSON.parse(JSON.stringify(result)) as Json;
      steps.push({ expect: result });
      actual.push(result);
    } catch (e) {
      steps.push({ error: canonicalError(e, root) });
      actual.push(null);
    }
    if (input !== undefined && !sameData(s.message ?? s.messages, input)) {
      problems.push(`step ${i}: the input was modified`);
    }
    const writeFailed = (steps.at(-1) as { error?: { code?: string } }).error?.code === 'WRITE_FAILED';
    if (failing.mkdirs > 0 && !writeFailed && Object.keys(await host.files()).length === 0) {
      problems.push(`${failing.mkdirs} directories created although nothing was written`);
    }
  }
  const out: Record<string, Json> = { steps, files: await host.files() };
  if (problems.length > 0) out.problems = problems;
  return { outcome: JSON.stringify(out), actual };
}

/** `{ code, message, path? }` (path for WRITE_FAILED), the real root taken out. */
function canonicalError(e: unknown, root: string): Json {
  const err = e as { code?: unknown; message?: unknown; path?: unknown };
  if (!(e instanceof Error) || typeof err.code !== 'string') return { code: `NOT AN OFFLOAD ERROR: ${String(e)}` };
  const unroot = (s: string) => (root === '' ? s : s.split(root).join(''));
  return {
    code: err.code,
    message: unroot(e.message),
    ...(err.code === 'WRITE_FAILED' ? { path: unroot(String(err.path)) } : {}),
  };
}

/** Unchanged messages must be the input objects themselves (`===`); changed ones deep
 * copies sharing no object with the input. */
function identityProblems(input: unknown[], got: unknown[]): string[] {
  const problems: string[] = [];
  if (got.length !== input.length) return [`${got.length} messages returned for ${input.length}`];
  for (let i = 0; i < input.length; i++) {
    const changed = JSON.stringify(got[i]) !== JSON.stringify(input[i]);
    if (!changed && got[i] !== input[i]) problems.push(`messages[${i}] is unchanged but not the same object`);
    if (changed) {
      const originals = objectsIn(input[i]);
      if ([...objectsIn(got[i])].some((o) => originals.has(o)))
        problems.push(`messages[${i}] is changed but shares objects with the input`);
    }
  }
  return problems;
}

function objectsIn(value: unknown, found = new Set<object>()): Set<object> {
  if (value !== null && typeof value === 'object' && !found.has(value)) {
    found.add(value);
    for (const v of Object.values(value)) objectsIn(v, found);
  }
  return found;
}

/** Whether two values of JSON data are equal, key order aside (as `assert.deepStrictEqual` has it). */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

const utf8 = new TextEncoder();

/** Byte-order sort, as Rust's BTreeMap<String, _> orders keys. */
export function byBytes<T>(entries: [string, T][]): [string, T][] {
  const compare = (a: Uint8Array, b: Uint8Array) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  return entries.sort(([a], [b]) => compare(utf8.encode(a), utf8.encode(b)));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The vectors' in-memory IO: a file system rooted at `/` that, like a real one, needs
 * the directory first, and holds what a UTF-8 file would (a lone UTF-16 surrogate as
 * U+FFFD, as Node's fs writes it). */
export class MemoryIO implements ReadWriter {
  readonly dirs = new Set<string>(['/']);
  readonly files = new Map<string, string>();
  async mkdir(dir: string): Promise<void> {
    let prefix = '';
    for (const part of dir.split('/').filter(Boolean)) this.dirs.add((prefix += '/' + part));
  }
  async writeFile(path: string, data: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if (!this.dirs.has(parent)) throw new Error(`no such directory: ${parent}`);
    this.files.set(path, data.replace(LONE_SURROGATE, '\uFFFD'));
  }
  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }
  async listDir(dir: string): Promise<string[]> {
    const prefix = dir.endsWith('/') ? dir : dir + '/';
    const names = new Set<string>();
    for (const p of [...this.files.keys(), ...this.dirs]) {
      if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0]!);
    }
    return [...names].sort();
  }
  /** Every file, by path. */
  written(): Record<string, string> {
    return Object.fromEntries(byBytes([...this.files]));
  }
}

/** Maps the vectors' virtual absolute paths under a real directory. */
export class RootedWriter implements ReadWriter {
  constructor(
    readonly root: string,
    readonly inner: ReadWriter,
  ) {}
  mkdir(dir: string): Promise<void> {
    return this.inner.mkdir(this.root + dir);
  }
  writeFile(path: string, data: string): Promise<void> {
    return this.inner.writeFile(this.root + path, data);
  }
  readFile(path: string): Promise<string | undefined> {
    return this.inner.readFile(this.root + path);
  }
  listDir(dir: string): Promise<string[]> {
    return this.inner.listDir(this.root + dir);
  }
}
