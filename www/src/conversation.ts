// Reading what a user drops or pastes into the playground: a conversation as JSON (an
// array of messages, `{ messages }`, a Responses `{ input }`, or one message) or JSONL
// (one message per line). Which shapes hold tool results is core's business; this only
// finds the list of messages, and names the format for display.

/** The messages of `text`, or an `Error` saying why none were found. */
export function parseConversation(text: string): object[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('Nothing to read: paste or drop a conversation.');
  try {
    return messagesOf(JSON.parse(trimmed));
  } catch (whole) {
    const lines = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
    if (lines.length < 2) throw new Error(`Not JSON: ${(whole as Error).message}`);
    return lines.map((line, i) => {
      try {
        return messageOf(JSON.parse(line));
      } catch (e) {
        throw new Error(`JSONL line ${i + 1}: ${(e as Error).message}`);
      }
    });
  }
}

function messagesOf(value: unknown): object[] {
  if (Array.isArray(value)) return value.map(messageOf);
  if (isObject(value) && Array.isArray(value.messages)) return value.messages.map(messageOf);
  if (isObject(value) && Array.isArray(value.input)) return value.input.map(messageOf);
  return [messageOf(value)];
}

function messageOf(value: unknown): object {
  if (!isObject(value)) throw new Error(`a message must be an object, got ${JSON.stringify(value)?.slice(0, 40)}`);
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "Anthropic Messages", "OpenAI Chat", "OpenAI Responses", a mix of them, or "unknown". */
export function formatName(messages: readonly object[]): string {
  const found = new Set<string>();
  for (const m of messages as Record<string, unknown>[]) {
    if (m.type === 'function_call' || m.type === 'function_call_output') found.add('OpenAI Responses');
    else if (m.role === 'tool' || Array.isArray(m.tool_calls)) found.add('OpenAI Chat');
    else if (
      Array.isArray(m.content) &&
      m.content.some((b) => isObject(b) && /^tool_(use|result)$/.test(String(b.type)))
    )
      found.add('Anthropic Messages');
  }
  return found.size === 0 ? 'no tool calls found' : [...found].join(' + ');
}
