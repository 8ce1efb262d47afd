// The batch rules of `offloadToolResults`, written the way a competent user would in plain
// JavaScript: the baseline the npm package (wasm core) and the Rust host are compared with.
// bench/run.mjs checks it gives the same messages, files and counts as the package on the
// benchmark workload before timing anything.
//
// Rules (as the package): every Anthropic `tool_result` block, OpenAI Chat `role: "tool"`
// message and OpenAI Responses `function_call_output` item whose content (a string as is,
// an array as its JSON.stringify) has at least `threshold` UTF-16 units (and is neither
// empty nor already a placeholder) goes to `<outputDir>/tool-result-<id>.md` (`-1`, `-2`, … for later results with the same
// id, never overwriting a file of the batch), replaced by
// `[Content offloaded to: ./tool-result-<id>.md]`. Unchanged messages come back as the same
// objects; nothing is written unless every message is valid.
//
// Differences a user would accept: changed messages are rebuilt with spreads (untouched
// blocks are shared with the input, not deep-copied); writes are plain `writeFile`s, not
// atomic temp-file + rename; lone surrogates are not rejected (writeFile turns them into
// U+FFFD).
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const fsWriter = {
  mkdir: (dir) => mkdir(dir, { recursive: true }),
  writeFile: (path, data) => writeFile(path, data, 'utf8'),
};

// Content already offloaded (by batch or direct offload) is never written again.
const PLACEHOLDER = /^(?:\[Content offloaded to: \.\/|\[Tool result offloaded to file: \/)[^\n\r]*\.md\]$/;
const isPlaceholder = (text) => text.length <= 4200 && PLACEHOLDER.test(text);

export async function offloadToolResultsPlain(
  messages,
  { outputDir, threshold = 100, cwd = process.cwd(), writer = fsWriter },
) {
  const dir = resolve(cwd, outputDir);
  const used = new Set();
  const nextNumber = new Map();
  const fileName = (id) => {
    let n = nextNumber.get(id) ?? 0;
    let name;
    do ((name = n === 0 ? `tool-result-${id}.md` : `tool-result-${id}-${n}.md`), n++);
    while (used.has(name));
    nextNumber.set(id, n);
    if (Buffer.byteLength(name) > 255) throw new Error(`tool result id ${id} makes a file name longer than 255 bytes`);
    used.add(name);
    return name;
  };

  const out = [];
  const writes = [];
  let freedChars = 0;
  // Replace `holder[field]` if its content is long enough; returns the new content or undefined.
  const offload = (holder, field, idKey) => {
    const content = holder[field] === undefined ? '' : holder[field];
    if (typeof content !== 'string' && !Array.isArray(content))
      throw new Error(`${field} must be a string or an array`);
    const data = typeof content === 'string' ? content : JSON.stringify(content);
    if (data.length === 0 || data.length < threshold || isPlaceholder(data)) return undefined;
    const id = holder[idKey];
    if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id)) {
      throw new Error(`invalid tool result id: ${JSON.stringify(id)}`);
    }
    const name = fileName(id);
    writes.push({ path: `${dir}/${name}`, data });
    freedChars += data.length;
    return `[Content offloaded to: ./${name}]`;
  };

  for (const message of messages) {
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw new Error('every message must be an object');
    if (message.role === 'tool' || message.type === 'function_call_output') {
      const field = message.role === 'tool' ? 'content' : 'output';
      const placeholder = offload(message, field, message.role === 'tool' ? 'tool_call_id' : 'call_id');
      out.push(placeholder === undefined ? message : { ...message, [field]: placeholder });
    } else if (Array.isArray(message.content)) {
      let changed = false;
      const content = message.content.map((block) => {
        if (block?.type !== 'tool_result') return block;
        const placeholder = offload(block, 'content', 'tool_use_id');
        if (placeholder === undefined) return block;
        changed = true;
        return { ...block, content: placeholder };
      });
      out.push(changed ? { ...message, content } : message);
    } else {
      out.push(message);
    }
  }

  if (writes.length > 0) {
    await writer.mkdir(dir);
    for (const { path, data } of writes) await writer.writeFile(path, data);
  }
  return { messages: out, offloadedCount: writes.length, freedChars, files: writes.map((w) => w.path) };
}
