// Real agent transcripts (../shared/corpus, or $TOOL_OFFLOAD_CORPUS) through the npm
// package's batch offload, with NodeFileWriter on a fresh temporary directory per file
// and threshold. Every result is checked against the format rules independently of the
// package, and the canonical outcomes are recorded for cross-host.mjs to compare with
// the tokio host (tests/conformance/tests/corpus.rs). Skipped when the corpus is absent.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { offloadToolResults } from 'tool-offload';
import {
  at,
  corpusDir,
  corpusFiles,
  fingerprint,
  forgetCorpus,
  recordCorpus,
  runKey,
  slotsOf,
  textOf,
  THRESHOLDS,
} from '../../tests/harness/corpus.ts';

const PLACEHOLDER = /^\[Content offloaded to: \.\/([^/]+)\]$/;

test('npm package offloads every corpus transcript, file for file and byte for byte', async (t) => {
  const dir = corpusDir();
  // A stale record must not outlive a skipped or failed run.
  forgetCorpus('npm');
  if (!existsSync(dir)) {
    t.skip(`corpus not found at ${dir}: skipping (set TOOL_OFFLOAD_CORPUS to run it)`);
    return;
  }
  const files = corpusFiles(dir);
  assert.ok(files.length > 0, `no .json files in the corpus at ${dir}`);
  const outcomes = new Map<string, string>();
  const problems: string[] = [];
  for (const threshold of THRESHOLDS) {
    const limit = threshold ?? 100;
    const totals = { messages: 0, results: 0, offloaded: 0, freed: 0, ms: 0 };
    for (const file of files) {
      const key = runKey(file, threshold);
      const problem = (what: string) => problems.push(`${key}: ${what}`);
      const input = JSON.parse(readFileSync(join(dir, file), 'utf8')) as any[];
      assert.ok(Array.isArray(input), `${file} is not a JSON array`);
      const before = JSON.stringify(input);
      const out = mkdtempSync(join(tmpdir(), 'tool-offload-corpus-'));
      try {
        const started = performance.now();
        const r = await offloadToolResults(input, {
          outputDir: out,
          ...(threshold !== undefined ? { threshold } : {}),
        });
        totals.ms += performance.now() - started;
        totals.messages += input.length;

        if (JSON.stringify(input) !== before) problem('the input was modified');
        if (r.messages.length !== input.length) {
          problem(`${r.messages.length} messages returned for ${input.length}`);
          continue;
        }
        const names: string[] = [];
        let freed = 0;
        input.forEach((message, i) => {
          const slots = slotsOf(message);
          const restored = structuredClone(r.messages[i]) as any;
          let changed = false;
          for (const slot of slots) {
            const original = textOf(at(message, slot));
            totals.results++;
            const got = at(r.messages[i], slot);
            const name = typeof got === 'string' ? PLACEHOLDER.exec(got)?.[1] : undefined;
            const expectOffload = original.length > 0 && original.length >= limit;
            if (expectOffload !== (name !== undefined)) {
              problem(
                `messages[${i}] result ${String(slot.id)} of ${original.length} units: ${name ? 'offloaded' : 'kept'}`,
              );
            }
            if (name === undefined) continue;
            changed = true;
            names.push(name);
            freed += original.length;
            const path = join(out, name);
            if (!existsSync(path)) problem(`messages[${i}]: placeholder names ${name}, which does not exist`);
            else if (!readFileSync(path).equals(Buffer.from(original, 'utf8')))
              problem(`${name} differs from the original content`);
            (slot.block === null ? restored : restored.content[slot.block])[slot.field] = at(message, slot);
          }
          if (!changed && r.messages[i] !== message) problem(`messages[${i}] is unchanged but not the same object`);
          if (changed && JSON.stringify(restored) !== JSON.stringify(message)) {
            problem(`messages[${i}] differs from the input beyond its offloaded contents`);
          }
        });
        if (r.offloadedCount !== names.length || r.files.length !== names.length) {
          problem(`offloadedCount ${r.offloadedCount}, files ${r.files.length}, placeholders ${names.length}`);
        }
        if (r.freedChars !== freed) problem(`freedChars ${r.freedChars}, original contents ${freed}`);
        assert.deepEqual(
          r.files,
          names.map((n) => join(out, n)),
          `${key}: files are the placeholders' files, in walk order`,
        );
        assert.deepEqual(
          readdirSync(out).sort(),
          [...names].sort(),
          `${key}: exactly the named files are on disk, none overwritten`,
        );
        totals.offloaded += r.offloadedCount;
        totals.freed += r.freedChars;
        outcomes.set(
          key,
          JSON.stringify({
            messages: r.messages,
            offloadedCount: r.offloadedCount,
            freedChars: r.freedChars,
            files: r.files.map((f) => f.slice(out.length + 1)),
          }),
        );
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }
    t.diagnostic(
      `threshold ${limit}: ${files.length} files, ${totals.messages} messages, ${totals.results} tool results, ` +
        `${totals.offloaded} offloaded, ${totals.freed} chars freed, ${Math.round(totals.ms)} ms in offloadToolResults`,
    );
  }
  recordCorpus('npm', fingerprint(dir, files), outcomes);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});
