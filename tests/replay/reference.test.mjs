// `tool-offload replay` against its reference: the same conversations replayed by
// bench/replay-reference.mjs (a straightforward JavaScript reimplementation over the npm
// package) must give the same figures, conversation by conversation: characters sent,
// cached prefix, prefix-stable turns, results shrunk, preview sufficiency, needles found.
// On the generated stand-in corpus always; on ../shared/corpus (its --quick subset) when
// present.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

import { repoRoot } from '../../bench/corpus.mjs';
import { writeCorpus } from '../../bench/gen-corpus.mjs';

const cli = join(repoRoot, 'target/debug/tool-offload');
const POLICIES = { none: 'none', materialize: 'materialize', 'headtail-10k': 'headtail' };

/** The figures both replays report, from the reference's JSON. */
function fromReference(p) {
  return {
    turns: p.turns,
    chars: p.chars,
    cacheReadChars: p.cache.read,
    prefixStableTurns: p.stableTurns,
    laterTurns: p.laterTurns,
    results: p.results,
    shrunk: p.shrunk,
    sufficiency: [...p.sufficiency.all, ...p.sufficiency.new],
    needles: p.needles ? [p.needles.recovered, p.needles.total] : null,
    artifacts: p.artifacts,
  };
}
/** The same figures from `tool-offload replay --json`. */
function fromCli(p, turns) {
  const s = p.previewSufficiency;
  return {
    turns,
    chars: p.chars,
    cacheReadChars: p.cacheReadChars,
    prefixStableTurns: p.prefixStableTurns,
    laterTurns: p.laterTurns,
    results: p.results,
    shrunk: p.shrunk,
    sufficiency: [s.visible, s.used, s.newVisible, s.newUsed],
    needles: p.needles ? [p.needles.found, p.needles.total] : null,
    artifacts: p.artifacts,
  };
}

function compare(corpus, files, quick) {
  const tmp = mkdtempSync(join(tmpdir(), 'tool-offload-replay-test-'));
  try {
    const referenceJson = join(tmp, 'reference.json');
    const args = ['bench/replay-reference.mjs', '--corpus', corpus, '--json', referenceJson];
    execFileSync(process.execPath, quick ? [...args, '--quick'] : args, { cwd: repoRoot, stdio: 'pipe' });
    const reference = JSON.parse(readFileSync(referenceJson, 'utf8'));
    const out = execFileSync(cli, ['replay', ...files, '--policy', 'materialize', '--policy', 'headtail', '--json'], {
      cwd: repoRoot,
      maxBuffer: 64 << 20,
    });
    const replay = JSON.parse(out.toString('utf8'));
    assert.equal(replay.conversations.length, reference.conversations.length);
    reference.conversations.forEach((r, i) => {
      const c = replay.conversations[i];
      assert.equal(resolve(c.input).endsWith(`${r.name.replace(/^(anthropic|openai)-/, '')}.json`), true, c.input);
      assert.equal(c.turns, r.turns, r.name);
      for (const [name, cliName] of Object.entries(POLICIES)) {
        const expected = fromReference(r.policies[name]);
        expected.artifacts = name === 'materialize' ? expected.artifacts : 0;
        assert.deepEqual(fromCli(c.policies[cliName], c.turns), expected, `${r.name}, ${name}`);
      }
    });
    const none = replay.totals.policies.none;
    assert.equal(none.chars, reference.totals.none.chars);
    assert.equal(replay.totals.policies.materialize.chars, reference.totals.materialize.chars);
    return reference.totals;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const jsonFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));

test('replay equals the reference on the generated corpus', () => {
  const corpus = mkdtempSync(join(tmpdir(), 'tool-offload-replay-corpus-'));
  try {
    writeCorpus(corpus);
    const totals = compare(corpus, [join(corpus, 'anthropic'), join(corpus, 'openai')], false);
    // The comparison is only worth something if the policies did something.
    assert.ok(totals.materialize.shrunk > 0 && totals.materialize.needles.total > 0);
    assert.ok(totals['headtail-10k'].shrunk > 0);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
});

const shared = resolve(repoRoot, '../shared/corpus');
test(
  'replay equals the reference on the real corpus (quick subset)',
  { skip: !existsSync(join(shared, 'anthropic')) },
  () => {
    const files = [
      ...jsonFiles(join(shared, 'anthropic')).slice(0, 5),
      ...jsonFiles(join(shared, 'openai')).slice(0, 1),
    ];
    const totals = compare(shared, files, true);
    assert.ok(totals.materialize.sufficiency.all[1] > 0);
  },
);
