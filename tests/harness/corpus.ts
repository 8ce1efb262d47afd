// Real agent transcripts (../shared/corpus, see its README) for the JavaScript hosts.
// Mirrors tests/conformance/tests/corpus.rs: the same corpus, thresholds and canonical
// outcome, recorded in target/conformance/corpus-<host>.json for cross-host.mjs.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { byBytes } from './steps.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The thresholds every corpus file is offloaded at (`undefined`: the default, 100). */
export const THRESHOLDS = [undefined, 4000] as const;

/** Where the corpus is: `$TOOL_OFFLOAD_CORPUS` (relative to the repository root), else
 * `../shared/corpus` beside the repository. */
export function corpusDir(): string {
  return resolve(repo, process.env.TOOL_OFFLOAD_CORPUS || join('..', 'shared', 'corpus'));
}

/** Every `.json` file under `dir`, as `/`-separated relative paths in byte order. */
export function corpusFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) found.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return byBytes(found.map((f): [string, null] => [f, null])).map(([f]) => f);
}

/** Names and sizes of the corpus files, so that records of different corpora are told apart. */
export function fingerprint(dir: string, files: string[]): string {
  return files.map((f) => `${f}:${statSync(join(dir, f)).size}`).join('\n');
}

/** The key of one run: `anthropic/x.json@100`. */
export const runKey = (file: string, threshold: number | undefined): string => `${file}@${threshold ?? 100}`;

const recordPath = (host: string) => join(repo, 'target', 'conformance', `corpus-${host}.json`);

/** Record `outcomes` (run key → canonical outcome) for cross-host.mjs. */
export function recordCorpus(host: string, corpus: string, outcomes: Map<string, string>): void {
  mkdirSync(dirname(recordPath(host)), { recursive: true });
  writeFileSync(recordPath(host), JSON.stringify({ corpus, outcomes: Object.fromEntries(byBytes([...outcomes])) }));
}

/** Remove a host's record (before a run), so that a skipped or failed run leaves none to compare. */
export function forgetCorpus(host: string): void {
  if (existsSync(recordPath(host))) rmSync(recordPath(host));
}

/** Where a tool result's content sits in one message, found by the format rules alone. */
export interface Slot {
  /** Block index in `content` (Anthropic), or null for the message itself. */
  block: number | null;
  /** `content`, or `output` (OpenAI Responses `function_call_output`). */
  field: 'content' | 'output';
  id: unknown;
}

/** The tool-result slots of a message: Anthropic `tool_result` blocks, OpenAI Chat
 * `role: "tool"` messages, OpenAI Responses `function_call_output` items. */
export function slotsOf(message: any): Slot[] {
  if (message?.role === 'tool') return [{ block: null, field: 'content', id: message.tool_call_id }];
  if (message?.type === 'function_call_output') return [{ block: null, field: 'output', id: message.call_id }];
  if (!Array.isArray(message?.content)) return [];
  return message.content.flatMap((b: any, i: number): Slot[] =>
    b !== null && typeof b === 'object' && b.type === 'tool_result'
      ? [{ block: i, field: 'content', id: b.tool_use_id }]
      : [],
  );
}

/** The value at `slot` of `message`. */
export const at = (message: any, slot: Slot): unknown =>
  (slot.block === null ? message : message.content[slot.block])[slot.field];

/** What is measured and written: a string as is, an array as its JSON.stringify, missing as "". */
export function textOf(content: unknown): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return JSON.stringify(content);
  throw new Error(`content is neither string nor array: ${JSON.stringify(content)}`);
}
