// A TCP front for the S3 server of the tests: forwards connections and counts the bytes
// the server sends back (what a client fetched, headers included); or answers its first
// requests `503 Slow Down` (S3's throttling) and forwards the rest; or takes half of
// every request's body and hangs up, as a server that dies mid-write.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before } from 'node:test';

import { startMoto, type Moto } from './moto.ts';

const SLOW_DOWN =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>';

/** What the front does to the requests it does not forward. */
export type Mode = { kind: 'forward' } | { kind: 'slowDown'; refuse: number } | { kind: 'cut' };

/** A running front. */
export interface Front {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** Bytes the server sent to clients through the front. */
  readonly received: number;
  /** Requests answered 503 or cut so far. */
  readonly refused: number;
  /** Zero the byte count. */
  reset(): void;
  close(): Promise<void>;
}

/** Start a front of `upstream` (`host:port`). */
export async function startFront(upstream: string, mode: Mode = { kind: 'forward' }): Promise<Front> {
  const [host, port] = upstream.split(':');
  let received = 0;
  let refused = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    const forward = () => {
      client.removeAllListeners('data');
      client.pause();
      const up = connect(Number(port), host, () => {
        if (buffered.length > 0) up.write(buffered);
        client.pipe(up);
        client.resume();
      });
      sockets.add(up);
      up.on('close', () => sockets.delete(up));
      up.on('data', (chunk: Buffer) => {
        received += chunk.length;
        client.write(chunk);
      });
      up.on('end', () => client.end());
      up.on('error', () => client.destroy());
      client.on('error', () => up.destroy());
    };
    if (mode.kind === 'forward' || (mode.kind === 'slowDown' && refused >= mode.refuse)) return forward();
    // One request at a time: its head, then its body (by Content-Length).
    client.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (mode.kind === 'cut') {
          if (buffered.length < end + 4 + Math.floor(length / 2)) return;
          refused++;
          client.destroy();
          return;
        }
        if (buffered.length < end + 4 + length) return;
        if (refused >= (mode as { refuse: number }).refuse) return forward();
        refused++;
        buffered = buffered.subarray(end + 4 + length);
        client.write(
          `HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: ${SLOW_DOWN.length}\r\n\r\n${SLOW_DOWN}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${own}`,
    get received() {
      return received;
    },
    get refused() {
      return refused;
    },
    reset() {
      received = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A moto with `bucket` and a forwarding front of it for the tests of one file: started
 * before them, stopped after (node:test's hooks). Read the fields inside tests.
 */
export function motoWithFront(bucket: string): { moto: Moto; front: Front } {
  const servers = {} as { moto: Moto; front: Front };
  before(async () => {
    servers.moto = await startMoto(bucket);
    servers.front = await startFront(servers.moto.address);
  });
  after(async () => {
    await servers.front?.close();
    await servers.moto?.stop();
  });
  return servers;
}
