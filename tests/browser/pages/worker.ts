// The browser build in a module worker: materialize an output on OPFS, read it back, and
// post what the page needs to compare (tests/browser/opfs.test.ts). It starts on its own:
// a message sent while the package's top-level await runs would find no handler yet.
import { Materializer, OpfsWriter } from 'tool-offload';

const output = Array.from({ length: 3000 }, (_, i) => `line ${i}${i % 500 === 0 ? ' ERROR' : ''}`).join('\n');

async function main(): Promise<void> {
  try {
    const writer = new OpfsWriter();
    const materializer = new Materializer({ userData: '/worker', conversationId: 'c1', writer });
    const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output });
    if (result.inline) throw new Error('not materialized');
    postMessage({ summary: result.content, grep: await materializer.grep(result.ref.id, 'ERROR') });
  } catch (e) {
    postMessage({ failed: String(e) });
  }
}

void main();
