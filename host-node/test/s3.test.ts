// tool-offload/s3 (S3Io) against a real S3-compatible server (moto on 127.0.0.1, started
// and stopped here): the IO contract, the keys every host agrees on, typed errors,
// aborts, and the package's operations over it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';

import { S3Client } from '@aws-sdk/client-s3';
import { gcDirectory, Materializer, OffloadError, Workspace } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { OBJECT_STORE_EXPECTED, observeWriter } from '../../tests/harness/writer-contract.ts';
import { offloadError } from './helpers.ts';
import { motoWithFront } from './s3/front.ts';
import { s3Client } from './s3/moto.ts';

const BUCKET = 'artifacts';
const servers = motoWithFront(BUCKET);

const io = (prefix: string, endpoint = servers.moto.endpoint) =>
  new S3Io({ client: s3Client(endpoint), bucket: BUCKET, prefix });

test('S3Io meets the IO contract, as an object store does', async () => {
  const seen = await observeWriter(io('contract'), OffloadError);
  const statDir = seen.statDir as { modifiedMs: number };
  assert.ok(Math.abs(Date.now() - statDir.modifiedMs) < 600_000, `statDir: ${JSON.stringify(statDir)}`);
  seen.statDir = { ...statDir, modifiedMs: 'recent' };
  assert.deepEqual(seen, OBJECT_STORE_EXPECTED);
  // Keys live under the prefix: the whole bucket holds only it.
  assert.deepEqual(await io('').listDir('/'), ['contract']);
  assert.equal(await io('').readFile('/contract/a/c.txt'), '\ufeffbom \ud83d\ude00 lone \ufffd end');
});

test('paths map to the keys the Rust host uses, and list back as written', async () => {
  const file = new URL('../../tests/object-store/keys.json', import.meta.url);
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as {
    cases: { prefix: string; path: string; key?: string; error?: string }[];
  };
  assert.ok(cases.length > 20);
  for (const [i, { prefix, path, key, error }] of cases.entries()) {
    const s3 = io(`keys/${i}${prefix ? `/${prefix}` : ''}`);
    const named = new S3Io({ client: s3.client, bucket: BUCKET, prefix });
    if (error !== undefined) {
      const err = await offloadError(Promise.resolve().then(() => named.key(path)));
      assert.equal(err.code, 'INVALID_ARGUMENT');
      assert.equal(err.message, error);
      continue;
    }
    assert.equal(named.key(path), key, JSON.stringify(path));
    const cut = path.replace(/\/+$/, '');
    const name = cut.slice(cut.lastIndexOf('/') + 1);
    if (name === '') continue;
    await s3.writeFile(path, 'x');
    assert.deepEqual(await s3.listDir(cut.slice(0, cut.lastIndexOf('/')) || '/'), [name], JSON.stringify(path));
  }
});

test('a path that leaves the prefix is refused before any request', async () => {
  const s3 = io('p', servers.front.endpoint);
  servers.front.reset();
  for (const call of [
    () => s3.readFile('/a/../../b/secret'),
    () => s3.writeFile('/..', 'x'),
    () => s3.createFile('relative/x', 'x'),
    () => s3.readRange('/a/./b', 0, 1),
    () => s3.listDir('/a/..'),
    () => s3.remove('/../x'),
    () => s3.mkdir('/a/../..'),
  ]) {
    const err = await offloadError(call());
    assert.equal(err.code, 'INVALID_ARGUMENT', err.message);
  }
  assert.equal(servers.front.received, 0, 'no request was made');
  const bad = await offloadError(Promise.resolve().then(() => new S3Io({ bucket: BUCKET, prefix: 'a/../b' })));
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.match(bad.message, /invalid object store location a\/\.\.\/b/);
  const noBucket = await offloadError(Promise.resolve().then(() => new S3Io({ bucket: '' })));
  assert.equal(noBucket.code, 'INVALID_ARGUMENT');
});

test('ranges: inside, cut at the end, from past the end; a missing object is READ_FAILED', async () => {
  const s3 = io('ranges');
  await s3.writeFile('/x.txt', 'hello again');
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(text(await s3.readRange('/x.txt', 6, 9)), 'aga');
  assert.equal(text(await s3.readRange('/x.txt', 6, 100)), 'again');
  assert.equal((await s3.readRange('/x.txt', 11, 20)).length, 0);
  assert.equal((await s3.readRange('/x.txt', 50, 60)).length, 0);
  assert.equal((await s3.readRange('/x.txt', 5, 5)).length, 0);
  const err = await offloadError(s3.readRange('/none', 0, 5));
  assert.equal(err.code, 'READ_FAILED');
  assert.equal(err.path, '/none');
  assert.match(err.message, /^GetObject s3:\/\/artifacts\/ranges\/none failed \(NoSuchKey, HTTP 404\): /);
  assert.ok(err.cause instanceof Error, 'the SDK error is the cause');
});

test('a bucket that does not exist is an error, not an empty bucket', async () => {
  const s3 = new S3Io({ client: s3Client(servers.moto.endpoint), bucket: 'no-such-bucket', prefix: 'p' });
  for (const [call, code] of [
    [() => s3.readFile('/a.txt'), 'READ_FAILED'],
    [() => s3.listDir('/'), 'READ_FAILED'],
    [() => s3.writeFile('/a.txt', 'x'), 'WRITE_FAILED'],
    [() => s3.createFile('/a.txt', 'x'), 'WRITE_FAILED'],
  ] as const) {
    const err = await offloadError(call());
    assert.equal(err.code, code);
    assert.match(err.message, /\(NoSuchBucket, HTTP 404\)/);
  }
});

test('listing pages through more than 1000 names', async () => {
  const s3 = io('many');
  const names = Array.from({ length: 1003 }, (_, i) => `f${String(i).padStart(4, '0')}`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((n) => s3.writeFile(`/d/${n}`, '')));
  }
  await s3.writeFile('/d/sub/z', 'z');
  assert.deepEqual(await s3.listDir('/d'), [...names, 'sub']);
});

test('a signal aborts requests in flight and refuses new ones (ABORTED)', async () => {
  const controller = new AbortController();
  // A server that accepts and never answers: the request hangs until the signal ends it.
  const black = createServer(() => undefined);
  await new Promise<void>((resolve) => black.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(black.address() as { port: number }).port}`;
  try {
    const s3 = new S3Io({ client: s3Client(endpoint), bucket: BUCKET, prefix: 'abort', signal: controller.signal });
    const pending = s3.writeFile('/x.txt', 'x');
    setTimeout(() => controller.abort(new Error('worker shutting down')), 50);
    const err = await offloadError(pending);
    assert.equal(err.code, 'ABORTED');
    assert.equal((err.cause as Error).message, 'worker shutting down');
    const again = await offloadError(s3.readFile('/x.txt'));
    assert.equal(again.code, 'ABORTED');
  } finally {
    black.close();
  }
});

test('the Materializer and gcDirectory run on S3Io', async () => {
  const writer = io('ops');
  const materializer = new Materializer({ userData: '/', conversationId: 'c1', writer });
  const output = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
  const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output });
  assert.equal(result.inline, false);
  assert.equal(await writer.readFile(result.path!), output);
  // Another worker, its own client and materializer, reads the ref.
  const other = new Materializer({ userData: '/', conversationId: 'c1', writer: io('ops') });
  assert.match(await other.tail(result.ref!.id, 1), /line 1999/);
  assert.match(await other.grep(result.ref!.id, 'line 1999'), /line 1999/);
  const report = await gcDirectory('/', { maxBytes: 0, writer });
  assert.equal(report.removed.length, 1);
  assert.equal(await writer.size(result.path!), undefined);
  assert.equal(await writer.size(`${result.path}.removed`), 0);
});

test('two workers storing one tool-call id on S3 each keep their own output, record and artifact alike', async () => {
  // Two workspaces, two clients: as two processes would.
  const [a, b] = [io('races'), io('races')].map((writer) => new Workspace({ root: '/', writer }));
  const outputs = ['A', 'B'].map((tag) => `${tag} output\n`.repeat(20000));
  const done = await Promise.all(
    [a, b].map((ws, i) => ws.offloadToolResult({ toolCallId: 'same', toolName: 'bash', content: outputs[i] })),
  );
  assert.deepEqual(done.map((d) => d.artifactId).sort(), ['tool_result_same', 'tool_result_same-1']);
  for (const [i, d] of done.entries()) {
    const back = await a.getById(d.artifactId!);
    assert.equal(back.content, outputs[i]);
    assert.equal(back.metadata.sha256, createHash('sha256').update(outputs[i]).digest('hex'));
  }
});

test('without a client, S3Io configures one from the standard environment', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, servers.moto.env);
  try {
    const s3 = new S3Io({ bucket: BUCKET, prefix: 'env' });
    assert.ok(s3.client instanceof S3Client);
    assert.equal(await s3.createFile('/a.txt', 'from the environment'), true);
    assert.equal(await io('env').readFile('/a.txt'), 'from the environment');
  } finally {
    for (const key of Object.keys(servers.moto.env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
});
