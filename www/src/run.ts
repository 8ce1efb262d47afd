// One run of the playground: the conversation through one mode of the package, and what
// changed, measured. Pure over the package and a writer, so the Playwright test computes
// the same figures with the npm package in Node and compares them with the page.
import type * as Lib from 'tool-offload';

export type Mode = 'direct' | 'batch' | 'materialize' | 'workspace';

export interface Settings {
  /** Batch: offload contents of at least this many characters (default 100). */
  threshold?: number;
  /** Materialize: inline limits (defaults 4000 characters, 16384 bytes). */
  maxInlineChars?: number;
  maxInlineBytes?: number;
  /** Workspace: the <knowledge_list> from this many characters (default 40000). */
  inlineLimit?: number;
  /** Workspace: results over this many tokens are stored (default 2000). */
  tokenThreshold?: number;
  /** Workspace: the clock of `created_at` (default `Date.now`). */
  now?: number;
}

/** A content the mode replaced: where, its id, its size before and after, and what the model now sees. */
export interface Change {
  message: number;
  id: string;
  beforeChars: number;
  afterChars: number;
  /** The content replaced: its text, or its JSON when it was not a string. */
  original: string;
  replacement: string;
}

export interface RunResult {
  messages: object[];
  before: Totals;
  after: Totals;
  changes: Change[];
  /** Materialize: the refs the model can read back. */
  refs: string[];
}

export interface Totals {
  chars: number;
  tokens: number;
}

/** Where each mode writes, under the playground's root. */
export const PLACES = {
  root: '/playground',
  direct: '/playground/direct',
  batch: '/playground/batch',
  userData: '/playground/materialize',
  conversationId: 'playground',
  workspace: '/playground/workspace',
} as const;

/** Characters of the conversation as sent (its JSON) and the usual ~4 characters per token. */
export function totals(messages: readonly object[]): Totals {
  const chars = JSON.stringify(messages).length;
  return { chars, tokens: Math.round(chars / 4) };
}

export function materializer(lib: typeof Lib, writer: Lib.FileWriter & Lib.FileReader, settings: Settings) {
  return new lib.Materializer({
    userData: PLACES.userData,
    conversationId: PLACES.conversationId,
    writer,
    ...(settings.maxInlineChars !== undefined ? { maxInlineChars: settings.maxInlineChars } : {}),
    ...(settings.maxInlineBytes !== undefined ? { maxInlineBytes: settings.maxInlineBytes } : {}),
  });
}

export function workspace(lib: typeof Lib, writer: Lib.FileWriter & Lib.FileReader, settings: Settings) {
  const { inlineLimit, tokenThreshold, now } = settings;
  return new lib.Workspace({
    root: PLACES.workspace,
    writer,
    ...(inlineLimit !== undefined ? { inlineLimit } : {}),
    ...(tokenThreshold !== undefined ? { tokenThreshold } : {}),
    ...(now !== undefined ? { now: () => now } : {}),
  });
}

export async function run(
  lib: typeof Lib,
  writer: Lib.FileWriter & Lib.FileReader,
  messages: readonly object[],
  mode: Mode,
  settings: Settings = {},
): Promise<RunResult> {
  let after: object[];
  let refs: string[] = [];
  if (mode === 'direct') {
    after = [];
    // Direct offload is for one tool-result message; an agent calls it on those only.
    for (const message of messages) {
      try {
        after.push((await lib.offloadToolResult(message, 'session', PLACES.direct, writer)).message);
      } catch (e) {
        if ((e as { code?: string }).code !== 'NO_TOOL_RESULT') throw e;
        after.push(message);
      }
    }
  } else if (mode === 'batch') {
    const options = settings.threshold !== undefined ? { threshold: settings.threshold } : {};
    after = (await lib.offloadToolResults(messages, { outputDir: PLACES.batch, writer, ...options })).messages;
  } else if (mode === 'workspace') {
    after = (await workspace(lib, writer, settings).offloadMessages(messages)).messages;
  } else {
    const done = await materializer(lib, writer, settings).materializeMessages(messages);
    after = done.messages;
    refs = done.refs.map((r) => r.id);
  }
  return { messages: after, before: totals(messages), after: totals(after), changes: changes(messages, after), refs };
}

/**
 * Every value the run replaced, found by comparing before and after (no knowledge of
 * message shapes: core has that); labelled with the id field beside it.
 */
export function changes(before: readonly object[], after: readonly object[]): Change[] {
  const found: Change[] = [];
  const walk = (a: unknown, b: unknown, message: number, holder: Record<string, unknown> | undefined) => {
    if (a === b) return;
    if (typeof b === 'string' && a !== b) {
      const id =
        holder &&
        [holder.tool_use_id, holder.tool_call_id, holder.call_id, holder.toolCallId].find((v) => typeof v === 'string');
      found.push({
        message,
        id: (id as string | undefined) ?? `message ${message + 1}`,
        beforeChars: typeof a === 'string' ? a.length : JSON.stringify(a).length,
        afterChars: b.length,
        original: typeof a === 'string' ? a : JSON.stringify(a, null, 2),
        replacement: b,
      });
      return;
    }
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      b.forEach((item, i) => walk(a[i], item, message, holder));
      return;
    }
    const objB = b as Record<string, unknown>;
    for (const key of Object.keys(objB)) walk((a as Record<string, unknown>)[key], objB[key], message, objB);
  };
  before.forEach((m, i) => walk(m, after[i], i, undefined));
  return found;
}
