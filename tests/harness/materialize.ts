// Materialization vectors (tests/vectors/materialize-*.json) for the JavaScript hosts: a
// small interpreter of their steps. Mirrors tests/conformance/src/materialize.rs: the
// same canonical outcome, recorded in target/conformance/materialize-<host>.json for
// cross-host.mjs. The format is documented in tests/vectors/generate-materialize.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { byBytes, MemoryWriter } from './vectors.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface MaterializeStep {
  op: 'materialize' | 'terminal' | 'read' | 'tail' | 'grep' | 'materializeMessages' | 'export' | 'import';
  expect?: Json;
  error?: { code: string };
  [input: string]: Json | undefined;
}

export interface MaterializeVector {
  /** The file name without `.json`: the key of recorded outcomes. */
  id: string;
  name: string;
  description: string;
  options: { conversationId: string; maxInlineChars?: number; maxInlineBytes?: number; snippetLines?: number; snippetBytes?: number };
  steps: MaterializeStep[];
  files: Record<string, string>;
}

/** The injected IO: a writer that can read back. */
export interface ReadWriter {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
  readFile(path: string): Promise<string | undefined>;
  listDir(dir: string): Promise<string[]>;
}

interface Ref {
  kind: string;
  id: string;
  hint: { toolName: string; serverName?: string; toolCallId: string; bytes: number; chars: number; lines: number; isJson: boolean };
}

/** The part of the JavaScript API the vectors exercise. */
export interface MaterializerLike {
  materialize(input: { toolCallId: string; toolName: string; serverName?: string; output: unknown }): Promise<{ inline: boolean; content: unknown; ref?: Ref; path?: string }>;
  materializeTerminal(snippetId: string, text: string): Promise<{ inline: boolean; content: unknown; ref?: Ref; path?: string }>;
  materializeMessages(messages: unknown[]): Promise<{ messages: unknown[]; refs: Ref[]; paths: string[] }>;
  read(ref: string, options?: { offset?: number; part?: number; limit?: number }): Promise<string>;
  tail(ref: string, lines?: number): Promise<string>;
  grep(ref: string, pattern: string, options?: { context?: number; maxMatches?: number; ignoreCase?: boolean }): Promise<string>;
  exportConversation(messages: unknown[]): Promise<Record<string, unknown>>;
}

export interface MaterializeApi {
  Materializer: new (options: Record<string, unknown>) => MaterializerLike;
  importConversation(bundle: unknown, options: { userData: string; writer: ReadWriter; reader?: ReadWriter }): Promise<{ conversationId: string; messages: unknown; paths: string[] }>;
}

/** A host: the API, its IO, the root standing for userData, and the files under it. */
export interface MaterializeHost {
  api: MaterializeApi;
  io: ReadWriter;
  root: string;
  /** Every file under the root, by path relative to it. */
  files(): Record<string, string>;
}

export function loadMaterializeVectors(): MaterializeVector[] {
  const dir = join(repo, 'tests', 'vectors');
  return readdirSync(dir)
    .filter((f) => f.startsWith('materialize-') && f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...(expand(JSON.parse(readFileSync(join(dir, f), 'utf8'))) as object), id: f.slice(0, -'.json'.length) }) as MaterializeVector);
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const only = (v: Record<string, Json>, key: string) => Object.keys(v).length === 1 && key in v;

/** `value` with every `{"$text": [...]}` recipe expanded. */
export function expand(value: Json): Json {
  if (Array.isArray(value)) return value.map(expand);
  if (!isObject(value)) return value;
  if (only(value, '$text') && Array.isArray(value.$text)) {
    return value.$text.map((p) => (typeof p === 'string' ? p : (p as [string, number])[0].repeat((p as [string, number])[1]))).join('');
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
export function expectedOutcome(vector: MaterializeVector, actual: Json[]): string | null {
  try {
    const steps = vector.steps.map((s) => (s.error ? { error: s.error } : { expect: resolve(s.expect, actual, true) }));
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
    hint: { toolName: h.toolName, ...(h.serverName !== undefined ? { serverName: h.serverName } : {}), toolCallId: h.toolCallId, bytes: h.bytes, chars: h.chars, lines: h.lines, isJson: h.isJson },
  };
}

function canonicalBundle(b: Record<string, unknown>): Json {
  const out: Record<string, unknown> = {};
  for (const key of ['format', 'version', 'conversationId', 'messages']) out[key] = b[key] ?? null;
  out.artifacts = Array.isArray(b.artifacts)
    ? b.artifacts.map((a: Record<string, unknown>) => ({ ref: a.ref ?? null, path: a.path ?? null, sha256: a.sha256 ?? null, content: a.content ?? null }))
    : null;
  for (const [k, v] of Object.entries(b)) if (!(k in out)) out[k] = v;
  return out as Json;
}

/**
 * Run every step of `vector` on `host`; the canonical outcome (as the Rust runner
 * records it) and each step's result (null for a failed step).
 */
export async function runMaterializeVector(vector: MaterializeVector, host: MaterializeHost): Promise<{ outcome: string; actual: Json[] }> {
  const { api, io, root } = host;
  const make = (userData?: string) => new api.Materializer({ ...vector.options, userData: userData ? `${root}/${userData}` : root, writer: io, reader: io });
  const main = make();
  const rel = (p: string) => relative(p, root);
  const materialized = (r: Awaited<ReturnType<MaterializerLike['materialize']>>): Json =>
    r.inline ? { inline: true, content: r.content as Json } : { inline: false, content: r.content as Json, ref: canonicalRef(r.ref!), path: rel(r.path!) };
  const actual: Json[] = [];
  const steps: Json[] = [];
  const problems: string[] = [];
  for (const [i, raw] of vector.steps.entries()) {
    const s = resolve({ ...raw, expect: null, error: null } as Json, actual, false) as Record<string, any>;
    const other = s.userData ? make(s.userData) : main;
    const opts = (keys: string[]) => Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
    try {
      let result: Json;
      switch (raw.op) {
        case 'materialize': {
          const input = { toolCallId: s.toolCallId, toolName: s.toolName, ...opts(['serverName']), output: s.output };
          const r = await main.materialize(input);
          if (r.inline && r.content !== input.output) problems.push(`step ${i}: inline content is not the output given`);
          result = materialized(r);
          break;
        }
        case 'terminal':
          result = materialized(await main.materializeTerminal(s.snippetId, s.text));
          break;
        case 'read':
          result = await other.read(s.ref, opts(['offset', 'part', 'limit']));
          break;
        case 'tail':
          result = await other.tail(s.ref, s.lines);
          break;
        case 'grep':
          result = await other.grep(s.ref, s.pattern, opts(['context', 'maxMatches', 'ignoreCase']));
          break;
        case 'materializeMessages': {
          const r = await main.materializeMessages(s.messages);
          result = { messages: r.messages as Json, refs: r.refs.map(canonicalRef), paths: r.paths.map(rel) };
          break;
        }
        case 'export':
          result = canonicalBundle(await main.exportConversation(s.messages));
          break;
        case 'import': {
          const r = await api.importConversation(s.bundle, { userData: s.userData ? `${root}/${s.userData}` : root, writer: io, reader: io });
          result = { conversationId: r.conversationId, messages: r.messages as Json, paths: r.paths.map(rel) };
          break;
        }
        default:
          throw new Error(`${vector.id} step ${i}: unknown op ${String(raw.op)}`);
      }
      // Through JSON: what a host returns is compared as data.
      result = JSON.parse(JSON.stringify(result)) as Json;
      steps.push({ expect: result });
      actual.push(result);
    } catch (e) {
      const code = (e as { code?: unknown })?.code;
      steps.push({ error: { code: typeof code === 'string' ? code : `NOT AN OFFLOAD ERROR: ${String(e)}` } });
      actual.push(null);
    }
  }
  const out: Record<string, Json> = { steps, files: host.files() };
  if (problems.length > 0) out.problems = problems;
  return { outcome: JSON.stringify(out), actual };
}

/** The vectors' in-memory writer, reading back too: a file system rooted at `/`. */
export class MemoryIO extends MemoryWriter implements ReadWriter {
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
  /** Files under `root`, by path relative to it. */
  filesUnder(root: string): Record<string, string> {
    return Object.fromEntries(byBytes([...this.files].map(([p, d]): [string, string] => [relative(p, root), d])));
  }
}
