// Two Node worker processes materialize into one conversation in one bucket at the same
// moment, with the same call ids (S3 on moto, 127.0.0.1): no artifact is lost or
// overwritten (S3Io's createFile is a conditional put), and each worker reads the
// other's refs.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';

import { startMoto, type Moto } from './s3/moto.ts';

const worker = fileURLToPath(new URL('./s3/worker.ts', import.meta.url));
const CALLS = 8;
let moto: Moto;
before(async () => {
  moto = await startMoto('workers');
});
after(() => moto.stop());

const env = () => ({ ...process.env, ...moto.env });

/** Start a writing worker; resolves once it is ready, with its refs to come. */
async function writer(n: number): Promise<{ go(): void; refs: Promise<string[]> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, 'write', String(n), 'shared', String(CALLS)], {
    env: env(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${n} exited ${code} before it was ready`)));
  });
  const refs = new Promise<string[]>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length))) : reject(new Error(`worker ${n} exited ${code}`)),
    ),
  );
  await ready;
  return { go: () => child.stdin.end('go\n'), refs };
}

test('two worker processes share a conversation in S3: nothing lost, each reads the other', async () => {
  const workers = await Promise.all([writer(0), writer(1)]);
  for (const w of workers) w.go();
  const [refs0, refs1] = await Promise.all(workers.map((w) => w.refs));
  assert.equal(refs0.length, CALLS);
  assert.equal(refs1.length, CALLS);
  const all = [...refs0, ...refs1];
  assert.equal(new Set(all).size, 2 * CALLS, `every output has its own artifact: ${all.join(' ')}`);
  // The ids collided: one worker got each name, the other the next free one.
  for (let n = 0; n < CALLS; n++) {
    assert.deepEqual(all.filter((r) => r.includes(`/call_${n}`)).sort(), [
      `ctx://conv-1/tool/call_${n}-1.txt`,
      `ctx://conv-1/tool/call_${n}.txt`,
    ]);
  }
  // Each worker reads the other's refs (in a new process: nothing cached).
  for (const [reader, refs, writtenBy] of [
    [0, refs1, 1],
    [1, refs0, 0],
  ] as const) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', worker, 'read', 'shared', ...refs],
      { env: env() },
    );
    const pages = JSON.parse(stdout) as string[];
    for (const [i, page] of pages.entries()) {
      const n = /call_(\d+)/.exec(refs[i])![1];
      assert.match(page, new RegExp(`worker ${writtenBy} call ${n}\\b`), `worker ${reader} reading ${refs[i]}`);
    }
  }
});
