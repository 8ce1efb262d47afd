// The fifth conformance host: every vector in real Chromium, through the package's browser
// build bundled by esbuild for the browser, on OPFS. Recorded as
// target/conformance/browser.json for tests/cross-host.mjs.
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';

import { checkOutcomes, loadVectors } from '../harness/node-io.ts';
import { buildPage, launch, serve, watchErrors } from './chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const out = join(repo, 'target', 'browser', 'vectors');
let browser: Browser;
let server: Awaited<ReturnType<typeof serve>>;

before(async () => {
  await buildPage([join(here, 'pages', 'vectors.ts')], join(here, 'pages', 'vectors.html'), out);
  server = await serve(out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the browser build on OPFS in Chromium passes every vector', async () => {
  const vectors = loadVectors();
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);
  type Outcomes = Record<string, { outcome: string; actual: unknown[] }>;
  // The vectors go over as JSON text: Playwright's types cannot follow their depth.
  const outcomes: Outcomes = await page.evaluate(
    (json: string) =>
      (globalThis as unknown as { runVectors(v: unknown): Promise<Outcomes> }).runVectors(JSON.parse(json)),
    JSON.stringify(vectors),
  );
  checkOutcomes('browser', vectors, new Map(Object.entries(outcomes)));
  if (errors.length > 0) throw new Error(errors.join('\n'));
});
