// The app every bundler builds: the package imported as users import it, run on a
// MemoryWriter and on an OpfsWriter; the results are left on `globalThis.results`.
import { MemoryWriter, OpfsWriter } from 'tool-offload';
import * as lib from 'tool-offload';

import { scenario } from './scenario.js';

async function main() {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry('bundler-app', { recursive: true }).catch(() => undefined);
  const root = await opfs.getDirectoryHandle('bundler-app', { create: true });
  const results = {
    memory: await scenario(lib, new MemoryWriter()),
    opfs: await scenario(lib, new OpfsWriter({ root })),
  };
  document.body.textContent = 'done';
  globalThis.results = results;
}

main().catch((e) => {
  globalThis.results = { failed: String(e && e.stack ? e.stack : e) };
});
