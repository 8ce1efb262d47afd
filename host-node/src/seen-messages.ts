import * as wasm from '../wasm/tool_offload_wasm.js';

/**
 * Which messages a {@link Materializer} already found nothing to do in, so that
 * `materializeMessages` on every turn does not cross into wasm again for them.
 *
 * "Already processed" means: an earlier successful call of the same materializer (whose
 * options never change) returned this very message object unchanged, and every value
 * core reads to decide a message's fate is still the same (`===`) as when that call
 * started: `role`, `type`, and the tool results' ids and contents (for Anthropic
 * messages, the `content` array, its length and each block's `type`, `tool_use_id`
 * and `content`; for the other shapes of docs/offload.md, their id and content fields;
 * AI SDK tool messages, LangChain's stored and serialised forms are never remembered).
 * The field names are core's own (`RESULT_SHAPES`, through the wasm export
 * `messageShapes`), so this fingerprint reads what core reads. Those values and the
 * limits alone decide whether a message changes:
 * a result within the limits, or whose content already is a summary, stays as it is
 * whatever the rest of the conversation holds (tool names matter only for results
 * that are materialized). So a message mutated in any of those places, a new block, or
 * a new message is processed again; a message whose tool result content is an array
 * is never remembered (its blocks could change inside without any of those values
 * changing), nor is one whose fields could not be read (a throwing getter: core
 * reports it).
 *
 * @example
 * ```ts
 * const seen = new SeenMessages();
 * const print = seen.fingerprint(message); // before the call
 * // … core returned `message` unchanged …
 * if (print !== undefined) seen.remember(message, print);
 * seen.has(message); // true while its fingerprint is the same
 * ```
 */
export class SeenMessages {
  readonly #prints = new WeakMap<object, unknown[]>();

  /**
   * What core reads of `message` to decide its fate, or `undefined` when it cannot be
   * remembered (not a plain object, an array content, a field that throws).
   */
  fingerprint(message: unknown): unknown[] | undefined {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
    try {
      return fingerprintOf(message as Record<string, unknown>);
    } catch {
      return undefined;
    }
  }

  /** Remember that `message`, read as `print`, came back unchanged. */
  remember(message: object, print: unknown[]): void {
    this.#prints.set(message, print);
  }

  /** Whether `message` was remembered and still reads the same. */
  has(message: unknown): boolean {
    if (typeof message !== 'object' || message === null) return false;
    const before = this.#prints.get(message);
    if (before === undefined) return false;
    const now = this.fingerprint(message);
    if (now === undefined || now.length !== before.length) return false;
    for (let i = 0; i < now.length; i++) if (now[i] !== before[i]) return false;
    return true;
  }
}

/** `[tag, value, id, content]`: where a message or block holds one tool result. */
type Shape = string[];

/**
 * Core's shapes (`RESULT_SHAPES`, in its order), read once: OpenAI Chat's tool message
 * first, the Anthropic block last, those told apart by `type` between.
 */
let shapes: { chat: Shape; typed: Shape[]; block: Shape } | undefined;

function coreShapes(): { chat: Shape; typed: Shape[]; block: Shape } {
  const rows = wasm
    .messageShapes()
    .trimEnd()
    .split('\n')
    .map((row) => row.split(' '));
  return { chat: rows[0], typed: rows.slice(1, -1), block: rows[rows.length - 1] };
}

/** See {@link SeenMessages.fingerprint}: the fields core's `tool_results` reads, in its order. */
function fingerprintOf(m: Record<string, unknown>): unknown[] | undefined {
  const { chat, typed, block } = (shapes ??= coreShapes());
  // An AI SDK tool message has an array content: never remembered.
  const role = m[chat[0]];
  if (role === chat[1]) return whole(1, m[chat[2]], m[chat[3]]);
  const type = m[typed[0][0]];
  for (let i = 0; i < typed.length; i++) {
    const [, value, id, content] = typed[i];
    if (type !== value) continue;
    // LangChain's stored form with `data` holds its fields one level down: never
    // remembered (nor, to be safe, any other shape carrying a `data`).
    if (m.data !== undefined) return undefined;
    return whole(2 + i, m[id], m[content]);
  }
  // A serialised LangChain message keeps its content in `kwargs`: never remembered.
  if (type === 'constructor') return undefined;
  const content = m.content;
  const print: unknown[] = [0, role, type, content];
  if (!Array.isArray(content)) return print;
  print.push(content.length);
  for (let i = 0; i < content.length; i++) {
    const item: unknown = content[i];
    if (typeof item !== 'object' || item === null) {
      print.push(undefined);
      continue;
    }
    const b = item as Record<string, unknown>;
    const blockType = b[block[0]];
    print.push(blockType);
    if (blockType !== block[1]) continue;
    const id = b[block[2]];
    const text = b[block[3]];
    if (text !== undefined && typeof text !== 'string') return undefined;
    print.push(id, text);
  }
  return print;
}

/** A message that is itself one tool result: its content must be a string (or absent). */
function whole(shape: number, id: unknown, content: unknown): unknown[] | undefined {
  if (content !== undefined && typeof content !== 'string') return undefined;
  return [shape, id, content];
}

/**
 * The Anthropic `tool_use` blocks of `message` (the objects themselves, in order), from
 * which core takes tools' names; `[]` when it names no tool; `undefined` when it names
 * tools another way (a Responses `function_call`, OpenAI `tool_calls`) or a read throws.
 */
export function toolUseBlocks(message: object): object[] | undefined {
  try {
    const m = message as Record<string, unknown>;
    if (m.type === 'function_call' || Array.isArray(m.tool_calls)) return undefined;
    const content = m.content;
    if (!Array.isArray(content)) return [];
    const blocks: object[] = [];
    for (let i = 0; i < content.length; i++) {
      const block: unknown = content[i];
      if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_use')
        blocks.push(block);
    }
    return blocks;
  } catch {
    return undefined;
  }
}
