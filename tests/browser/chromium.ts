// What the browser tests share: Debian's Chromium driven by playwright-core (never a
// downloaded browser), and a static file server on 127.0.0.1 (a secure context, so OPFS
// and Web Locks are there). Chromium comes from `make test` (scripts/setup.sh).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A test page in `out` (emptied first): `entries` (the page's module, workers) bundled for
 * the browser by esbuild as an app would bundle them, `html` as index.html, and the package's .wasm beside the bundle
 * (esbuild leaves the glue's `new URL('tool_offload_wasm_bg.wasm', import.meta.url)` as it
 * is; docs/browser.md). Each bundle is named after its entry, with `.js`.
 */
export async function buildPage(entries: string[], html: string, out: string): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: entries,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outdir: out,
    logLevel: 'warning',
    // wasm-bindgen 0.2.130's glue names a snippet module twice in its imports object: harmless.
    logOverride: { 'duplicate-object-key': 'silent' },
  });
  copyFileSync(html, join(out, 'index.html'));
  copyFileSync(
    join(repo, 'host-node', 'web', 'wasm', 'glue', 'tool_offload_wasm_bg.wasm'),
    join(out, 'tool_offload_wasm_bg.wasm'),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Headless Chromium as the guide has it run here (root, no GPU, no network to reach). */
export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run \`make test\` (it installs chromium) or set CHROMIUM`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A static server of `root` on 127.0.0.1 (a free port); its base URL and a way to stop it. */
export async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end(`not found: ${path}`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Fail the test on anything the page logs as an error or throws. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}
