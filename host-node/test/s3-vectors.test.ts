// Every conformance vector (tests/vectors/*.json) through the npm package over S3Io on a
// real S3-compatible server (moto on 127.0.0.1): the `npm-s3` host of
// tests/cross-host.mjs, whose outcomes must equal every other host's. Each vector gets
// its own prefix in one bucket; its files are walked through the IO contract itself.
import { after, before, test } from 'node:test';

import * as npm from 'tool-offload';
import { S3Io } from 'tool-offload/s3';

import { runVector, type Api, type ReadWriter } from '../../tests/harness/steps.ts';
import { checkOutcomes, loadVectors } from '../../tests/harness/node-io.ts';
import { s3Client, startMoto, type Moto } from './s3/moto.ts';

const BUCKET = 'vectors';
let moto: Moto;
before(async () => {
  moto = await startMoto(BUCKET);
});
after(() => moto.stop());

/** Every object under the prefix, by virtual path: a name with no object is a directory. */
async function snapshot(io: S3Io): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of await io.listDir(dir)) {
      const path = `${dir === '/' ? '' : dir}/${name}`;
      const text = await io.readFile(path);
      if (text === undefined) await walk(path);
      else found[path] = text;
    }
  };
  await walk('/');
  return found;
}

test('npm package with S3Io on a real S3 server passes every vector', async () => {
  const vectors = loadVectors();
  const client = s3Client(moto.endpoint);
  const outcomes = new Map<string, { outcome: string; actual: unknown[] }>();
  for (const v of vectors) {
    const io = new S3Io({ client, bucket: BUCKET, prefix: `v/${v.id}` });
    const files = () => snapshot(io);
    outcomes.set(
      v.id,
      await runVector(v, { api: npm as unknown as Api, io: io as unknown as ReadWriter, root: '', files }),
    );
  }
  checkOutcomes('npm-s3', vectors, outcomes);
});
