// The package as a browser app gets it: one small app (app/main.js) built by esbuild
// (--platform=browser), Vite and webpack 5, and loaded unbundled from a plain
// <script type="module"> with an import map, each run in Chromium on a MemoryWriter and
// on OPFS, each giving exactly what the same code gives in Node.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { build as esbuild } from 'esbuild';
import type { Browser } from 'playwright-core';
import { build as vite } from 'vite';
import webpack from 'webpack';
import * as npm from 'tool-offload';

import { scenario } from './app/scenario.js';
import { launch, serve, watchErrors } from './chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, 'app');
const repo = join(here, '..', '..');
const out = join(repo, 'target', 'browser', 'bundlers');
const wasm = join(repo, 'host-node', 'web', 'wasm', 'glue', 'tool_offload_wasm_bg.wasm');
let browser: Browser;
let inNode: unknown;

before(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  browser = await launch();
  inNode = await scenario(npm, new npm.MemoryWriter());
});

after(async () => {
  await browser?.close();
});

/** Serve `root`, open `path` in a fresh page, and return what the app left on `globalThis.results`. */
async function runApp(root: string, path: string): Promise<{ memory: unknown; opfs: unknown }> {
  const server = await serve(root);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}${path}`);
    await page.waitForFunction(() => 'results' in globalThis, undefined, { timeout: 60_000 });
    const results = await page.evaluate(() => (globalThis as unknown as { results: Record<string, unknown> }).results);
    assert.deepEqual(errors, []);
    assert.equal(results.failed, undefined, String(results.failed));
    return results as { memory: unknown; opfs: unknown };
  } finally {
    await context.close();
    await server.close();
  }
}

function assertSameAsNode(results: { memory: unknown; opfs: unknown }): void {
  assert.deepEqual(results.memory, inNode);
  assert.deepEqual(results.opfs, inNode);
}

test('esbuild --platform=browser: bundles with no node:* import; runs in Chromium', async () => {
  const dir = join(out, 'esbuild');
  const built = await esbuild({
    entryPoints: [join(app, 'main.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outdir: dir,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(built.metafile.inputs);
  assert.ok(
    inputs.some((f) => f.includes('web/wasm/glue/tool_offload_wasm.js')),
    'the web glue is bundled',
  );
  assert.deepEqual(
    inputs.filter((f) => f.startsWith('node:') || f.includes('node-file-writer')),
    [],
  );
  copyFileSync(join(app, 'index.html'), join(dir, 'index.html'));
  // esbuild has no wasm assets: the .wasm goes beside the bundle (docs/browser.md).
  copyFileSync(wasm, join(dir, 'tool_offload_wasm_bg.wasm'));
  assertSameAsNode(await runApp(dir, '/'));
});

test('Vite: builds with the .wasm as an asset; runs in Chromium', async () => {
  const dir = join(out, 'vite');
  await vite({ root: app, configFile: false, logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  assertSameAsNode(await runApp(dir, '/'));
});

test('webpack 5: builds with the .wasm as an asset; runs in Chromium', async () => {
  const dir = join(out, 'webpack');
  const stats = await new Promise<webpack.Stats>((done, fail) =>
    webpack(
      { mode: 'production', entry: join(app, 'main.js'), output: { path: dir, filename: 'main.js' }, target: 'web' },
      (err, result) => (err || !result ? fail(err) : done(result)),
    ),
  );
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  copyFileSync(join(app, 'webpack.html'), join(dir, 'index.html'));
  assertSameAsNode(await runApp(dir, '/'));
});

test('a plain <script type="module"> with an import map, no bundler: runs in Chromium', async () => {
  assertSameAsNode(await runApp(repo, '/tests/browser/app/plain.html'));
});

test('a .wasm that is not beside the bundle is a WasmLoadError saying where it looked', async () => {
  const dir = join(out, 'esbuild-no-wasm');
  await esbuild({
    entryPoints: [join(app, 'main.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outdir: dir,
    logLevel: 'error',
  });
  copyFileSync(join(app, 'index.html'), join(dir, 'index.html'));
  const server = await serve(dir);
  const page = await browser.newPage();
  try {
    const failure = page.waitForEvent('pageerror');
    await page.goto(server.url);
    const error = await failure;
    assert.equal(error.name, 'WasmLoadError');
    assert.match(
      error.message,
      /^tool-offload could not load its WebAssembly \(tool_offload_wasm_bg\.wasm, expected beside http:\/\/127\.0\.0\.1:\d+\/main\.js\)/,
    );
  } finally {
    await page.close();
    await server.close();
  }
});
