// The www/ playground, built as `make www` builds it, in Chromium at 1280×800: the sample
// through each mode (the workspace's too, with the page's clock fixed) gives exactly the figures and texts the npm package gives in Node;
// a grep reads back what the model would receive; the export bundle downloads and imports
// back; the artifacts survive a reload (OPFS); the page fits a narrow window. Saves
// target/playground.png (the README's screenshot is a copy of it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';
import * as npm from 'tool-offload';

import { materializer, run, type Mode, type RunResult } from '../../www/src/run.ts';
import { SAMPLE } from '../../www/src/sample.ts';
import { launch, serve, watchErrors } from './chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const out = join(repo, 'target', 'browser', 'www');
/** The page's clock, fixed, so a workspace's `created_at` is the same in the page and in Node. */
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const SETTINGS = {
  threshold: 100,
  maxInlineChars: 4000,
  maxInlineBytes: 16384,
  inlineLimit: 40000,
  tokenThreshold: 2000,
  now: NOW,
};
const number = new Intl.NumberFormat('en-US');
let browser: Browser;
let server: Awaited<ReturnType<typeof serve>>;
let page: Page;
let errors: string[];

before(async () => {
  execFileSync(process.execPath, [join(repo, 'www', 'build.mjs'), out], { stdio: 'pipe' });
  server = await serve(out);
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await context.newPage();
  await page.clock.setFixedTime(NOW);
  errors = watchErrors(page);
  await page.goto(server.url);
  await ready();
  await page.click('#clear');
  await page.waitForSelector('#files .empty', { state: 'attached' });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function ready(): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
}

/** Run the loaded conversation in `mode` through the page's button; wait for it to be drawn. */
async function runInPage(mode: Mode): Promise<void> {
  const runs = Number((await page.getAttribute('body', 'data-runs')) ?? 0);
  await page.check(`input[name="mode"][value="${mode}"]`);
  await page.click('#run');
  await page.waitForSelector(`body[data-runs="${runs + 1}"]`, { state: 'attached' });
  assert.equal(await page.textContent('#error'), '');
}

const text = async (testId: string) => (await page.textContent(`[data-testid="${testId}"]`))?.trim();

async function assertShows(expected: RunResult): Promise<void> {
  assert.equal(await text('before-chars'), number.format(expected.before.chars));
  assert.equal(await text('before-tokens'), number.format(expected.before.tokens));
  assert.equal(await text('after-chars'), number.format(expected.after.chars));
  assert.equal(await text('after-tokens'), number.format(expected.after.tokens));
  const shown = await page.$$eval('[data-testid="replacement"]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(
    shown,
    expected.changes.map((c) => c.replacement),
  );
  assert.ok(expected.changes.length > 0);
}

test('the sample in each mode shows what the npm package gives in Node', async () => {
  await page.click('#load-sample');
  assert.equal(await text('format'), '4 messages · Anthropic Messages');
  for (const mode of ['direct', 'batch', 'workspace', 'materialize'] as const) {
    const expected = await run(npm, new npm.MemoryWriter(), SAMPLE, mode, SETTINGS);
    await runInPage(mode);
    await assertShows(expected);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(repo, 'target', 'playground.png') });
});

test('context_grep in the page reads back what the model receives in Node', async () => {
  const writer = new npm.MemoryWriter();
  const done = await run(npm, writer, SAMPLE, 'materialize', SETTINGS);
  const registry = new npm.ToolRegistry();
  materializer(npm, writer, SETTINGS).registerTools(registry);
  const expected = await registry.executeTool('toolu_playground', 'context_grep', {
    ref: done.refs[0],
    pattern: 'error',
  });
  await page.selectOption('#ref', done.refs[0]!);
  await page.fill('#pattern', 'error');
  await page.click('#grep');
  await page.waitForFunction(() => document.getElementById('tool-output')!.textContent !== '');
  assert.equal(await page.textContent('#tool-output'), expected.content);
  assert.match(expected.content, /error\[E0308\]: mismatched types/);
});

test('the export bundle downloads, imports back after clearing storage, and survives a reload', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const saved = join(out, 'downloaded-bundle.json');
  await download.saveAs(saved);
  const bundle = JSON.parse(readFileSync(saved, 'utf8'));
  const writer = new npm.MemoryWriter();
  const done = await run(npm, writer, SAMPLE, 'materialize', SETTINGS);
  assert.deepEqual(bundle, await materializer(npm, writer, SETTINGS).exportConversation(done.messages));

  await page.click('#clear');
  await page.waitForSelector('#files .empty', { state: 'attached' });
  await page.setInputFiles('#import', saved);
  await page.waitForFunction(() => /^Imported/.test(document.getElementById('tool-output')!.textContent ?? ''));
  const files = async () => page.$$eval('#files li', (els) => els.map((e) => e.textContent));
  const imported = await files();
  assert.deepEqual(imported, ['materialize/context/playground/artifacts/tool/toolu_01BuildLog.txt']);

  await page.reload();
  await ready();
  assert.deepEqual(await files(), imported);
  await page.click('#tail');
  await page.waitForFunction(() => document.getElementById('tool-output')!.textContent !== '');
  assert.match((await page.textContent('#tool-output')) ?? '', /could not compile `agent`/);
  assert.deepEqual(errors, []);
});

test('the page fits a narrow window', async () => {
  await page.setViewportSize({ width: 380, height: 800 });
  const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  assert.ok(scrollWidth <= width, `${scrollWidth} > ${width}`);
});
