// `tool-offload replay --svg` draws a chart a browser renders: the file opened in
// Chromium as an image has the size it declares and paints every policy's colour.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';

import { launch, watchErrors } from './chromium.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(repo, 'target', 'debug', 'tool-offload');
let browser: Browser;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tool-offload-replay-svg-'));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A conversation of `n` calls, each answered by a log of about `size` characters. */
function conversation(n: number, size: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'run the checks' }];
  for (let i = 0; i < n; i++) {
    const id = `toolu_${i}`;
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command: `check ${i}` } }],
    });
    const lines = Array.from({ length: Math.ceil(size / 40) }, (_, k) => `check ${i} line ${k}: all good so far`);
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: lines.join('\n') }] });
  }
  messages.push({ role: 'assistant', content: 'All checks pass.' });
  return messages;
}

test('the replay chart renders in Chromium with a line per policy', async () => {
  const input = join(dir, 'session.json');
  writeFileSync(input, JSON.stringify(conversation(12, 9000)));
  const svgPath = join(dir, 'replay.svg');
  execFileSync(cli, ['replay', input, '--policy', 'offload', '--policy', 'materialize', '--svg', svgPath]);
  const svg = readFileSync(svgPath, 'utf8');

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.setContent('<!doctype html><canvas width="1040" height="540"></canvas>');
    const drawn = await page.evaluate(async (source: string) => {
      const image = new Image();
      image.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(source)))}`;
      await image.decode();
      const canvas = document.querySelector('canvas')!;
      const g = canvas.getContext('2d')!;
      g.drawImage(image, 0, 0);
      const { data } = g.getImageData(0, 0, canvas.width, canvas.height);
      // Pixels of each of our series' colours (Paul Tol's bright scheme): offload blue,
      // materialize green; the raw history is black and dotted, like the axes' text.
      const colours: Record<string, [number, number, number]> = {
        offload: [0x44, 0x77, 0xaa],
        materialize: [0x22, 0x88, 0x33],
      };
      const counts: Record<string, number> = {};
      for (const [name, [r, gr, b]] of Object.entries(colours)) {
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - gr) < 8 && Math.abs(data[i + 2] - b) < 8) n++;
        }
        counts[name] = n;
      }
      return { width: image.naturalWidth, height: image.naturalHeight, counts };
    }, svg);
    assert.deepEqual(errors, []);
    assert.equal(drawn.width, 1040);
    assert.ok(svg.includes('none (raw history)'), 'the raw history in the legend');
    assert.equal(drawn.height, 540);
    for (const [name, n] of Object.entries(drawn.counts)) assert.ok(n > 200, `${name}: ${n} pixels`);
  } finally {
    await context.close();
  }
});
