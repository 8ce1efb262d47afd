// A generated 1 GiB log put into the S3 server as an artifact of the Materializer, with
// the line index the Materializer writes beside artifacts over 1 MiB (core's format:
// docs/io-contract.md#ranged-reads-a-page-costs-a-page), streamed from a generator with
// one plain HTTP PUT (moto checks no signature unless told to): never held in memory.
import { request } from 'node:http';

/** Bytes per line: every line is the same length, so its offsets are known. */
export const LINE_BYTES = 64;
/** 2^30 bytes: 2^24 lines. */
export const BIG_BYTES = 1 << 30;
const STEP = 1 << 20;

/** Line `i` (0-based) of the log, `LINE_BYTES` long with its newline. */
export function bigLine(i: number): string {
  return `line ${String(i).padStart(10, '0')} of a generated build log`.padEnd(LINE_BYTES - 1, '.') + '\n';
}

/** The index file of the log: its size, its line count, a line start per MiB. */
export function bigIndex(): string {
  const lines = BIG_BYTES / LINE_BYTES;
  let out = `tool-offload line index 1\nbytes ${BIG_BYTES}\nlines ${lines}\nstep ${STEP}\n`;
  for (let at = 0; at < BIG_BYTES; at += STEP) out += `${at / LINE_BYTES + 1} ${at}\n`;
  return out;
}

/** PUT the log at `key` of `bucket` (path-style), a MiB at a time. */
export async function putBigObject(endpoint: string, bucket: string, key: string): Promise<void> {
  const url = new URL(`/${bucket}/${key}`, endpoint);
  await new Promise<void>((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'content-length': BIG_BYTES } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${key}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    const perChunk = STEP / LINE_BYTES;
    let line = 0;
    const write = () => {
      while (line < BIG_BYTES / LINE_BYTES) {
        let chunk = '';
        for (const end = line + perChunk; line < end; line++) chunk += bigLine(line);
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}
