// A 1 GiB artifact in S3 (moto on 127.0.0.1) tails without being downloaded: another
// worker's `tail` asks for the size, the line index beside it and a few ranges from the
// end, and every byte the server sends is counted by a TCP front.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { BIG_BYTES, bigIndex, bigLine, putBigObject } from './s3/big-object.ts';
import { motoWithFront } from './s3/front.ts';
import { countRequests, s3Client } from './s3/moto.ts';

const BUCKET = 'big';
const servers = motoWithFront(BUCKET);

test('a 1 GiB artifact tails by range: a few requests, well under 1 MiB fetched', { timeout: 300_000 }, async () => {
  const started = Date.now();
  await putBigObject(servers.moto.endpoint, BUCKET, 'workers/context/conv-big/artifacts/tool/call_big.txt');
  const writer = new S3Io({ client: s3Client(servers.moto.endpoint), bucket: BUCKET, prefix: 'workers' });
  await writer.writeFile('/context/conv-big/index/tool/call_big.txt.lines', bigIndex());
  assert.equal(await writer.size('/context/conv-big/artifacts/tool/call_big.txt'), BIG_BYTES);
  const put = Date.now() - started;

  // Another worker, through the counting front.
  const client = s3Client(servers.front.endpoint);
  const counts = countRequests(client);
  const reader = new S3Io({ client, bucket: BUCKET, prefix: 'workers' });
  const materializer = new Materializer({ userData: '/', conversationId: 'conv-big', writer: reader });
  servers.front.reset();
  const t0 = Date.now();
  const page = await materializer.tail('ctx://conv-big/tool/call_big.txt', 20);
  const took = Date.now() - t0;
  const last = BIG_BYTES / 64 - 1;
  assert.ok(page.includes(bigLine(last).trimEnd()), page.slice(0, 300));
  assert.ok(page.includes(bigLine(last - 19).trimEnd()), 'the 20 last lines');
  // Line numbers come from the index: the last line is line 2^24.
  assert.match(page, new RegExp(`\\b${last + 1}\\b`));
  const fetched = servers.front.received;
  const summary = [...counts.requests].map(([op, n]) => `${n} ${op}`).join(', ');
  console.log(
    `1 GiB put in ${put} ms; tail: ${summary}, ${counts.getBytes} body bytes (${fetched} on the wire), ${took} ms`,
  );
  assert.ok(fetched < 1 << 20, `fetched ${fetched} bytes of ${BIG_BYTES}`);
  assert.ok((counts.requests.get('GetObject') ?? 0) <= 4, summary);
  assert.ok(counts.getBytes <= fetched, 'bodies are part of the wire bytes');
});
