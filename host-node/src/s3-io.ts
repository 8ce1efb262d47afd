/**
 * `tool-offload/s3`: artifacts in Amazon S3 or an S3-compatible server, so workers on
 * many machines share them (docs/object-store.md). Needs `@aws-sdk/client-s3` (an
 * optional peer dependency). No `node:*` import: it runs wherever the SDK runs.
 *
 * @example
 * ```ts
 * import { Materializer } from 'tool-offload';
 * import { S3Io } from 'tool-offload/s3';
 * const io = new S3Io({ bucket: 'agent-artifacts', prefix: 'prod' });
 * const materializer = new Materializer({ userData: '/', conversationId: 'conv-42', writer: io });
 * ```
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type {
  GetObjectCommandOutput,
  HeadObjectCommandOutput,
  ListObjectsV2CommandOutput,
  PutObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { decodeKeySegment, objectKey, parseKeyPrefix } from '../wasm/tool_offload_wasm.js';
import type { FileReader, FileWriter } from '../wasm/tool_offload_wasm.js';
import { offloadError } from './errors.js';
import { isNotFound, isPastEnd, isTaken, requestError } from './s3-errors.js';

/** Options of {@link S3Io}. */
export interface S3IoOptions {
  /**
   * The client (region, credentials, endpoint, retries). Default: `new S3Client({})`,
   * configured by the SDK's standard environment (`AWS_REGION`, `AWS_ACCESS_KEY_ID`,
   * `AWS_SECRET_ACCESS_KEY`, `AWS_ENDPOINT_URL`, …), path-style when an endpoint is set.
   */
  client?: S3Client;
  /** The bucket. */
  bucket: string;
  /** Every key starts with it (`team/agents`); `''` (the default) is the whole bucket. */
  prefix?: string;
  /**
   * Aborts every request in flight and refuses new ones (`ABORTED`), e.g. when the worker
   * shuts down. Operations' own `signal`s end the calls at once; this ends the requests.
   */
  signal?: AbortSignal;
}

const encoder = new TextEncoder();
// A leading U+FEFF is content, kept as `fs.readFile` keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The endpoint the SDK's environment names, where there is an environment (Node, Deno, Bun). */
function environmentEndpoint(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.AWS_ENDPOINT_URL_S3 ?? env?.AWS_ENDPOINT_URL;
}

/**
 * The whole IO contract (writer and reader, retention's `stat` and `remove`) over S3:
 * the virtual absolute path `/a/b.txt` is the key `<prefix>/a/b.txt`, each segment
 * encoded exactly as the Rust host's `ObjectStoreIo` encodes it, so both read each other's
 * artifacts. `writeFile` is one `PutObject` (atomic: readers see the old object or the
 * new one), `createFile` a conditional `PutObject` (`If-None-Match: *`: of any number of
 * workers creating one key exactly one gets `true`), `readRange` one ranged `GetObject`,
 * `size` and `stat` a `HeadObject`, `listDir` a delimited `ListObjectsV2`; `mkdir`
 * makes no request, since object stores have no directories. A path with a `.` or `..`
 * segment is refused (`INVALID_ARGUMENT`) before any request. Failures are
 * `WRITE_FAILED` / `READ_FAILED` naming the path, the SDK's error as `cause` (after the
 * client's retries of throttling and 5xx).
 *
 * @example
 * ```ts
 * import { S3Client } from '@aws-sdk/client-s3';
 * import { S3Io } from 'tool-offload/s3';
 * const io = new S3Io({ client: new S3Client({ region: 'eu-west-1' }), bucket: 'agent-artifacts', prefix: 'prod' });
 * await io.createFile('/a/x.txt', 'hello'); // true; a second create is false
 * ```
 */
export class S3Io implements FileWriter, FileReader {
  /** The client requests go through. */
  readonly client: S3Client;
  /** The bucket. */
  readonly bucket: string;
  /** The key prefix (`''` for none), slashes around it trimmed. */
  readonly prefix: string;
  readonly #signal: AbortSignal | undefined;

  constructor(options: S3IoOptions) {
    if (options == null || typeof options !== 'object') {
      throw offloadError('INVALID_ARGUMENT', 'S3Io needs options: { bucket, prefix?, client?, signal? }');
    }
    if (typeof options.bucket !== 'string' || options.bucket === '' || options.bucket.includes('/')) {
      throw offloadError('INVALID_ARGUMENT', `S3Io: bucket must be a bucket name, got ${String(options.bucket)}`);
    }
    this.bucket = options.bucket;
    const prefix = options.prefix ?? '';
    if (typeof prefix !== 'string') {
      throw offloadError('INVALID_ARGUMENT', `prefix must be a string, got ${typeof prefix}`);
    }
    // Core's check (no empty, `.` or `..` segment, no control character), slashes trimmed.
    this.prefix = parseKeyPrefix(prefix);
    this.#signal = options.signal;
    this.client = options.client ?? new S3Client({ forcePathStyle: environmentEndpoint() !== undefined });
  }

  /**
   * The object key a virtual absolute path maps to: core's mapping, the Rust host's
   * (empty segments skipped, each segment percent-encoded as `object_store` encodes it),
   * `INVALID_ARGUMENT` for a `.` or `..` segment or a relative path.
   *
   * @example
   * ```ts
   * new S3Io({ bucket: 'b', prefix: 'p' }).key('/context/c1/a 50%.txt'); // 'p/context/c1/a 50%25.txt'
   * ```
   */
  key(path: string): string {
    return objectKey(this.prefix, path);
  }

  /** Nothing to create in an object store; only refuses a path that could not be a key. */
  async mkdir(dir: string): Promise<void> {
    this.key(dir);
  }

  /** Write `data` (text as UTF-8, bytes as they are) to `path`, replacing any object: one `PutObject`. */
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const Key = this.key(path);
    await this.#send('WRITE_FAILED', path, new PutObjectCommand({ Bucket: this.bucket, Key, Body: bodyOf(data) }));
  }

  /** Write `data` to `path` only if no object is there (`If-None-Match: *`): `true` when it did, `false` otherwise. */
  async createFile(path: string, data: string | Uint8Array): Promise<boolean> {
    const Key = this.key(path);
    const put = new PutObjectCommand({ Bucket: this.bucket, Key, Body: bodyOf(data), IfNoneMatch: '*' });
    // 412: the object exists. 409 ConditionalRequestConflict: another conditional write
    // to the key is in flight; the name counts as taken (at worst a skipped name).
    return (await this.#send<PutObjectCommandOutput>('WRITE_FAILED', path, put, isTaken)) !== undefined;
  }

  /** The UTF-8 content of the object at `path`, or `undefined` when there is none. */
  async readFile(path: string): Promise<string | undefined> {
    const bytes = await this.#get(path);
    return bytes === undefined ? undefined : decoder.decode(bytes);
  }

  /** The names directly under `dir` (objects and common prefixes), sorted; `[]` when none. */
  async listDir(dir: string): Promise<string[]> {
    const key = this.key(dir);
    const names = new Set<string>();
    const Prefix = key === '' ? '' : `${key}/`;
    let ContinuationToken: string | undefined;
    do {
      const list = new ListObjectsV2Command({ Bucket: this.bucket, Prefix, Delimiter: '/', ContinuationToken });
      const page = (await this.#send<ListObjectsV2CommandOutput>('READ_FAILED', dir, list))!;
      for (const { Prefix: p } of page.CommonPrefixes ?? []) if (p) names.add(lastSegment(p.slice(0, -1)));
      for (const { Key } of page.Contents ?? []) if (Key && Key !== Prefix) names.add(lastSegment(Key));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
    names.delete('');
    return [...names].sort();
  }

  /** The size in bytes of the object at `path` (`HeadObject`), or `undefined` when there is none. */
  async size(path: string): Promise<number | undefined> {
    return (await this.#head(path))?.size;
  }

  /**
   * Bytes `start..end` of the object at `path` (fewer at its end): one ranged
   * `GetObject`. A range from past the end is empty; a missing object is `READ_FAILED`.
   */
  async readRange(path: string, start: number, end: number): Promise<Uint8Array> {
    const Key = this.key(path);
    const from = Math.max(0, Math.floor(start));
    if (!(end > from)) return new Uint8Array(0);
    const Range = `bytes=${from}-${Math.ceil(end) - 1}`;
    const get = new GetObjectCommand({ Bucket: this.bucket, Key, Range });
    // S3 answers 416 to a range starting at or past the end; the contract says it reads
    // as nothing. Only then is the size asked for.
    const got = await this.#send<GetObjectCommandOutput>('READ_FAILED', path, get, isPastEnd);
    if (got === undefined) {
      const size = await this.size(path);
      if (size !== undefined && from >= size) return new Uint8Array(0);
      throw offloadError('READ_FAILED', `range ${Range} of ${this.#where(Key)} refused`, path);
    }
    return this.#body(path, got.Body);
  }

  /** Size, modification time and kind of `path`, or `undefined` when nothing is there (retention). */
  async stat(path: string): Promise<{ size: number; modifiedMs: number; isDir: boolean } | undefined> {
    const file = this.key(path) === '' ? undefined : await this.#head(path);
    if (file !== undefined) return { size: file.size, modifiedMs: file.modifiedMs, isDir: false };
    // A "directory" is a key prefix with objects under it; it has no time.
    return (await this.listDir(path)).length > 0 ? { size: 0, modifiedMs: 0, isDir: true } : undefined;
  }

  /** Remove the object at `path` (`DeleteObject`); nothing there is not an error (retention). */
  async remove(path: string): Promise<void> {
    const Key = this.key(path);
    await this.#send('WRITE_FAILED', path, new DeleteObjectCommand({ Bucket: this.bucket, Key }), isNotFound);
  }

  /** The whole object at `path`, or `undefined` when there is none. */
  async #get(path: string): Promise<Uint8Array | undefined> {
    const Key = this.key(path);
    const got = await this.#send<GetObjectCommandOutput>(
      'READ_FAILED',
      path,
      new GetObjectCommand({ Bucket: this.bucket, Key }),
      isNotFound,
    );
    return got === undefined ? undefined : this.#body(path, got.Body);
  }

  async #head(path: string): Promise<{ size: number; modifiedMs: number } | undefined> {
    const Key = this.key(path);
    const head = new HeadObjectCommand({ Bucket: this.bucket, Key });
    const got = await this.#send<HeadObjectCommandOutput>('READ_FAILED', path, head, isNotFound);
    if (got === undefined) return undefined;
    return { size: got.ContentLength ?? 0, modifiedMs: got.LastModified?.getTime() ?? 0 };
  }

  async #body(path: string, body: { transformToByteArray(): Promise<Uint8Array> } | undefined): Promise<Uint8Array> {
    try {
      return body === undefined ? new Uint8Array(0) : await body.transformToByteArray();
    } catch (e) {
      throw requestError('READ_FAILED', path, `reading ${this.#where(this.key(path))}`, e, this.#signal);
    }
  }

  /**
   * One request: its output, or `undefined` when it failed in a way `expected` accepts
   * (a missing object, a taken name). Anything else is `code`, the SDK error as `cause`.
   */
  async #send<Output>(
    code: 'WRITE_FAILED' | 'READ_FAILED',
    path: string,
    command: Request,
    expected: (e: unknown) => boolean = () => false,
  ): Promise<Output | undefined> {
    if (this.#signal?.aborted) throw offloadError('ABORTED', 'S3Io: aborted', path, this.#signal.reason);
    try {
      // `send`'s overloads take no union of commands: callers name the output they asked for.
      return (await this.client.send(command as never, { abortSignal: this.#signal })) as Output;
    } catch (e) {
      if (expected(e)) return undefined;
      const key = 'Key' in command.input ? command.input.Key : command.input.Prefix;
      throw requestError(code, path, `${operation(command)} ${this.#where(key ?? '')}`, e, this.#signal);
    }
  }

  #where(key: string): string {
    return `s3://${this.bucket}/${key}`;
  }
}

/** The requests made. */
type Request = PutObjectCommand | GetObjectCommand | HeadObjectCommand | ListObjectsV2Command | DeleteObjectCommand;

/** The S3 operation a request is, for messages (class names do not survive minifiers). */
function operation(command: Request): string {
  if (command instanceof PutObjectCommand) return 'PutObject';
  if (command instanceof GetObjectCommand) return 'GetObject';
  if (command instanceof HeadObjectCommand) return 'HeadObject';
  if (command instanceof ListObjectsV2Command) return 'ListObjectsV2';
  return 'DeleteObject';
}

/** The decoded last segment of a key. */
function lastSegment(key: string): string {
  return decodeKeySegment(key.slice(key.lastIndexOf('/') + 1));
}

/** An object's body: text as UTF-8, bytes as they are. */
const bodyOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);
