// Materialize and tail through the npm package's S3Io (tool-offload/s3) against moto's S3
// server on 127.0.0.1, the cases of the tokio host's bench (host-tokio/benches/object_store.rs):
//
//   node --import tsx bench/s3.ts
//
// Prints requests and GetObject body bytes per operation (counted by SDK middleware) and
// p50/p99 latency. Numbers, not pass/fail: moto is a Python server, so its latencies are
// far from S3's; the request and byte counts are what carry over.
import { Materializer } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { countRequests, s3Client, startMoto } from '../host-node/test/s3/moto.ts';

const pct = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.round((sorted.length - 1) * p)];
};

function report(name: string, samples: number[], perOp: string): void {
  const ms = (x: number) => x.toFixed(2).padStart(8);
  console.log(
    `${name.padEnd(34)} p50 ${ms(pct(samples, 0.5))} ms  p99 ${ms(pct(samples, 0.99))} ms  (n=${samples.length})  ${perOp}`,
  );
}

const moto = await startMoto('bench');
try {
  const client = s3Client(moto.endpoint);
  const counts = countRequests(client);
  const io = new S3Io({ client, bucket: 'bench', prefix: 'bench' });
  const m = new Materializer({ userData: '/', conversationId: 'conv-bench', writer: io });
  console.log('object store (moto_server on 127.0.0.1), npm package tool-offload/s3 (S3Io)');
  const snapshot = () => ({ ...Object.fromEntries(counts.requests), bytes: counts.getBytes });
  const per = (after: Record<string, number>, before: Record<string, number>, key: string, n: number) =>
    ((after[key] ?? 0) - (before[key] ?? 0)) / n;
  for (const [label, bytes, n] of [
    ['100 KB', 100_000, 60],
    ['12 MB', 12_000_000, 5],
  ] as const) {
    const line = '   Compiling serde v1.0.219 (build step 17 of 240) ok\n';
    const output = line.repeat(Math.floor(bytes / line.length));
    const refs: string[] = [];
    let samples: number[] = [];
    let before = snapshot();
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const done = await m.materialize({ toolCallId: `call_${label.replace(' ', '')}_${i}`, toolName: 'bash', output });
      samples.push(performance.now() - start);
      if (!done.inline) refs.push(done.ref.id);
    }
    let after = snapshot();
    const ops = (keys: string[]) => keys.map((k) => `${per(after, before, k, n).toFixed(1)} ${k}`).join(', ');
    report(`materialize ${label}`, samples, `${ops(['PutObject', 'GetObject', 'HeadObject'])} per op`);
    samples = [];
    before = snapshot();
    for (const ref of refs) {
      const start = performance.now();
      await m.tail(ref, 20);
      samples.push(performance.now() - start);
    }
    after = snapshot();
    const fetched = per(after, before, 'bytes', refs.length).toFixed(0);
    report(
      `tail 20 lines of ${label}`,
      samples,
      `${ops(['GetObject', 'HeadObject'])}, ${fetched} bytes fetched per op`,
    );
  }
} finally {
  await moto.stop();
}
