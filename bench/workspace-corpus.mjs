// The Workspace at its defaults over the corpus (issue 13): how much of the tool-result
// text the model no longer sees, and how much is stored.
//
//   node bench/workspace-corpus.mjs [--corpus DIR]
//
// Each conversation goes through `offloadMessages` once, with a Workspace of its own on
// disk (inlineLimit 40,000, tokenThreshold 2,000, the token estimate). Tool-result
// characters are UTF-16 units of every tool result's content (a string, or its text
// parts), before and after. Writes target/bench/workspace-corpus.json; numbers, not
// pass/fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Workspace } from 'tool-offload';

import { corpusDir, loadCorpus, repoRoot } from './corpus.mjs';

const given = process.argv.includes('--corpus') ? process.argv[process.argv.indexOf('--corpus') + 1] : undefined;
const { dir, source } = corpusDir(given);
const tmp = mkdtempSync(join(tmpdir(), 'tool-offload-bench-workspace-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** The text of a tool result's content: a string, or its text parts joined. */
const text = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (p?.type === 'text' ? p.text : '')).join('\n')
      : JSON.stringify(content ?? '');

/** Characters of every tool result (Anthropic tool_result blocks, OpenAI role "tool"). */
function toolResultChars(messages) {
  let chars = 0;
  let count = 0;
  for (const m of messages) {
    if (m.role === 'tool') {
      chars += text(m.content).length;
      count++;
    } else if (Array.isArray(m.content)) {
      for (const block of m.content)
        if (block?.type === 'tool_result') {
          chars += text(block.content).length;
          count++;
        }
    }
  }
  return { chars, count };
}

const conversations = loadCorpus(dir);
/** Every conversation through a fresh Workspace with `inlineLimit`. */
async function run(inlineLimit) {
  const totals = { inlineLimit, results: 0, before: 0, after: 0, stored: 0, replaced: 0, ms: 0 };
  for (const [i, { messages }] of conversations.entries()) {
    const ws = new Workspace({ root: join(tmp, `${inlineLimit}-${i}`), namespace: 'corpus', inlineLimit });
    const t0 = performance.now();
    const done = await ws.offloadMessages(messages);
    totals.ms += performance.now() - t0;
    const before = toolResultChars(messages);
    const after = toolResultChars(done.messages);
    totals.results += before.count;
    totals.before += before.chars;
    totals.after += after.chars;
    totals.stored += done.artifactIds.length;
    totals.replaced += done.messages.filter((m, k) => m !== messages[k]).length;
  }
  const removed = totals.before - totals.after;
  return { ...totals, removed, share: (100 * removed) / totals.before };
}

const runs = [];
console.log(`Workspace over ${source} (tokenThreshold 2,000, the token estimate):`);
for (const inlineLimit of [40000, 8000]) {
  const r = await run(inlineLimit);
  runs.push(r);
  const label =
    inlineLimit === 40000 ? 'inlineLimit 40,000 (default)' : `inlineLimit ${inlineLimit.toLocaleString('en-US')}`;
  console.log(
    `  ${label}: ${r.results} tool results, ${r.before.toLocaleString('en-US')} characters; ${r.stored} stored, ${r.replaced} messages changed; the model sees ${r.after.toLocaleString('en-US')}: ${r.share.toFixed(1)}% moved out (offloadMessages ${r.ms.toFixed(0)} ms in all)`,
  );
}
mkdirSync(join(repoRoot, 'target/bench'), { recursive: true });
writeFileSync(join(repoRoot, 'target/bench/workspace-corpus.json'), JSON.stringify({ source, runs }));
