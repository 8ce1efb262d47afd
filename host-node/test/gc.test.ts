// Retention from JavaScript: Materializer.gc over NodeFileWriter's stat/remove (TTL,
// quota, keep-list, dry run, foreign files untouched), a collected ref read back as
// removed by retention, and the typed errors for bad options or a writer without them.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Materializer, NodeFileWriter, OffloadError } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const DAY = 86_400_000;

/** Artifacts a (10 days old), b (5) and c (new) of conv-1, and a foreign file. */
async function store() {
  const userData = freshDir('gc');
  const m = new Materializer({ userData, conversationId: 'conv-1' });
  const summaries: Record<string, string> = {};
  for (const id of ['a', 'b', 'c']) {
    const r = await m.materialize({ toolCallId: id, toolName: 'bash', output: `${id} line\n`.repeat(1500) });
    summaries[id] = String(r.content);
  }
  const tool = join(userData, 'context', 'conv-1', 'artifacts', 'tool');
  const age = (path: string, days: number) => {
    const t = (Date.now() - days * DAY) / 1000;
    utimesSync(path, t, t);
  };
  age(join(tool, 'a.txt'), 10);
  age(join(tool, 'b.txt'), 5);
  writeFileSync(join(userData, 'notes.txt'), 'mine');
  age(join(userData, 'notes.txt'), 30);
  return { m, userData, tool, summaries };
}

test('gc removes by age and quota, keeps what messages refer to and foreign files', async () => {
  const { m, userData, tool, summaries } = await store();
  const dry = await m.gc({ olderThanMs: 7 * DAY, dryRun: true });
  assert.deepEqual(dry.removed, [join(tool, 'a.txt')]);
  assert.ok(existsSync(join(tool, 'a.txt')));

  const keep = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: summaries.a }] }];
  const kept = await m.gc({ olderThanMs: DAY, keep });
  assert.deepEqual(kept.removed, [join(tool, 'b.txt')]);
  assert.equal(kept.kept, 2);

  const quota = await m.gc({ maxBytes: 12_000 });
  assert.deepEqual(quota.removed, [join(tool, 'a.txt')]);
  assert.deepEqual([quota.kept, quota.keptBytes, quota.bytes], [1, 10_500, 10_500]);
  assert.ok(existsSync(join(userData, 'notes.txt')));

  const err = await rejected(m.tail('ctx://conv-1/tool/a.txt', 5));
  assert.equal(err.code, 'REF_NOT_FOUND');
  assert.equal(
    err.message,
    'the artifact for ref "ctx://conv-1/tool/a.txt" was removed by retention (gc): it can no longer be read',
  );
});

test('gc options and writers are checked', async () => {
  const { m } = await store();
  for (const [options, message] of [
    [{}, 'say what to remove: options.olderThanMs and/or options.maxBytes'],
    [{ olderThanMs: -1 }, 'options.olderThanMs must be a non-negative integer, got -1'],
    [{ maxBytes: 1.5 }, 'options.maxBytes must be a non-negative integer, got 1.5'],
    [{ maxBytes: 1, dryRun: 'yes' }, 'options.dryRun must be a boolean, got yes'],
    [{ maxBytes: 1, keep: 'transcript' }, 'options.keep must be an array of messages'],
  ] as const) {
    const err = await rejected(m.gc(options as never));
    assert.ok(err instanceof OffloadError);
    assert.equal(err.code, 'INVALID_ARGUMENT');
    assert.equal(err.message, `invalid argument: ${message}`);
  }
  // A writer without stat/remove: READ_FAILED naming what is missing.
  const node = new NodeFileWriter();
  const writer = {
    mkdir: node.mkdir.bind(node),
    writeFile: node.writeFile.bind(node),
    readFile: node.readFile.bind(node),
    listDir: node.listDir.bind(node),
  };
  const bare = new Materializer({ userData: freshDir('gc-bare'), conversationId: 'c', writer });
  await bare.materialize({ toolCallId: 'x', toolName: 't', output: 'x'.repeat(5000) });
  const err = await rejected(bare.gc({ maxBytes: 0 }));
  assert.equal(err.code, 'READ_FAILED');
  assert.match(err.message, /the writer has no stat\(path\) method: retention needs stat and remove/);
});

test('gcDirectory collects a batch output directory with the default NodeFileWriter', async () => {
  const { gcDirectory, offloadToolResults } = await import('tool-offload');
  const dir = freshDir('gc-batch');
  const messages = ['a', 'b'].map((id) => ({ role: 'tool', tool_call_id: id, content: id.repeat(500) }));
  const { messages: slim } = await offloadToolResults(messages, { outputDir: dir });
  writeFileSync(join(dir, 'notes.md'), 'mine');
  for (const name of ['tool-result-a.md', 'tool-result-b.md', 'notes.md']) {
    const t = (Date.now() - 3 * DAY) / 1000;
    utimesSync(join(dir, name), t, t);
  }
  const report = await gcDirectory(dir, { olderThanMs: DAY, keep: [slim[0]!] });
  assert.deepEqual(report.removed, [join(dir, 'tool-result-b.md')]);
  assert.ok(existsSync(join(dir, 'tool-result-a.md')) && existsSync(join(dir, 'notes.md')));
  const err = await rejected(gcDirectory(42 as never, { maxBytes: 0 }));
  assert.equal(err.code, 'INVALID_ARGUMENT');
});

test('gc never follows a symbolic link out of its directory, nor round a loop', async () => {
  const { m, userData, tool } = await store();
  const outside = freshDir('gc-outside');
  mkdirSync(join(outside, 'tool'));
  for (const name of ['keep.txt', join('tool', 'x.txt')]) writeFileSync(join(outside, name), 'not yours');
  symlinkSync(outside, join(tool, 'linked_dir'));
  symlinkSync(join(outside, 'keep.txt'), join(tool, 'd.txt'));
  symlinkSync(userData, join(userData, 'context', 'loop'));
  const report = await m.gc({ maxBytes: 0 });
  assert.deepEqual(
    report.removed.sort(),
    ['a.txt', 'b.txt', 'c.txt'].map((f) => join(tool, f)),
  );
  assert.deepEqual(readdirSync(outside).sort(), ['keep.txt', 'tool']);
  assert.deepEqual(readdirSync(join(outside, 'tool')), ['x.txt']);
  assert.equal(readFileSync(join(outside, 'keep.txt'), 'utf8'), 'not yours');
  for (const link of [join(tool, 'linked_dir'), join(tool, 'd.txt'), join(userData, 'context', 'loop')])
    assert.ok(lstatSync(link).isSymbolicLink(), link);
  assert.equal(existsSync(join(tool, 'd.txt.removed')), false);
});
