// A worker process of host-node/test/s3-workers.test.ts: an S3Io from the standard AWS_*
// environment (no client given), one Materializer on conversation `conv-1`.
//   write <worker> <prefix> <calls>: print "ready", wait for a line on stdin, then
//     materialize <calls> outputs with ids call_0… at once; print their refs (JSON).
//   read <prefix> <ref>…: print the last line of each ref (JSON).
import { createInterface } from 'node:readline';

import { Materializer } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

const [mode, ...args] = process.argv.slice(2);
const materializer = (prefix: string) =>
  new Materializer({ userData: '/', conversationId: 'conv-1', writer: new S3Io({ bucket: 'workers', prefix }) });

if (mode === 'write') {
  const [worker, prefix, calls] = args;
  const m = materializer(prefix);
  console.log('ready');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  const results = await Promise.all(
    Array.from({ length: Number(calls) }, (_, n) =>
      m.materialize({ toolCallId: `call_${n}`, toolName: 'bash', output: `worker ${worker} call ${n}\n`.repeat(500) }),
    ),
  );
  console.log(JSON.stringify(results.map((r) => (r.inline ? 'inline' : r.ref.id))));
} else if (mode === 'read') {
  const [prefix, ...refs] = args;
  const m = materializer(prefix);
  const pages = [];
  for (const ref of refs) pages.push(await m.tail(ref, 1));
  console.log(JSON.stringify(pages));
} else {
  throw new Error(`worker: unknown mode ${mode}`);
}
