// The benchmark workload: ../shared/corpus (relative to the repository root) when present,
// else the deterministic stand-in from gen-corpus.mjs, written to target/bench/corpus so the
// Rust bench reads the very same conversations.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { writeCorpus } from './gen-corpus.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `{ dir, source }`: the directory holding anthropic/ and openai/, and what it is. */
export function corpusDir(given) {
  if (given) return { dir: resolve(given), source: `corpus at ${resolve(given)}` };
  const shared = resolve(repoRoot, '../shared/corpus');
  if (existsSync(join(shared, 'anthropic'))) return { dir: shared, source: 'real transcripts (../shared/corpus)' };
  const generated = join(repoRoot, 'target/bench/corpus');
  if (!existsSync(join(generated, 'anthropic'))) writeCorpus(generated);
  return { dir: generated, source: 'generated stand-in (bench/gen-corpus.mjs; ../shared/corpus absent)' };
}

/**
 * Every conversation, `{ name, stem, messages }`, named and ordered as the Rust bench does
 * (`stem`: the file name without `.json`, the conversation id `tool-offload replay` gives it).
 */
export function loadCorpus(dir) {
  const conversations = [];
  for (const format of ['anthropic', 'openai']) {
    const files = readdirSync(join(dir, format))
      .filter((f) => f.endsWith('.json'))
      .sort();
    for (const file of files) {
      const messages = JSON.parse(readFileSync(join(dir, format, file), 'utf8'));
      const stem = file.slice(0, -'.json'.length);
      conversations.push({ name: `${format}-${stem}`, stem, messages });
    }
  }
  return conversations;
}

/**
 * `{ corpus, quick, json }` from the arguments a replay bench takes (`--corpus DIR`,
 * `--quick`, `--json PATH`), `json` defaulting to `target/bench/<name>.json`; exits 2
 * with the usage of `script` on anything else.
 */
export function replayArgs(argv, script, name) {
  const a = { corpus: undefined, quick: false, json: join(repoRoot, `target/bench/${name}.json`) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--corpus') a.corpus = argv[++i];
    else if (arg === '--quick') a.quick = true;
    else if (arg === '--json') a.json = argv[++i];
    else {
      console.error(`usage: node ${script} [--corpus DIR] [--quick] [--json PATH]`);
      process.exit(2);
    }
  }
  return a;
}
