// The IO contract (docs/io-contract.md) as observations, for the package's own writers
// that run in more than one place: MemoryWriter (Node and Chromium) and OpfsWriter
// (Chromium). Each runs `observeWriter` on an empty writer and must give `EXPECTED`.
// No Node API here: the browser tests bundle this module.

/** The writer methods the contract covers. */
export interface ContractWriter {
  mkdir(dir: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
  createFile(path: string, data: string): Promise<boolean>;
  readFile(path: string): Promise<string | undefined>;
  listDir(dir: string): Promise<string[]>;
  size(path: string): Promise<number | undefined>;
  readRange(path: string, start: number, end: number): Promise<Uint8Array>;
  stat(path: string): Promise<{ size: number; modifiedMs: number; isDir: boolean } | undefined>;
  remove(path: string): Promise<void>;
}

type Observed = unknown;

/** A call's result, or `{ error: code }` (`NOT AN OFFLOAD ERROR` for anything else). */
async function observe(call: () => Promise<unknown>, OffloadError: Function): Promise<Observed> {
  try {
    const value = await call();
    if (value instanceof Uint8Array) return { bytes: Array.from(value) };
    return value === undefined ? 'undefined' : value;
  } catch (e) {
    return e instanceof OffloadError
      ? { error: (e as { code: string }).code }
      : { error: `NOT AN OFFLOAD ERROR: ${e}` };
  }
}

/** What every call of the contract gives on an empty writer, in order. */
export async function observeWriter(w: ContractWriter, OffloadError: Function): Promise<Record<string, Observed>> {
  const o = (call: () => Promise<unknown>) => observe(call, OffloadError);
  const seen: Record<string, Observed> = {};
  seen.readMissing = await o(() => w.readFile('/a/b.txt'));
  seen.listMissing = await o(() => w.listDir('/a'));
  seen.sizeMissing = await o(() => w.size('/a/b.txt'));
  seen.statMissing = await o(() => w.stat('/a'));
  seen.rangeMissing = await o(() => w.readRange('/a/b.txt', 0, 1));
  seen.writeWithoutDir = await o(() => w.writeFile('/a/b.txt', 'x'));
  seen.createWithoutDir = await o(() => w.createFile('/a/b.txt', 'x'));
  seen.mkdir = await o(() => w.mkdir('/a/deep/er'));
  seen.mkdirAgain = await o(() => w.mkdir('/a/deep'));
  seen.relative = await o(() => w.writeFile('a/b.txt', 'x'));
  seen.dotdot = await o(() => w.writeFile('/a/../b.txt', 'x'));
  seen.dot = await o(() => w.readFile('/a/./b.txt'));
  seen.write = await o(() => w.writeFile('/a/b.txt', 'h\u00e9llo'));
  seen.read = await o(() => w.readFile('/a/b.txt'));
  seen.size = await o(() => w.size('/a/b.txt'));
  seen.replace = await o(() => w.writeFile('/a/b.txt', 'short'));
  seen.readReplaced = await o(() => w.readFile('//a//b.txt'));
  seen.createTaken = await o(() => w.createFile('/a/b.txt', 'other'));
  seen.afterCreateTaken = await o(() => w.readFile('/a/b.txt'));
  seen.create = await o(() => w.createFile('/a/c.txt', '\ufeffbom \ud83d\ude00 lone \ud800 end'));
  seen.readCreated = await o(() => w.readFile('/a/c.txt'));
  seen.sizeCreated = await o(() => w.size('/a/c.txt'));
  seen.range = await o(() => w.readRange('/a/c.txt', 3, 9));
  seen.rangePastEnd = await o(() => w.readRange('/a/c.txt', 20, 100));
  seen.rangeFarPastEnd = await o(() => w.readRange('/a/c.txt', 100, 200));
  const creates = await Promise.all(Array.from({ length: 8 }, (_, i) => w.createFile('/a/race.txt', `writer ${i}`)));
  seen.concurrentCreates = creates.filter(Boolean).length;
  seen.raceContent = (await w.readFile('/a/race.txt')) === `writer ${creates.indexOf(true)}`;
  seen.writeOverDir = await o(() => w.writeFile('/a/deep', 'x'));
  seen.mkdirThroughFile = await o(() => w.mkdir('/a/b.txt/sub'));
  seen.list = await o(() => w.listDir('/a'));
  seen.listRoot = await o(() => w.listDir('/'));
  const stat = (await w.stat('/a/b.txt'))!;
  seen.statFile = { size: stat.size, isDir: stat.isDir, recent: Math.abs(Date.now() - stat.modifiedMs) < 600_000 };
  seen.statDir = await o(() => w.stat('/a/deep'));
  seen.statRoot = await o(() => w.stat('/'));
  seen.remove = await o(() => w.remove('/a/b.txt'));
  seen.removeMissing = await o(() => w.remove('/a/b.txt'));
  seen.afterRemove = await o(() => w.readFile('/a/b.txt'));
  seen.listAfterRemove = await o(() => w.listDir('/a'));
  return seen;
}

/** What `observeWriter` must give: core's MemoryWriter's rules, in JavaScript terms. */
export const EXPECTED: Record<string, Observed> = {
  readMissing: 'undefined',
  listMissing: [],
  sizeMissing: 'undefined',
  statMissing: 'undefined',
  rangeMissing: { error: 'READ_FAILED' },
  writeWithoutDir: { error: 'WRITE_FAILED' },
  createWithoutDir: { error: 'WRITE_FAILED' },
  mkdir: 'undefined',
  mkdirAgain: 'undefined',
  relative: { error: 'INVALID_ARGUMENT' },
  dotdot: { error: 'INVALID_ARGUMENT' },
  dot: { error: 'INVALID_ARGUMENT' },
  write: 'undefined',
  read: 'h\u00e9llo',
  size: 6,
  replace: 'undefined',
  readReplaced: 'short',
  createTaken: false,
  afterCreateTaken: 'short',
  create: true,
  // A lone surrogate is stored as U+FFFD; a leading BOM is content.
  readCreated: '\ufeffbom \ud83d\ude00 lone \ufffd end',
  sizeCreated: 24,
  // Bytes 3..9: after the BOM's three, `bom ` and half the emoji (ranges are bytes, not characters).
  range: { bytes: [98, 111, 109, 32, 240, 159] },
  rangePastEnd: { bytes: [32, 101, 110, 100] },
  rangeFarPastEnd: { bytes: [] },
  concurrentCreates: 1,
  raceContent: true,
  writeOverDir: { error: 'WRITE_FAILED' },
  mkdirThroughFile: { error: 'WRITE_FAILED' },
  list: ['b.txt', 'c.txt', 'deep', 'race.txt'],
  listRoot: ['a'],
  statFile: { size: 5, isDir: false, recent: true },
  statDir: { size: 0, modifiedMs: 0, isDir: true },
  statRoot: { size: 0, modifiedMs: 0, isDir: true },
  remove: 'undefined',
  removeMissing: 'undefined',
  afterRemove: 'undefined',
  listAfterRemove: ['c.txt', 'deep', 'race.txt'],
};

/**
 * What `observeWriter` gives on an object store (the npm package's `S3Io`, like the Rust
 * host's `ObjectStoreIo`): there are no directories, so a write needs none and nothing is
 * "in the way"; a directory is only a key prefix with objects under it. Everything else
 * as {@link EXPECTED}. `statDir` is the object `writeOverDir` put at `/a/deep` (its
 * time, checked to be recent, is replaced by `'recent'`).
 */
export const OBJECT_STORE_EXPECTED: Record<string, Observed> = {
  ...EXPECTED,
  writeWithoutDir: 'undefined',
  // The write before it put the object.
  createWithoutDir: false,
  writeOverDir: 'undefined',
  mkdirThroughFile: 'undefined',
  statDir: { size: 1, modifiedMs: 'recent', isDir: false },
};
