// Rust and Node workers share artifacts through S3 (moto on 127.0.0.1): the Rust CLI
// (`tool-offload materialize|offload|tail` with `s3://` locations, configured by the
// standard AWS_* environment) writes and Node's S3Io reads, and Node writes and the CLI
// reads. Needs the CLI built (`make build`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Materializer } from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { freshDir } from './helpers.ts';
import { s3Client, startMoto, type Moto } from './s3/moto.ts';

const BUCKET = 'interop';
const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'debug', 'tool-offload');
let moto: Moto;
let dir: string;
before(async () => {
  assert.ok(existsSync(cli), `${cli} missing: run make build`);
  moto = await startMoto(BUCKET);
  dir = freshDir('s3-interop');
});
after(() => moto.stop());

/** The CLI with `args` in the test's directory, the server in its environment: stdout and stderr. */
async function tool(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(cli, args, { cwd: dir, env: { ...process.env, ...moto.env }, maxBuffer: 1 << 24 });
}

/** Anthropic messages: `calls` tool results over the inline limit, told apart by `who`. */
function conversation(who: string, calls: number): unknown[] {
  return Array.from({ length: calls }, (_, n) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `call_${n}`, name: 'bash', input: {} }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `call_${n}`, content: `${who} call ${n}\n`.repeat(400) }],
    },
  ]).flat();
}

const io = (prefix: string) => new S3Io({ client: s3Client(moto.endpoint), bucket: BUCKET, prefix });

test('the Rust CLI materializes into S3, Node reads its refs', async () => {
  writeFileSync(join(dir, 'rust.json'), JSON.stringify(conversation('rust', 4)));
  const args = ['materialize', 'rust.json', '--conversation', 'conv-1', '--user-data', `s3://${BUCKET}/agents`];
  const { stderr } = await tool(...args, '--json');
  const refs = (JSON.parse(stderr.trim()) as { refs: string[] }).refs;
  assert.equal(refs.length, 4, stderr);
  const node = new Materializer({ userData: '/', conversationId: 'conv-1', writer: io('agents') });
  for (const ref of refs) {
    const n = /call_(\d+)/.exec(ref)![1];
    assert.match(await node.tail(ref, 1), new RegExp(`rust call ${n}`), ref);
  }
});

test('Node materializes into S3, the Rust CLI reads its refs', async () => {
  const node = new Materializer({ userData: '/', conversationId: 'conv-2', writer: io('agents') });
  const refs: string[] = [];
  for (let n = 0; n < 3; n++) {
    const output = `node call ${n}\n`.repeat(400);
    const result = await node.materialize({ toolCallId: `call_${n}`, toolName: 'bash', output });
    assert.equal(result.inline, false);
    refs.push(result.ref!.id);
  }
  for (const [n, ref] of refs.entries()) {
    const { stdout } = await tool('tail', ref, '--lines', '1', '--user-data', `s3://${BUCKET}/agents`);
    assert.match(stdout, new RegExp(`node call ${n}`), `${ref}: ${stdout}`);
  }
});

test('the Rust CLI offloads a batch into S3, Node reads the files its placeholders name', async () => {
  writeFileSync(join(dir, 'batch.json'), JSON.stringify(conversation('batch', 3)));
  await tool('offload', 'batch.json', '--out', `s3://${BUCKET}/batch`, '-o', 'out.json');
  const batch = io('batch');
  assert.deepEqual(await batch.listDir('/'), [
    'tool-result-call_0.md',
    'tool-result-call_1.md',
    'tool-result-call_2.md',
  ]);
  assert.ok((await batch.readFile('/tool-result-call_2.md'))!.startsWith('batch call 2\n'));
  // The same batch offloaded by Node next to it: the same names, the same bytes.
  const { offloadToolResults } = await import('tool-offload');
  const node = io('batch-node');
  await offloadToolResults(conversation('batch', 3) as object[], { outputDir: '/', writer: node });
  for (const name of await batch.listDir('/')) {
    assert.equal(await node.readFile(`/${name}`), await batch.readFile(`/${name}`), name);
  }
});
