// A real S3-compatible server for the npm package's tests: moto's server mode
// (`moto_server`, PyPI `moto[server]` 5.2.1, installed by scripts/setup.sh, as for the
// Rust host's tests) on a free port of 127.0.0.1, a bucket created, killed when stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

import { S3Client } from '@aws-sdk/client-s3';

// The pinned SDK warns once per process that releases after January 2027 need Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** A running moto server. */
export interface Moto {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** `host:port`, for fronts that forward to it. */
  address: string;
  /** The environment the SDK (and the Rust CLI) configure themselves from. */
  env: Record<string, string>;
  /** Kill it (by its process id) and wait for it to exit. */
  stop(): Promise<void>;
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Start moto and create `buckets` in it. */
export async function startMoto(...buckets: string[]): Promise<Moto> {
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (e) =>
      reject(
        new Error(`moto_server: ${e.message} (pip install 'moto[server]==5.2.1'; make test runs scripts/setup.sh)`),
      ),
    );
  });
  await spawned;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  const moto: Moto = {
    endpoint,
    address: `127.0.0.1:${port}`,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${endpoint}/${buckets[0] ?? 'moto-ready'}`, { method: 'PUT' });
      if (!res.ok) throw new Error(`creating bucket ${buckets[0]}: HTTP ${res.status}`);
      break;
    } catch (e) {
      if ((e as Error).message.startsWith('creating bucket') || Date.now() > deadline) {
        await moto.stop();
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  for (const bucket of buckets.slice(1)) {
    const res = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
    if (!res.ok) throw new Error(`creating bucket ${bucket}: HTTP ${res.status}`);
  }
  return moto;
}

/** A client of `endpoint` (moto, or a front of it) with test credentials. */
export function s3Client(endpoint: string, options: { maxAttempts?: number; accessKeyId?: string } = {}): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId ?? 'test', secretAccessKey: 'test' },
    maxAttempts: options.maxAttempts ?? 3,
  });
}

/** What a client sent and fetched: requests by S3 operation (retries included), body bytes of GetObject. */
export interface Counts {
  requests: Map<string, number>;
  getBytes: number;
}

/** Count what `client` sends and fetches from now on. */
export function countRequests(client: S3Client): Counts {
  const counts: Counts = { requests: new Map(), getBytes: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName ?? '').replace(/Command$/, '');
      counts.requests.set(name, (counts.requests.get(name) ?? 0) + 1);
      const out = await next(args);
      const length = (out.response as { headers?: Record<string, string> })?.headers?.['content-length'];
      if (name === 'GetObject' && length !== undefined) counts.getBytes += Number(length);
      return out;
    },
    { step: 'deserialize', name: 'countRequests' },
  );
  return counts;
}
