// OpfsWriter (and MemoryWriter) in the page, for tests/browser/opfs.test.ts: each export
// of `tests` is called by the test through page.evaluate.
import * as lib from 'tool-offload';

import { observeWriter } from '../../harness/writer-contract.ts';

/** A fresh OPFS directory called `name`. */
async function freshDir(name: string) {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry(name, { recursive: true }).catch(() => undefined);
  return opfs.getDirectoryHandle(name, { create: true });
}

const output = Array.from({ length: 3000 }, (_, i) => `line ${i}${i % 500 === 0 ? ' ERROR' : ''}`).join('\n');

const tests = {
  exports: () => Object.keys(lib).sort(),
  contractOpfs: async () => observeWriter(new lib.OpfsWriter({ root: await freshDir('contract') }), lib.OffloadError),
  contractMemory: async () => observeWriter(new lib.MemoryWriter(), lib.OffloadError),
  /** Eight concurrent creates of one path from this page (the test runs it in two pages at once). */
  race: async (who: string) => {
    const writer = new lib.OpfsWriter();
    await writer.mkdir('/race');
    const won = await Promise.all(
      Array.from({ length: 8 }, (_, i) => writer.createFile('/race/one.txt', `${who} ${i}`)),
    );
    return won.filter(Boolean).length;
  },
  raceResult: async () => {
    const writer = new lib.OpfsWriter();
    return { content: await writer.readFile('/race/one.txt'), names: await writer.listDir('/race') };
  },
  materialize: async () => {
    const materializer = new lib.Materializer({
      userData: '/agent',
      conversationId: 'c1',
      writer: new lib.OpfsWriter(),
    });
    const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output });
    if (result.inline) throw new Error('not materialized');
    return { ref: result.ref.id, summary: result.content };
  },
  readBack: async (ref: string) => {
    const materializer = new lib.Materializer({
      userData: '/agent',
      conversationId: 'c1',
      writer: new lib.OpfsWriter(),
    });
    return {
      tail: await materializer.tail(ref, 2),
      grep: await materializer.grep(ref, 'ERROR'),
      page: await materializer.read(ref, { offset: 2990 }),
    };
  },
  noWriter: async () => {
    try {
      await lib.offloadToolResults([{ role: 'tool', tool_call_id: 'a', content: 'x'.repeat(200) }], {
        outputDir: '/x',
      });
      return 'resolved';
    } catch (e) {
      return {
        isOffloadError: e instanceof lib.OffloadError,
        code: (e as lib.OffloadError).code,
        message: (e as Error).message,
      };
    }
  },
  /** What pages/worker.ts posts back from a module worker. */
  worker: () =>
    new Promise<{ summary?: string; grep?: string; failed?: string }>((resolve) => {
      const worker = new Worker('./worker.js', { type: 'module' });
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve({ failed: e.message });
    }),
  /** A live writer's temporary file (just written) is not swept by another writer's mkdir. */
  freshTempKept: async () => {
    const dir = await freshDir('sweep');
    const temp = await dir.getFileHandle('.tool-offload-0-000000000000.tmp', { create: true });
    const writable = await temp.createWritable();
    await writable.write('in flight');
    await writable.close();
    await new lib.OpfsWriter({ root: dir }).mkdir('/');
    const names: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
    return names;
  },
  clear: async () => {
    const opfs = await navigator.storage.getDirectory();
    for (const name of ['agent', 'race', 'contract', 'worker', 'sweep'])
      await opfs.removeEntry(name, { recursive: true }).catch(() => undefined);
  },
};

export type Tests = typeof tests;
Object.assign(globalThis, { tests, ready: true });
