// The browser conformance host: the package's browser build (as a bundler resolves
// `tool-offload` for the browser) runs every vector through tests/harness/steps.ts, the
// same runner as the Node hosts, with an OpfsWriter on a fresh OPFS directory per vector.
import * as lib from 'tool-offload';

import { byBytes, runVector, type Api, type Vector } from '../../harness/steps.ts';

type Dir = FileSystemDirectoryHandle & { entries(): AsyncIterable<[string, FileSystemHandle]> };

/** Every file under `dir`, by virtual path (`dir` standing for `/`), in byte order. */
async function filesIn(dir: Dir, prefix = ''): Promise<Record<string, string>> {
  const found: [string, string][] = [];
  const walk = async (at: Dir, path: string): Promise<void> => {
    for await (const [name, handle] of at.entries()) {
      if (handle.kind === 'directory') await walk(handle as Dir, `${path}/${name}`);
      else
        found.push([
          `${path}/${name}`,
          new TextDecoder('utf-8', { ignoreBOM: true }).decode(
            await (await (handle as FileSystemFileHandle).getFile()).arrayBuffer(),
          ),
        ]);
    }
  };
  await walk(dir, prefix);
  return Object.fromEntries(byBytes(found));
}

async function runVectors(vectors: Vector[]): Promise<Record<string, { outcome: string; actual: unknown[] }>> {
  const opfs = await navigator.storage.getDirectory();
  const out: Record<string, { outcome: string; actual: unknown[] }> = {};
  for (const v of vectors) {
    const name = `vector-${v.id}`;
    await opfs.removeEntry(name, { recursive: true }).catch(() => undefined);
    const dir = (await opfs.getDirectoryHandle(name, { create: true })) as Dir;
    const io = new lib.OpfsWriter({ root: dir });
    out[v.id] = await runVector(v, { api: lib as unknown as Api, io, root: '', files: () => filesIn(dir) });
    await opfs.removeEntry(name, { recursive: true });
  }
  return out;
}

Object.assign(globalThis, { runVectors, ready: true });
