// The npm package's Materializer against the contract of the materialization issue:
// thresholds (exactly at and one over each limit, multibyte text where bytes trip before
// chars), `.json` vs `.txt`, the artifact on disk, read/tail/grep pages (pinned verbatim
// to the strings core's doc tests and the tokio host's tests expect), scope and pattern
// errors, concurrency, stats and the logger.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Materializer, NodeFileWriter, OffloadError, ToolRegistry } from 'tool-offload';
import type { FileReader, MaterializeLogEntry, MaterializeResult } from 'tool-offload';
import { freshDir, offloadError as rejected, RecordingWriter } from './helpers.ts';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

type Artifact = Extract<MaterializeResult, { inline: false }>;

/** A materializer over a fresh directory with the NodeFileWriter. */
function fresh(options: { conversationId?: string; maxInlineChars?: number; maxInlineBytes?: number } = {}) {
  const userData = freshDir('materialize');
  const m = new Materializer({ userData, conversationId: 'conv-1', ...options });
  const artifacts = join(userData, 'context', options.conversationId ?? 'conv-1', 'artifacts', 'tool');
  return { m, userData, artifacts };
}

/** The result, which must be an artifact. */
function artifact(result: MaterializeResult): Artifact {
  assert.equal(result.inline, false, 'expected the output to be materialized');
  return result as Artifact;
}

/** The tokio host's test log: 3000 lines, one compiler error at line 1234. */
const buildLog = (): string =>
  Array.from({ length: 3000 }, (_, i) =>
    i + 1 === 1234 ? 'error[E0308]: mismatched types' : `   Compiling crate_${i + 1}`,
  ).join('\n');

/** A reader over an in-memory map. */
class MapReader implements FileReader {
  constructor(readonly files: Map<string, string>) {}
  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }
  async listDir(): Promise<string[]> {
    return [];
  }
}

/** A recording writer that reads back what it wrote. */
class ReadingWriter extends RecordingWriter implements FileReader {
  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }
  async listDir(): Promise<string[]> {
    return [];
  }
}

// ---------------------------------------------------------------------------------------
// Thresholds
// ---------------------------------------------------------------------------------------

test('inline at exactly maxInlineChars (4000), materialized one over', async () => {
  const { m, artifacts } = fresh();
  const at = 'a'.repeat(4000);
  const inline = await m.materialize({ toolCallId: 'at', toolName: 't', output: at });
  assert.deepEqual(inline, { inline: true, content: at });
  const over = artifact(await m.materialize({ toolCallId: 'over', toolName: 't', output: 'a'.repeat(4001) }));
  assert.equal(over.path, join(artifacts, 'over.txt'));
  assert.deepEqual(over.ref.hint, {
    toolName: 't',
    toolCallId: 'over',
    bytes: 4001,
    chars: 4001,
    lines: 1,
    isJson: false,
  });
});

test('chars are UTF-16 code units: 2000 emoji are 4000 units (inline), 2001 are over', async () => {
  const { m } = fresh();
  assert.equal((await m.materialize({ toolCallId: 'a', toolName: 't', output: '😀'.repeat(2000) })).inline, true);
  const over = artifact(await m.materialize({ toolCallId: 'b', toolName: 't', output: '😀'.repeat(2001) }));
  assert.deepEqual([over.ref.hint.chars, over.ref.hint.bytes], [4002, 8004]);
});

test('bytes trip before chars with multibyte text: exactly at and one over maxInlineBytes (16384)', async () => {
  // At the defaults the bytes limit can never trip first: UTF-8 takes at most 3 bytes per
  // UTF-16 unit, so 4000 units are at most 12000 bytes. Raise the chars limit to isolate it.
  const { m } = fresh({ maxInlineChars: 100_000 });
  const at = '€'.repeat(5461) + 'a'; // 5462 chars, 16384 bytes
  assert.equal(Buffer.byteLength(at), 16384);
  assert.equal((await m.materialize({ toolCallId: 'at', toolName: 't', output: at })).inline, true);
  const over = artifact(await m.materialize({ toolCallId: 'over', toolName: 't', output: at + 'a' }));
  assert.deepEqual([over.ref.hint.chars, over.ref.hint.bytes], [5463, 16385]);
  // And with a low bytes limit under default chars: 501 "é" are 501 chars but 1002 bytes.
  const low = fresh({ maxInlineBytes: 1000 }).m;
  const e = artifact(await low.materialize({ toolCallId: 'e', toolName: 't', output: 'é'.repeat(501) }));
  assert.deepEqual([e.ref.hint.chars, e.ref.hint.bytes], [501, 1002]);
  assert.equal((await low.materialize({ toolCallId: 'f', toolName: 't', output: 'é'.repeat(500) })).inline, true);
});

test('an inline output is handed back as the very value given', async () => {
  const { m } = fresh();
  const value = { ok: true, rows: [1, 2, 3] };
  const result = await m.materialize({ toolCallId: 'v', toolName: 't', output: value });
  assert.equal(result.inline, true);
  assert.equal(result.content, value);
});

// ---------------------------------------------------------------------------------------
// Artifacts: .json vs .txt, content on disk, the ref
// ---------------------------------------------------------------------------------------

test('values and JSON-looking strings go to .json, other text to .txt; the file holds the output', async () => {
  const { m, artifacts } = fresh();
  const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, v: 1.0, name: `row ${i}` }));
  const array = artifact(await m.materialize({ toolCallId: 'arr', toolName: 'db', serverName: 'pg', output: rows }));
  assert.equal(array.path, join(artifacts, 'arr.json'));
  assert.equal(array.ref.id, 'ctx://conv-1/tool/arr.json');
  assert.equal(readFileSync(array.path, 'utf8'), JSON.stringify(rows));
  assert.ok(readFileSync(array.path, 'utf8').startsWith('[{"id":0,"v":1,'));
  assert.deepEqual(array.ref, {
    kind: 'artifact',
    id: 'ctx://conv-1/tool/arr.json',
    hint: {
      toolName: 'db',
      serverName: 'pg',
      toolCallId: 'arr',
      bytes: Buffer.byteLength(JSON.stringify(rows)),
      chars: JSON.stringify(rows).length,
      lines: 1,
      isJson: true,
    },
  });

  const object = { data: 'z'.repeat(5000) };
  const obj = artifact(await m.materialize({ toolCallId: 'obj', toolName: 't', output: object }));
  assert.equal(obj.path, join(artifacts, 'obj.json'));
  assert.equal(readFileSync(obj.path, 'utf8'), JSON.stringify(object));

  const jsonText = `  ${JSON.stringify(rows, null, 2)}\n`;
  const str = artifact(await m.materialize({ toolCallId: 'str', toolName: 't', output: jsonText }));
  assert.equal(str.path, join(artifacts, 'str.json'));
  assert.equal(str.ref.hint.isJson, true);
  assert.equal(readFileSync(str.path, 'utf8'), jsonText);

  const notJson = `{ not json ${'q'.repeat(5000)}`;
  const txt = artifact(await m.materialize({ toolCallId: 'txt', toolName: 't', output: notJson }));
  assert.equal(txt.path, join(artifacts, 'txt.txt'));
  assert.equal(txt.ref.hint.isJson, false);
  assert.equal(readFileSync(txt.path, 'utf8'), notJson);

  // A big JSON string value is a string of JSON text: `.json`, written as `JSON.stringify` gives it.
  const quoted = artifact(await m.materialize({ toolCallId: 'q', toolName: 't', output: { s: 'é😀'.repeat(3000) } }));
  assert.equal(readFileSync(quoted.path, 'utf8'), JSON.stringify({ s: 'é😀'.repeat(3000) }));
});

test('the summary points at the ref first, stays under maxInlineChars and the ref reads back at once', async () => {
  const { m } = fresh();
  const log = buildLog();
  const result = artifact(
    await m.materialize({ toolCallId: 'call_1', toolName: 'cargo', serverName: 'ci', output: log }),
  );
  const [first] = result.content.split('\n');
  assert.ok(first!.includes('ctx://conv-1/tool/call_1.txt'), first);
  assert.ok(result.content.length < 4000, `${result.content.length}`);
  assert.ok(result.content.includes('1234| error[E0308]: mismatched types'));
  assert.ok(result.content.includes('context_tail("ctx://conv-1/tool/call_1.txt", 200)'));
  assert.equal(readFileSync(result.path, 'utf8'), log);
  const page = await m.read(result.ref.id);
  assert.ok(page.startsWith('[ctx://conv-1/tool/call_1.txt: lines 1-'), page.slice(0, 100));
  assert.ok(page.length <= 4000);
});

// ---------------------------------------------------------------------------------------
// Read-back: the same pages as the Rust core and the tokio host
// ---------------------------------------------------------------------------------------

test('read, tail and grep give the pages core and the tokio host give for the same input', async () => {
  const { m } = fresh();
  const { ref } = artifact(
    await m.materialize({ toolCallId: 'call_1', toolName: 'cargo', serverName: 'ci', output: buildLog() }),
  );
  // host-tokio/tests/materialize.rs
  assert.equal(
    await m.grep(ref.id, 'E0\\d+', { context: 0 }),
    '[ctx://conv-1/tool/call_1.txt: 1 matching row in 3,000 lines, with 0 rows of context; all shown.]\n1234| error[E0308]: mismatched types',
  );
  assert.ok((await m.grep(ref.id, 'ERROR', { ignoreCase: true, context: 0 })).includes('1234| error'));
  assert.equal(
    await m.grep(ref.id, 'ERROR', { context: 0 }),
    '[ctx://conv-1/tool/call_1.txt: 0 matching rows in 3,000 lines, with 0 rows of context; none.]',
  );
  assert.ok((await m.tail(ref.id, 1)).endsWith('3000|    Compiling crate_3000'));
  assert.ok((await m.read(ref.id, { offset: 1233, limit: 1 })).endsWith('1234| error[E0308]: mismatched types'));

  // Core's doc test of Materializer: the same conversation, call id and log.
  const doc = fresh().m;
  const log = artifact(await doc.materialize({ toolCallId: 'call_1', toolName: 'bash', output: 'x\n'.repeat(3000) }));
  assert.equal(log.ref.id, 'ctx://conv-1/tool/call_1.txt');
  assert.equal(
    await doc.tail(log.ref.id, 2),
    '[ctx://conv-1/tool/call_1.txt: lines 2999-3000 of 3,000, the end.]\n2999| x\n3000| x',
  );
});

test('read, tail and grep pages of small artifacts match core doc tests verbatim', async () => {
  // A 4-byte limit materializes tiny outputs; pages are still bounded by the 4000 chars.
  const userData = freshDir('materialize');
  const m = new Materializer({ userData, conversationId: 'c', maxInlineBytes: 4 });
  const x = artifact(await m.materialize({ toolCallId: 'x', toolName: 't', output: 'a\nb\nc\n' }));
  assert.equal(x.ref.id, 'ctx://c/tool/x.txt');
  assert.equal(
    await m.read(x.ref.id, { offset: 1, limit: 1 }),
    '[ctx://c/tool/x.txt: lines 2-2 of 3. More: context_read("ctx://c/tool/x.txt", 2)]\n2| b',
  );
  assert.equal(await m.read(x.ref.id), '[ctx://c/tool/x.txt: lines 1-3 of 3, the end.]\n1| a\n2| b\n3| c');

  const y = artifact(await m.materialize({ toolCallId: 'y', toolName: 't', output: 'a\nb\nc' }));
  assert.equal(await m.tail(y.ref.id, 2), '[ctx://c/tool/y.txt: lines 2-3 of 3, the end.]\n2| b\n3| c');

  const g = artifact(
    await m.materialize({ toolCallId: 'g', toolName: 't', output: 'ok\nerror: one\nok\nok\nok\nerror: two' }),
  );
  assert.equal(
    await m.grep(g.ref.id, 'error', { context: 1 }),
    '[ctx://c/tool/g.txt: 2 matching rows in 6 lines, with 1 row of context; all shown.]\n1| ok\n2| error: one\n3| ok\n--\n5| ok\n6| error: two',
  );
  // Defaults: context 2, so the two groups touch and are not separated.
  assert.equal(
    await m.grep(g.ref.id, 'error'),
    '[ctx://c/tool/g.txt: 2 matching rows in 6 lines, with 2 rows of context; all shown.]\n1| ok\n2| error: one\n3| ok\n4| ok\n5| ok\n6| error: two',
  );
  // maxMatches caps what is shown; a `g`-flag-free RegExp matches every row independently.
  assert.equal(
    await m.grep(g.ref.id, '^ok$', { context: 0, maxMatches: 2 }),
    '[ctx://c/tool/g.txt: 4 matching rows in 6 lines, with 0 rows of context; the first 2 shown; narrow the pattern to see others.]\n1| ok\n--\n3| ok',
  );
});

test('one huge line is read in numbered parts; offset past the end', async () => {
  const { m } = fresh();
  const { ref } = artifact(await m.materialize({ toolCallId: 'huge', toolName: 't', output: 'y'.repeat(10_000) }));
  const first = await m.read(ref.id);
  assert.ok(
    first.startsWith(`[${ref.id}: lines 1.1-1.1 of 1. More: context_read("${ref.id}", 0, part=2)]\n1.1| yyy`),
    first.slice(0, 120),
  );
  assert.ok(first.length <= 4000);
  assert.ok(
    (await m.read(ref.id, { offset: 0, part: 5 })).startsWith(`[${ref.id}: lines 1.5-1.5 of 1, the end.]\n1.5| `),
  );
  assert.equal(await m.read(ref.id, { offset: 99 }), `[${ref.id}: offset 99 is past the end: 1 line.]`);
});

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

test('an invalid pattern is INVALID_PATTERN with the reason in the message', async () => {
  const { m } = fresh();
  const { ref } = artifact(await m.materialize({ toolCallId: 'p', toolName: 't', output: buildLog() }));
  const err = await rejected(m.grep(ref.id, '('));
  assert.ok(err instanceof OffloadError && err instanceof Error);
  assert.equal(err.code, 'INVALID_PATTERN');
  assert.equal(err.message, `invalid pattern "(": found open group without closing ')'`);
  assert.ok(!('cause' in err), 'core compiles the pattern: no JS SyntaxError behind it');
});

test('refs of another conversation or outside the artifacts are REF_OUT_OF_SCOPE; a missing one REF_NOT_FOUND', async () => {
  const { m } = fresh();
  for (const ref of [
    'ctx://conv-2/tool/call_1.txt',
    'ctx://conv-1/tool/../x',
    'ctx://conv/tool/../x',
    'ctx://conv-1/other/a.txt',
    '/etc/passwd',
    '',
  ]) {
    const err = await rejected(m.read(ref));
    assert.equal(err.code, 'REF_OUT_OF_SCOPE', ref);
    assert.equal(
      err.message,
      ref.startsWith('ctx://')
        ? `ref ${JSON.stringify(ref)} is outside this conversation's artifacts`
        : `not a ctx:// ref: ${JSON.stringify(ref)}`,
    );
    assert.equal((await rejected(m.tail(ref))).code, 'REF_OUT_OF_SCOPE');
    assert.equal((await rejected(m.grep(ref, 'x'))).code, 'REF_OUT_OF_SCOPE');
  }
  const missing = await rejected(m.read('ctx://conv-1/tool/nope.txt'));
  assert.equal(missing.code, 'REF_NOT_FOUND');
  assert.equal(missing.message, 'no artifact for ref "ctx://conv-1/tool/nope.txt"');
});

test('unsafe ids are INVALID_ID; nothing is written', async () => {
  const { m, userData } = fresh();
  const err = await rejected(m.materialize({ toolCallId: '../x', toolName: 't', output: 'a'.repeat(5000) }));
  assert.equal(err.code, 'INVALID_ID');
  assert.match(err.message, /^invalid toolCallId "\.\.\/x": /);
  assert.equal(
    (await rejected(m.materialize({ toolName: 't', output: 'a'.repeat(5000) } as never))).message,
    'invalid toolCallId: is missing',
  );
  assert.throws(
    () => new Materializer({ userData, conversationId: '../c' }),
    (e: unknown) => e instanceof OffloadError && e.code === 'INVALID_ID',
  );
  assert.throws(
    () => new Materializer({ userData, conversationId: 7 as never }),
    (e: unknown) => e instanceof OffloadError && e.message === 'invalid conversationId: must be a string',
  );
});

test('a lone surrogate in a JSON value output is written escaped, as JSON.stringify writes it', async () => {
  const { m } = fresh();
  const value = { s: `${'x'.repeat(5000)}\uD800` };
  const ok = artifact(await m.materialize({ toolCallId: 'v', toolName: 't', output: value }));
  assert.equal(readFileSync(ok.path, 'utf8'), JSON.stringify(value));
});

test('invalid options and arguments are INVALID_ARGUMENT with a message naming them', async () => {
  const userData = freshDir('materialize');
  const bad = (options: unknown, message: string) =>
    assert.throws(
      () => new Materializer(options as never),
      (e: unknown) =>
        e instanceof OffloadError && e.code === 'INVALID_ARGUMENT' && e.message === `invalid argument: ${message}`,
    );
  bad(undefined, 'options must be an object with userData, conversationId and writer, got undefined');
  bad({ conversationId: 'c' }, 'options.userData must be a string, got undefined');
  bad(
    { userData, conversationId: 'c', maxInlineChars: -1 },
    'options.maxInlineChars must be a non-negative integer, got -1',
  );
  bad(
    { userData, conversationId: 'c', maxInlineBytes: 1.5 },
    'options.maxInlineBytes must be a non-negative integer, got 1.5',
  );
  bad(
    { userData, conversationId: 'c', snippetLines: '40' },
    'options.snippetLines must be a non-negative integer, got 40',
  );
  bad(
    { userData, conversationId: 'c', writer: {} },
    'options.writer must be an object with mkdir(dir) and writeFile(path, data) methods',
  );
  bad(
    { userData, conversationId: 'c', reader: {} },
    'options.reader must be an object with a readFile(path) method (and listDir(dir))',
  );
  bad({ userData, conversationId: 'c', logger: 'log' }, 'options.logger must be a function, got string');
  bad({ userData, conversationId: 'c', cwd: 'rel' }, 'working directory must be an absolute path, got "rel"');

  const m = new Materializer({ userData, conversationId: 'c', maxInlineChars: 0 });
  assert.deepEqual(m.options, {
    userData,
    conversationId: 'c',
    cwd: '/',
    maxInlineChars: 0,
    maxInlineBytes: 16384,
    snippetLines: 40,
  });
  assert.equal(m.conversationId, 'c');
  const { ref } = artifact(await m.materialize({ toolCallId: 'a', toolName: 't', output: 'x' }));
  const arg = async (promise: Promise<unknown>, message: string) => {
    const err = await rejected(promise);
    assert.equal(err.code, 'INVALID_ARGUMENT');
    assert.equal(err.message, `invalid argument: ${message}`);
  };
  await arg(m.read(ref.id, { offset: -1 }), 'options.offset must be a non-negative integer, got -1');
  await arg(m.read(ref.id, { limit: NaN }), 'options.limit must be a non-negative integer, got NaN');
  await arg(m.tail(ref.id, 2.5), 'lines must be a non-negative integer, got 2.5');
  await arg(m.grep(ref.id, 'x', { context: -2 }), 'options.context must be a non-negative integer, got -2');
  await arg(
    m.grep(ref.id, 'x', { maxMatches: Infinity }),
    'options.maxMatches must be a non-negative integer, got Infinity',
  );
  await arg(m.grep(ref.id, 'x', { ignoreCase: 'yes' as never }), 'options.ignoreCase must be a boolean, got yes');
  await arg(m.grep(ref.id, 5 as never), 'pattern must be a string, got number');
  await arg(m.read(5 as never), 'ref must be a string, got number');
  await arg(m.read(ref.id, 5 as never), 'options must be an object when given, got number');
  await arg(
    m.materialize({ toolCallId: 'b', toolName: 't', output: undefined }),
    'output must be a string or a JSON value, got undefined',
  );
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const err = await rejected(m.materialize({ toolCallId: 'b', toolName: 't', output: circular }));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.ok(err.cause instanceof TypeError);
  await arg(
    m.materialize({ toolCallId: 'b', toolName: 3 as never, output: 'x' }),
    'toolName must be a string, got number',
  );
  // A writer that cannot read, and no reader: materializing works, reading says why not.
  const writeOnly = new Materializer({
    userData,
    conversationId: 'c',
    writer: new RecordingWriter(),
    maxInlineChars: 0,
  });
  const written = artifact(await writeOnly.materialize({ toolCallId: 'w', toolName: 't', output: 'x' }));
  await arg(
    writeOnly.read(written.ref.id),
    'this Materializer cannot read: pass options.reader, an object with readFile(path) and listDir(dir)',
  );
});

test('reader and writer failures carry what was thrown as cause', async () => {
  const failure = new Error('EACCES: permission denied');
  const writer = new RecordingWriter({ writeFile: failure });
  const empty = { readFile: async () => undefined, listDir: async () => [] };
  const writing = new Materializer({ userData: '/virtual', conversationId: 'c', writer, reader: empty });
  const write = await rejected(writing.materialize({ toolCallId: 'a', toolName: 't', output: 'x'.repeat(5000) }));
  assert.equal(write.code, 'WRITE_FAILED');
  assert.equal(write.cause, failure);
  assert.equal(write.path, '/virtual/context/c/artifacts/tool/a.txt');
  const m = new Materializer({
    userData: '/virtual',
    conversationId: 'c',
    writer,
    reader: { readFile: async () => Promise.reject(failure), listDir: async () => [] },
  });
  // A writer without createFile: creating the artifact first asks the reader whether one
  // is there, and a failing reader stops it (creating failed, so WRITE_FAILED).
  const check = await rejected(m.materialize({ toolCallId: 'a', toolName: 't', output: 'x'.repeat(5000) }));
  assert.deepEqual(
    [check.code, check.cause, check.path],
    ['WRITE_FAILED', failure, '/virtual/context/c/artifacts/tool/a.txt'],
  );
  const read = await rejected(m.read('ctx://c/tool/a.txt'));
  assert.equal(read.code, 'READ_FAILED');
  assert.equal(read.cause, failure);
  assert.equal(read.path, '/virtual/context/c/artifacts/tool/a.txt');
  assert.equal(read.message, 'failed to read /virtual/context/c/artifacts/tool/a.txt: EACCES: permission denied');

  const wrong = new Materializer({
    userData: '/virtual',
    conversationId: 'c',
    writer,
    reader: { readFile: async () => 42 as never, listDir: async () => [] },
  });
  const notString = await rejected(wrong.tail('ctx://c/tool/a.txt'));
  assert.equal(notString.code, 'READ_FAILED');
  assert.equal(notString.cause, 42);
  assert.match(
    notString.message,
    /readFile must resolve to a string, or undefined when the file is missing; got number$/,
  );

  const nullReader = new Materializer({
    userData: '/virtual',
    conversationId: 'c',
    writer,
    reader: { readFile: async () => null as never, listDir: async () => [] },
  });
  assert.equal((await rejected(nullReader.read('ctx://c/tool/a.txt'))).code, 'REF_NOT_FOUND');
});

test('an injected writer is the reader when it can read', async () => {
  const writer = new ReadingWriter();
  const m = new Materializer({ userData: '/mem', conversationId: 'c', writer, maxInlineChars: 3 });
  const { ref, path } = artifact(await m.materialize({ toolCallId: 'a', toolName: 't', output: 'one\ntwo' }));
  assert.equal(await m.tail(ref.id, 1), '[ctx://c/tool/a.txt: lines 2-2 of 2, the end.]\n2| two');
  // An explicit reader wins over the writer.
  const other = new Materializer({
    userData: '/mem',
    conversationId: 'c',
    writer,
    reader: new MapReader(new Map([[path, 'zzz']])),
  });
  assert.equal(await other.read(ref.id), '[ctx://c/tool/a.txt: lines 1-1 of 1, the end.]\n1| zzz');
});

// ---------------------------------------------------------------------------------------
// Concurrency, stats, logger
// ---------------------------------------------------------------------------------------

test('20 parallel materialize calls (and reads) all succeed', async () => {
  const { m, artifacts } = fresh();
  const outputs = Array.from({ length: 20 }, (_, i) => `${i}\n`.repeat(3000));
  const results = await Promise.all(
    outputs.map((output, i) => m.materialize({ toolCallId: `call_${i}`, toolName: 't', output })),
  );
  results.forEach((result, i) => {
    const a = artifact(result);
    assert.equal(a.path, join(artifacts, `call_${i}.txt`));
    assert.equal(readFileSync(a.path, 'utf8'), outputs[i]);
  });
  const tails = await Promise.all(
    results.map((r, i) => m.tail(artifact(r).ref.id, 1).then((page) => [page, i] as const)),
  );
  for (const [page, i] of tails) assert.ok(page.endsWith(`3000| ${i}`), page);
  assert.deepEqual(m.stats().hits, 20);
});

test('stats count hits, inlined and saved chars', async () => {
  const { m } = fresh();
  assert.deepEqual(m.stats(), { hits: 0, inlined: 0, savedChars: 0, avgSavedChars: 0 });
  await m.materialize({ toolCallId: 'small', toolName: 't', output: 'ok' });
  const a = artifact(await m.materialize({ toolCallId: 'a', toolName: 't', output: 'a\n'.repeat(5000) }));
  const b = artifact(await m.materialize({ toolCallId: 'b', toolName: 't', output: 'b\n'.repeat(20000) }));
  const saved = 10000 - a.content.length + (40000 - b.content.length);
  assert.deepEqual(m.stats(), { hits: 2, inlined: 1, savedChars: saved, avgSavedChars: saved / 2 });
});

test('the logger is told about each materialization (not inline ones); a throwing logger is ignored', async () => {
  const entries: MaterializeLogEntry[] = [];
  const userData = freshDir('materialize');
  const m = new Materializer({
    userData,
    conversationId: 'conv-1',
    logger: (entry) => {
      entries.push(entry);
      throw new Error('logger broke');
    },
  });
  await m.materialize({ toolCallId: 'small', toolName: 't', output: 'ok' });
  assert.equal(entries.length, 0);
  const a = artifact(
    await m.materialize({ toolCallId: 'a', toolName: 'fetch', serverName: 'web', output: { page: 'p'.repeat(5000) } }),
  );
  const b = artifact(await m.materialize({ toolCallId: 'b', toolName: 'bash', output: 'line\n'.repeat(1000) }));
  assert.deepEqual(entries, [
    { ...a.ref.hint, path: a.path, ref: a.ref.id, summaryChars: a.content.length },
    { ...b.ref.hint, path: b.path, ref: b.ref.id, summaryChars: b.content.length },
  ]);
  assert.equal(entries[0]!.serverName, 'web');
  assert.equal('serverName' in entries[1]!, false);
  // A logger that rejects: no unhandled rejection, materialize still resolves.
  const rejecting = new Materializer({
    userData,
    conversationId: 'conv-1',
    logger: (async () => Promise.reject(new Error('async logger broke'))) as never,
  });
  assert.equal(
    (await rejecting.materialize({ toolCallId: 'c', toolName: 't', output: 'x'.repeat(5000) })).inline,
    false,
  );
});

test('getToolDefinitions gives the read-back tools in each format, the same as a registry holding them', () => {
  const materializer = new Materializer({ userData: freshDir('defs'), conversationId: 'c' });
  const registry = new ToolRegistry();
  materializer.registerTools(registry);
  for (const format of ['anthropic', 'openai-chat', 'openai-responses', 'mcp'] as const)
    assert.deepEqual(materializer.getToolDefinitions({ format }), registry.getToolDefinitions({ format }));
  assert.deepEqual(
    materializer.getToolDefinitions({ format: 'mcp' }).map((t) => t.name),
    ['context_read', 'context_tail', 'context_grep'],
  );
  assert.deepEqual(materializer.getToolDefinitions(), registry.getToolDefinitions());
});

test('summaries find failure words at any offset and in any ASCII case (the wasm scan)', async () => {
  // Each word stands alone, so the generic rules take it in any case; `ERROR` and
  // `FATAL` in capitals are root-cause candidates. Near misses never count.
  const words = ['error', 'exception', 'panic', 'fatal', 'fail', 'failed', 'failure'];
  const lines: string[] = [];
  for (const word of [...words, 'erro', 'exceptio', 'pa nic', 'fatAl', 'fai']) {
    for (let pad = 0; pad < 40; pad++) {
      for (const w of [word, word.toUpperCase()]) {
        lines.push(
          `${'x'.repeat(pad)} ${w}`,
          `${'é'.repeat(pad >> 1)} ${w} ${'y'.repeat(pad % 9)}`,
          `${'Er'.repeat(pad)}${w.slice(0, -1)}`,
        );
      }
    }
  }
  const found = lines.filter((line) => words.some((w) => line.toLowerCase().split(' ').includes(w)));
  const m = new Materializer({ userData: freshDir('scan'), conversationId: 'c' });
  const result = await m.materialize({ toolCallId: 'scan', toolName: 'bash', output: lines.join('\n') });
  assert.ok(!result.inline);
  const header = result.content.match(/\n--- errors: ([\d,]+) lines found; likely root cause at line (\d+) ---\n/);
  assert.ok(header, result.content);
  assert.equal(header[1], found.length.toLocaleString('en-US'));
  const root = Number(header[2]);
  assert.ok(found.includes(lines[root - 1]));
  assert.ok(result.content.includes(`\n${root}| ${lines[root - 1]}\n`), result.content);
});

test('the artifacts directory is made once, and made again when it was removed', async () => {
  const made: string[] = [];
  class CountingWriter extends NodeFileWriter {
    override async mkdir(dir: string): Promise<void> {
      made.push(dir);
      await super.mkdir(dir);
    }
  }
  const userData = freshDir('mkdir-once');
  const m = new Materializer({ userData, conversationId: 'c', writer: new CountingWriter() });
  const big = 'x\n'.repeat(5000);
  for (const id of ['a', 'b']) await m.materialize({ toolCallId: id, toolName: 't', output: big });
  const dir = join(userData, 'context', 'c', 'artifacts', 'tool');
  assert.deepEqual(made, [dir]);
  rmSync(join(userData, 'context'), { recursive: true });
  const again = await m.materialize({ toolCallId: 'c', toolName: 't', output: big });
  assert.ok(!again.inline && existsSync(join(dir, 'c.txt')));
  assert.deepEqual(made, [dir, dir]);
});

test('a page read back is never stored again, whatever its size', async () => {
  const userData = freshDir('page-loop');
  const big = new Materializer({ userData, conversationId: 'c', maxInlineChars: 40_000 });
  const log = Array.from({ length: 2700 }, (_, i) => `line ${i + 1} of the log`).join('\n');
  const stored = await big.materialize({ toolCallId: 'a', toolName: 'bash', output: log });
  assert.ok(!stored.inline);
  const page = await big.read(stored.ref.id, { offset: 0, limit: 900 });
  assert.ok(page.length > 4000, `${page.length}`);
  const small = new Materializer({ userData, conversationId: 'c' });
  assert.equal((await small.materialize({ toolCallId: 'b', toolName: 'bash', output: page })).inline, true);
  const messages = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: page }] }];
  const done = await small.materializeMessages(messages);
  assert.deepEqual(done.refs, []);
  assert.equal(done.messages[0], messages[0]);
});

test('page positions past 2^32 are INVALID_ARGUMENT, never wrapped round to the start', async () => {
  const m = new Materializer({ userData: freshDir('wrap'), conversationId: 'c' });
  const r = await m.materialize({ toolCallId: 'a', toolName: 'bash', output: 'line\n'.repeat(3000) });
  assert.ok(!r.inline);
  for (const options of [{ offset: 2 ** 32 + 1 }, { part: 2 ** 32 + 1 }, { limit: 2 ** 32 }]) {
    const err = await rejected(m.read(r.ref.id, options));
    assert.equal(err.code, 'INVALID_ARGUMENT', JSON.stringify(options));
    assert.match(err.message, /must be at most 4294967295, got 42949672/);
  }
  assert.equal((await rejected(m.tail(r.ref.id, 2 ** 32 + 1))).code, 'INVALID_ARGUMENT');
  // At the top of the range it is a position past the end, as on every host.
  assert.match(await m.read(r.ref.id, { offset: 2 ** 32 - 1 }), /past the end/);
});

test('tools: per-tool limits are read, shown back, and a bad entry is INVALID_ARGUMENT naming it', async () => {
  const userData = freshDir('materialize');
  const tools = { Read: { materialize: 'never' as const }, '*': { maxInlineChars: 100 } };
  const m = new Materializer({ userData, conversationId: 'conv-1', tools });
  assert.deepEqual(m.options.tools, tools);
  const big = 'x'.repeat(5000);
  const read = await m.materialize({ toolCallId: 'r', toolName: 'Read', output: big });
  assert.equal(read.inline, true);
  const other = await m.materialize({ toolCallId: 'g', toolName: 'grep', output: 'y'.repeat(101) });
  assert.equal(other.inline, false);
  for (const [bad, message] of [
    [
      { Read: { materialize: 'sometimes' } },
      'options.tools["Read"].materialize must be "never" or "always", got "sometimes"',
    ],
    [{ Read: { materialize: 1 } }, 'options.tools["Read"].materialize must be "never" or "always", got number'],
    [{ Read: 'never' }, 'options.tools["Read"] must be an object, got string'],
    [{ bash: { maxInlineChars: -1 } }, 'options.tools["bash"].maxInlineChars'],
    [['Read'], 'options.tools must be an object of tool names, got array'],
  ] as const) {
    let caught: unknown;
    try {
      new Materializer({ userData, conversationId: 'conv-1', tools: bad as never });
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof OffloadError, String(caught));
    assert.equal(caught.code, 'INVALID_ARGUMENT');
    assert.ok(caught.message.includes(message), caught.message);
  }
});
