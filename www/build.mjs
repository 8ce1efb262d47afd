// Builds the playground (`make www`) into out/www: the page, its stylesheet, one esbuild
// bundle of src/main.ts over the package's browser build, and the .wasm beside it (the
// bundle finds it with `new URL('tool_offload_wasm_bg.wasm', import.meta.url)`).
// A static site: serve out/www from anywhere (over HTTPS, or http://localhost, for OPFS).
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const www = dirname(fileURLToPath(import.meta.url));
const repo = dirname(www);
const out = process.argv[2] ?? join(repo, 'out', 'www');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(www, 'src', 'main.ts')],
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  outfile: join(out, 'main.js'),
  logLevel: 'warning',
  // wasm-bindgen 0.2.130's glue names a snippet module twice in one object: harmless.
  logOverride: { 'duplicate-object-key': 'silent' },
});
for (const file of ['index.html', 'style.css']) copyFileSync(join(www, file), join(out, file));
copyFileSync(
  join(repo, 'host-node', 'web', 'wasm', 'glue', 'tool_offload_wasm_bg.wasm'),
  join(out, 'tool_offload_wasm_bg.wasm'),
);
console.log(`built the playground in ${out}`);
