// S3Io when the server misbehaves (moto on 127.0.0.1, behind fronts): a server that
// hangs up mid-put or is gone is a clear WRITE_FAILED and leaves no object; throttling
// (503 Slow Down) is retried by the SDK's retry strategy; wrong credentials are a typed
// error naming S3's refusal, never "no such file".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Materializer } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { offloadError } from './helpers.ts';
import { startFront } from './s3/front.ts';
import { s3Client, startMoto, type Moto } from './s3/moto.ts';

const BUCKET = 'faults';
let moto: Moto;
before(async () => {
  moto = await startMoto(BUCKET);
});
after(() => moto.stop());

const output = 'a build log line\n'.repeat(1000);
const materialize = (io: S3Io) =>
  new Materializer({ userData: '/', conversationId: 'conv-1', writer: io }).materialize({
    toolCallId: 'call_1',
    toolName: 'bash',
    output,
  });

test('a server that hangs up mid-put: WRITE_FAILED, no object, not even part of one', async () => {
  const cut = await startFront(moto.address, { kind: 'cut' });
  try {
    const io = new S3Io({ client: s3Client(cut.endpoint, { maxAttempts: 2 }), bucket: BUCKET, prefix: 'cut' });
    const err = await offloadError(materialize(io));
    assert.equal(err.code, 'WRITE_FAILED');
    assert.equal(err.path, '/context/conv-1/artifacts/tool/call_1.txt');
    // The writer's own error is the cause, the SDK's error its cause.
    const cause = err.cause as { code: string; message: string; cause: unknown };
    assert.equal(cause.code, 'WRITE_FAILED');
    assert.match(cause.message, /^PutObject s3:\/\/faults\/cut\/context\/conv-1\/artifacts\/tool\/call_1\.txt failed/);
    assert.ok(cause.cause instanceof Error);
    // Twice each: the HEAD for a retention marker (a name gc removed is never reused;
    // unanswered, it counts as absent) and the put.
    assert.equal(cut.refused, 4, 'the SDK tried each request twice');
    // Seen straight from the server: nothing under the prefix.
    const direct = new S3Io({ client: s3Client(moto.endpoint), bucket: BUCKET, prefix: 'cut' });
    assert.deepEqual(await direct.listDir('/'), []);
  } finally {
    await cut.close();
  }
});

test('a stopped server: WRITE_FAILED and READ_FAILED saying the connection was refused', async () => {
  const gone = await startMoto(BUCKET);
  const io = new S3Io({ client: s3Client(gone.endpoint, { maxAttempts: 1 }), bucket: BUCKET, prefix: 'gone' });
  await io.writeFile('/before.txt', 'written before the server stopped');
  await gone.stop();
  const write = await offloadError(materialize(io));
  assert.equal(write.code, 'WRITE_FAILED');
  assert.match((write.cause as Error).message, /ECONNREFUSED/);
  const read = await offloadError(io.readFile('/before.txt'));
  assert.equal(read.code, 'READ_FAILED');
  assert.match(read.message, /^GetObject s3:\/\/faults\/gone\/before\.txt failed \(ECONNREFUSED\): /);
});

test('throttling (503 Slow Down) is retried by the SDK and the write lands', async () => {
  const slow = await startFront(moto.address, { kind: 'slowDown', refuse: 2 });
  try {
    const io = new S3Io({ client: s3Client(slow.endpoint), bucket: BUCKET, prefix: 'slow' });
    const done = await materialize(io);
    assert.equal(slow.refused, 2);
    assert.equal(done.inline, false);
    assert.equal(await io.readFile(done.path!), output);
    // More refusals than the client's attempts: a clear WRITE_FAILED naming the 503.
    const refusing = await startFront(moto.address, { kind: 'slowDown', refuse: 100 });
    try {
      const gives = new S3Io({ client: s3Client(refusing.endpoint, { maxAttempts: 2 }), bucket: BUCKET, prefix: 'x' });
      const err = await offloadError(gives.writeFile('/a.txt', 'a'));
      assert.equal(err.code, 'WRITE_FAILED');
      assert.match(err.message, /\(SlowDown, HTTP 503\): Reduce your request rate\./);
      assert.equal(refusing.refused, 2);
    } finally {
      await refusing.close();
    }
  } finally {
    await slow.close();
  }
});

test('wrong credentials: a typed error naming S3 refusal (403 InvalidAccessKeyId)', async () => {
  // Authentication is global to a moto process: a server of its own, switched on.
  const strict = await startMoto(BUCKET);
  try {
    const on = await fetch(`${strict.endpoint}/moto-api/reset-auth`, { method: 'POST', body: '0' });
    assert.equal(on.status, 200, await on.text());
    const io = new S3Io({
      client: s3Client(strict.endpoint, { accessKeyId: 'AKIAWRONG' }),
      bucket: BUCKET,
      prefix: 'p',
    });
    const write = await offloadError(io.createFile('/a.txt', 'x'));
    assert.equal(write.code, 'WRITE_FAILED');
    assert.match(write.message, /^PutObject s3:\/\/faults\/p\/a\.txt failed \(InvalidAccessKeyId, HTTP 403\): /);
    assert.equal((write.cause as { name: string }).name, 'InvalidAccessKeyId');
    // A refused read is an error too, not a missing file.
    for (const read of [() => io.readFile('/a.txt'), () => io.listDir('/')]) {
      const err = await offloadError(read());
      assert.equal(err.code, 'READ_FAILED');
      assert.match(err.message, /InvalidAccessKeyId, HTTP 403/);
    }
    // A HEAD's refusal has no body to name the reason: the status says it.
    for (const head of [() => io.size('/a.txt'), () => io.stat('/a.txt')]) {
      const err = await offloadError(head());
      assert.equal(err.code, 'READ_FAILED');
      assert.match(err.message, /^HeadObject s3:\/\/faults\/p\/a\.txt failed \(HTTP 403\): access denied/);
    }
    const materialized = await offloadError(materialize(io));
    assert.equal(materialized.code, 'WRITE_FAILED');
    assert.match(materialized.message, /InvalidAccessKeyId/);
  } finally {
    await strict.stop();
  }
});
