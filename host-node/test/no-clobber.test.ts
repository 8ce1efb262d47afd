// Nothing is ever overwritten: concurrent materializations (one call site, two processes),
// batch offload re-run into one directory, the NodeFileWriter's exclusive createFile and
// its removal of temporary files that dead writers left behind.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { Materializer, NodeFileWriter, offloadToolResults } from 'tool-offload';
import type { FileWriter, MaterializeResult } from 'tool-offload';
import { freshDir, offloadError, RecordingWriter } from './helpers.ts';

const run = promisify(execFile);

/** `n` different outputs, each over the default inline limits. */
const outputs = (n: number, tag: string): string[] =>
  Array.from({ length: n }, (_, i) => `${tag} output ${i}\n`.repeat(3000));

function artifact(result: MaterializeResult) {
  assert.equal(result.inline, false);
  return result as Extract<MaterializeResult, { inline: false }>;
}

const TEMP = /^\.tool-offload-.*\.tmp$/;

test('20 concurrent materializations of one toolCallId keep 20 outputs', async () => {
  const userData = freshDir('noclobber');
  const m = new Materializer({ userData, conversationId: 'conv' });
  const texts = outputs(20, 'a');
  const results = await Promise.all(
    texts.map((output) => m.materialize({ toolCallId: 'same', toolName: 't', output })),
  );
  const refs = new Set(results.map((r) => artifact(r).ref.id));
  assert.equal(refs.size, 20);
  for (const [i, result] of results.entries()) {
    const { ref } = artifact(result);
    assert.match(await m.read(ref.id, { offset: 0, limit: 1 }), new RegExp(`a output ${i}$`, 'm'));
  }
  const files = readdirSync(join(userData, 'context', 'conv', 'artifacts', 'tool'));
  assert.equal(files.length, 20, `no temporary files either: ${files}`);
});

test('concurrent materializeTerminal and materializeMessages never overwrite each other', async () => {
  const userData = freshDir('noclobber');
  const m = new Materializer({ userData, conversationId: 'conv' });
  const texts = outputs(10, 'term');
  const terminal = await Promise.all(texts.map((text) => m.materializeTerminal('snip', text)));
  assert.equal(new Set(terminal.map((r) => artifact(r).ref.id)).size, 10);
  // Two histories whose tool messages share an id, materialized at the same time.
  const history = (text: string) => [{ role: 'tool', tool_call_id: 'call_1', content: text }];
  const [one, two] = await Promise.all(outputs(2, 'msg').map((text) => m.materializeMessages(history(text))));
  const refOf = (done: typeof one) => (done.messages[0] as { content: string }).content.match(/ctx:\/\/\S+?\.txt/)![0];
  assert.notEqual(refOf(one), refOf(two));
  assert.match(await m.read(refOf(two), { limit: 1 }), /msg output 1$/m);
  assert.match(await m.read(refOf(one), { limit: 1 }), /msg output 0$/m);
});

test('two processes materializing into one conversation keep all 80 outputs', async () => {
  const userData = freshDir('noclobber');
  const child = (tag: string) => `
    import { Materializer } from 'tool-offload';
    const m = new Materializer({ userData: ${JSON.stringify(userData)}, conversationId: 'conv' });
    const texts = Array.from({ length: 40 }, (_, i) => '${tag} output ' + i + '\\n'.repeat(1) + 'x'.repeat(60000));
    const done = await Promise.all(texts.map((output, i) => m.materialize({ toolCallId: 'call_' + (i % 4), toolName: 't', output })));
    console.log(JSON.stringify(done.map((d) => d.ref.id)));`;
  const spawn = (tag: string) =>
    run(process.execPath, ['--input-type=module', '-e', child(tag)], { cwd: process.cwd() });
  const [first, second] = await Promise.all([spawn('first'), spawn('second')]);
  const refs = [...JSON.parse(first.stdout), ...JSON.parse(second.stdout)] as string[];
  assert.equal(new Set(refs).size, 80);
  const dir = join(userData, 'context', 'conv', 'artifacts', 'tool');
  const heads = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8').split('\n')[0]);
  assert.equal(new Set(heads).size, 80, 'every output is on disk once');
});

test('batch offload re-run reuses identical files and moves a different one to -1', async () => {
  const outputDir = freshDir('noclobber');
  const conversation = (content: string) => [{ role: 'tool', tool_call_id: 'call_0', content }];
  const first = await offloadToolResults(conversation('one '.repeat(100)), { outputDir });
  const rerun = await offloadToolResults(conversation('one '.repeat(100)), { outputDir });
  const second = await offloadToolResults(conversation('two '.repeat(100)), { outputDir });
  assert.deepEqual(rerun.messages, first.messages);
  assert.equal((first.messages[0] as { content: string }).content, '[Content offloaded to: ./tool-result-call_0.md]');
  assert.equal(
    (second.messages[0] as { content: string }).content,
    '[Content offloaded to: ./tool-result-call_0-1.md]',
  );
  assert.deepEqual(second.files, [join(outputDir, 'tool-result-call_0-1.md')]);
  assert.equal(readFileSync(join(outputDir, 'tool-result-call_0.md'), 'utf8'), 'one '.repeat(100));
  assert.equal(readFileSync(join(outputDir, 'tool-result-call_0-1.md'), 'utf8'), 'two '.repeat(100));
});

test('a custom writer without createFile keeps working (the weaker, documented guarantee)', async () => {
  const writer = new RecordingWriter();
  const done = await offloadToolResults([{ role: 'tool', tool_call_id: 'c', content: 'x'.repeat(200) }], {
    outputDir: '/v',
    writer,
  });
  assert.equal(done.offloadedCount, 1);
  assert.deepEqual(
    writer.calls.map((c) => c[0]),
    ['mkdir', 'writeFile'],
  );
});

test('a createFile that resolves to a non-boolean is WRITE_FAILED, naming the contract', async () => {
  // A wrongly typed writer, as plain JavaScript could pass.
  const writer = Object.assign(new RecordingWriter(), { createFile: async () => 'yes' }) as unknown as FileWriter;
  const err = await offloadError(
    offloadToolResults([{ role: 'tool', tool_call_id: 'c', content: 'x'.repeat(200) }], { outputDir: '/v', writer }),
  );
  assert.equal(err.code, 'WRITE_FAILED');
  assert.match(err.message, /createFile must resolve to true \(created\) or false \(already exists\); got string/);
  assert.equal(err.cause, 'yes');
});

test('NodeFileWriter.createFile: exactly one of 32 concurrent creators wins, nothing left behind', async () => {
  const dir = freshDir('create');
  const path = join(dir, 'x.txt');
  const writer = new NodeFileWriter({ durable: true });
  const created = await Promise.all(Array.from({ length: 32 }, (_, i) => writer.createFile(path, `writer ${i}`)));
  assert.equal(created.filter(Boolean).length, 1);
  assert.equal(readFileSync(path, 'utf8'), `writer ${created.indexOf(true)}`);
  assert.equal(await writer.createFile(path, 'later'), false);
  assert.deepEqual(readdirSync(dir), ['x.txt']);
});

test('NodeFileWriter removes temporary files of dead writers older than 10 minutes', async () => {
  const dir = join(freshDir('stale'), 'artifacts');
  mkdirSync(dir);
  const old = (Date.now() - 11 * 60 * 1000) / 1000;
  for (const name of ['.tool-offload-1-dead.tmp', '.tool-offload-2-live.tmp', 'kept.txt'])
    writeFileSync(join(dir, name), 'x');
  utimesSync(join(dir, '.tool-offload-1-dead.tmp'), old, old);
  utimesSync(join(dir, 'kept.txt'), old, old);
  await new NodeFileWriter().mkdir(dir);
  assert.deepEqual(readdirSync(dir).sort(), ['.tool-offload-2-live.tmp', 'kept.txt']);
  assert.ok(
    readdirSync(dir).some((n) => TEMP.test(n)),
    'a live writer’s file stays',
  );
});
