// OpfsWriter in Chromium: the IO contract (tests/harness/writer-contract.ts, as
// MemoryWriter meets it in Node), exclusive creates across two tabs (Web Locks),
// artifacts that survive a reload, and the browser entry's exports and missing-writer error.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import { EXPECTED } from '../harness/writer-contract.ts';
import { buildPage, launch, serve, watchErrors } from './chromium.ts';
import type { Tests } from './pages/opfs.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const out = join(repo, 'target', 'browser', 'opfs');
let browser: Browser;
let context: BrowserContext;
let server: Awaited<ReturnType<typeof serve>>;

before(async () => {
  await buildPage(
    [join(here, 'pages', 'opfs.ts'), join(here, 'pages', 'worker.ts')],
    join(here, 'pages', 'opfs.html'),
    out,
  );
  server = await serve(out);
  browser = await launch();
  context = await browser.newContext();
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

async function open(): Promise<Page & { errors: string[] }> {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);
  return Object.assign(page, { errors });
}

/** Call `tests[name](arg)` in `page`. */
function call<K extends keyof Tests>(page: Page, name: K, arg?: string): Promise<Awaited<ReturnType<Tests[K]>>> {
  return page.evaluate(
    ([n, a]) => (globalThis as unknown as { tests: Record<string, (a?: string) => unknown> }).tests[n]!(a),
    [name, arg] as const,
  ) as Promise<Awaited<ReturnType<Tests[K]>>>;
}

test('the browser entry exports the writers and no NodeFileWriter', async () => {
  const page = await open();
  const names = await call(page, 'exports');
  assert.ok(names.includes('OpfsWriter') && names.includes('MemoryWriter'), names.join());
  assert.ok(!names.includes('NodeFileWriter') && !names.includes('offloadToolResultToFile'), names.join());
  assert.deepEqual(await call(page, 'noWriter'), {
    isOffloadError: true,
    code: 'INVALID_ARGUMENT',
    message: 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('OpfsWriter and MemoryWriter meet the IO contract in Chromium', async () => {
  const page = await open();
  assert.deepEqual(await call(page, 'contractOpfs'), EXPECTED);
  assert.deepEqual(await call(page, 'contractMemory'), EXPECTED);
  await page.close();
});

test('createFile is exclusive across two tabs: one of sixteen creators wins, no temporary file stays', async () => {
  const [a, b] = [await open(), await open()];
  await call(a, 'clear');
  const [wonA, wonB] = await Promise.all([call(a, 'race', 'a'), call(b, 'race', 'b')]);
  assert.equal(wonA + wonB, 1);
  const { content, names } = await call(a, 'raceResult');
  assert.match(content ?? '', /^[ab] [0-7]$/);
  assert.deepEqual(names, ['one.txt']);
  await Promise.all([a.close(), b.close()]);
});

test("mkdir's sweep keeps a temporary file that is not stale (core's 10-minute policy)", async () => {
  const page = await open();
  assert.deepEqual(await call(page, 'freshTempKept'), ['.tool-offload-0-000000000000.tmp']);
  await page.close();
});

test('the browser build runs in a module worker on OPFS, as in the page', async () => {
  const page = await open();
  const inWorker = await call(page, 'worker');
  assert.equal(inWorker.failed, undefined, inWorker.failed);
  const inPage = await call(page, 'materialize');
  assert.equal(inWorker.summary, inPage.summary);
  assert.match(inWorker.grep ?? '', /line 2500 ERROR/);
  await page.close();
});

test('artifacts in OPFS survive a reload and read back the same', async () => {
  const page = await open();
  await call(page, 'clear');
  const { ref, summary } = await call(page, 'materialize');
  assert.match(summary as string, /^\[Output of bash \(call call_1\) stored as ctx:\/\/c1\/tool\/call_1\.txt/);
  await page.reload();
  await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);
  const back = await call(page, 'readBack', ref);
  assert.match(back.tail, /line 2999/);
  assert.match(back.grep, /line 2500 ERROR/);
  assert.match(back.page, /line 2990/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
