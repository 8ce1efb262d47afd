// Behaviour of the npm package's offload API beyond the shared conformance vectors:
// process.cwd() resolution, real files, input immutability, error objects and messages,
// JavaScript-only values (BigInt, cycles, toJSON, undefined, lone surrogates) and the
// contract with injected writers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { NodeFileWriter, OffloadError, offloadToolResult, offloadToolResultToFile } from 'tool-offload';
import type { FileWriter, Message, OffloadResult } from 'tool-offload';
import { freshDir, offloadError, RecordingWriter } from './helpers.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const placeholder = (path: string): string => `[Tool result offloaded to file: ${path}]`;

/** A message with one Anthropic tool_result block. */
const toolResult = (content: unknown, id: unknown = 'toolu_1'): Message =>
  ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] }) as unknown as Message;

/** Every object and array reachable from `value`. */
function objectsIn(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value);
    for (const v of Object.values(value)) objectsIn(v, found);
  }
  return found;
}

test('offloadToolResultToFile resolves a relative outputDir against process.cwd() and writes exact bytes', async () => {
  const root = freshDir('cwd');
  const previous = process.cwd();
  try {
    const work = join(root, 'work');
    mkdirSync(work);
    process.chdir(work);

    // 300 astral characters are 600 UTF-16 code units; freedChars counts code units.
    const text = '😀'.repeat(300) + 'é\n\t"\\ done';
    const parts = [
      { type: 'text', text: 'part 😀 "quoted" \\ \u0001 \u2028' },
      { type: 'image', source: { data: 'AAAA' } },
    ];
    const message = {
      role: 'user',
      content: [
        { type: 'text', text: 'before' },
        { type: 'tool_result', tool_use_id: 'toolu_a', content: text },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: parts, is_error: true },
      ],
    } as Message;

    const result = await offloadToolResultToFile(message, { sessionId: 'sess-1', outputDir: '../artifacts/./x/..' });

    const dir = join(root, 'artifacts', 'sess-1');
    const fileA = join(dir, 'toolu_a.md');
    const fileB = join(dir, 'toolu_b.md');
    assert.deepEqual(result.files, [fileA, fileB]);
    assert.equal(result.file, fileA);
    assert.ok(result.files.every((f) => isAbsolute(f)));

    // Exact bytes on disk: the string as UTF-8, the array as JSON.stringify.
    assert.deepEqual(readFileSync(fileA), Buffer.from(text, 'utf8'));
    assert.deepEqual(readFileSync(fileB), Buffer.from(JSON.stringify(parts), 'utf8'));
    assert.deepEqual(readdirSync(dir).sort(), ['toolu_a.md', 'toolu_b.md']);
    assert.deepEqual(readdirSync(work), [], 'nothing is written relative to the cwd itself');

    assert.equal(text.length, 610);
    const expectedFreed = 610 - placeholder(fileA).length + (JSON.stringify(parts).length - placeholder(fileB).length);
    assert.equal(result.freedChars, expectedFreed);
    assert.deepEqual(result.message, {
      role: 'user',
      content: [
        { type: 'text', text: 'before' },
        { type: 'tool_result', tool_use_id: 'toolu_a', content: placeholder(fileA) },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: placeholder(fileB), is_error: true },
      ],
    });
  } finally {
    process.chdir(previous);
    rmSync(root, { recursive: true, force: true });
  }
});

test('offloadToolResultToFile follows the current cwd at call time (OpenAI tool message)', async () => {
  const root = freshDir('cwd2');
  const previous = process.cwd();
  try {
    mkdirSync(join(root, 'one'));
    mkdirSync(join(root, 'two'));
    const message: Message = { role: 'tool', tool_call_id: 'call_1', content: 'result' };
    process.chdir(join(root, 'one'));
    const first = await offloadToolResultToFile(message, { sessionId: 's', outputDir: 'out' });
    process.chdir(join(root, 'two'));
    const second = await offloadToolResultToFile(message, { sessionId: 's', outputDir: 'out' });
    assert.equal(first.file, join(root, 'one', 'out', 's', 'call_1.md'));
    assert.equal(second.file, join(root, 'two', 'out', 's', 'call_1.md'));
    assert.equal(readFileSync(first.file, 'utf8'), 'result');
    assert.equal(readFileSync(second.file, 'utf8'), 'result');
    assert.deepEqual(second.message, { role: 'tool', tool_call_id: 'call_1', content: placeholder(second.file) });
  } finally {
    process.chdir(previous);
    rmSync(root, { recursive: true, force: true });
  }
});

test('offloadToolResult without options.cwd resolves against process.cwd()', async () => {
  for (const options of [undefined, null, {}, { cwd: undefined }]) {
    const writer = new RecordingWriter();
    const result = await offloadToolResult(toolResult('abc'), 's', 'rel/out', writer, options);
    const dir = join(process.cwd(), 'rel', 'out', 's');
    assert.deepEqual(
      writer.calls,
      [
        ['mkdir', dir],
        ['writeFile', join(dir, 'toolu_1.md'), 'abc'],
      ],
      JSON.stringify(options),
    );
    assert.equal(result.file, join(dir, 'toolu_1.md'));
  }
  // options.cwd wins over process.cwd().
  const writer = new RecordingWriter();
  const result = await offloadToolResult(toolResult('abc'), 's', 'out', writer, { cwd: '/srv/app' });
  assert.equal(result.file, '/srv/app/out/s/toolu_1.md');
});

test('offloadToolResultToFile validates its options object', async () => {
  const root = freshDir('opts');
  const previous = process.cwd();
  try {
    process.chdir(root);
    const missing = await offloadError(offloadToolResultToFile(toolResult('x'), undefined as never));
    assert.equal(missing.code, 'INVALID_ID');
    assert.equal(missing.message, 'invalid sessionId: is missing');
    const noDir = await offloadError(offloadToolResultToFile(toolResult('x'), { sessionId: 's' } as never));
    assert.equal(noDir.code, 'INVALID_ARGUMENT');
    assert.equal(noDir.message, 'invalid argument: outputDir must be a string, got undefined');
    assert.deepEqual(readdirSync(root), []);
  } finally {
    process.chdir(previous);
    rmSync(root, { recursive: true, force: true });
  }
});

test('offloadToolResultToFile reports a real file-system failure as WRITE_FAILED', async () => {
  const root = freshDir('fsfail');
  try {
    writeFileSync(join(root, 'blocker'), 'a file, not a directory');
    const outputDir = join(root, 'blocker', 'out');
    const err = await offloadError(offloadToolResultToFile(toolResult('x'), { sessionId: 's', outputDir }));
    assert.equal(err.code, 'WRITE_FAILED');
    assert.equal(err.path, join(outputDir, 's'));
    assert.ok(err.cause instanceof Error);
    const cause = err.cause as NodeJS.ErrnoException;
    assert.equal(typeof cause.code, 'string');
    assert.equal(err.message, `failed to write ${join(outputDir, 's')}: ${cause.message}`);
    assert.equal(readFileSync(join(root, 'blocker'), 'utf8'), 'a file, not a directory');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the input message is not modified and the result shares no object with it', async () => {
  const message = {
    role: 'user',
    metadata: { tags: ['a', { deep: true }] },
    content: [
      { type: 'tool_use', id: 'toolu_1', name: 'grep', input: { pattern: 'x', opts: { flags: ['-r'] } } },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [{ type: 'text', text: 'hit', cache_control: { type: 'ephemeral' } }],
      },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'plain' },
    ],
  };
  const before = structuredClone(message);
  const result = await offloadToolResult(message as Message, 's', '/data', new RecordingWriter());
  assert.deepEqual(message, before);

  const shared = [...objectsIn(message)].filter((o) => objectsIn(result.message).has(o));
  assert.deepEqual(shared, [], 'no object or array of the input appears in the result');

  // Mutating the result leaves the input alone.
  const out = result.message as unknown as typeof message;
  out.metadata.tags.push('added');
  (out.metadata.tags[1] as { deep: boolean }).deep = false;
  (out.content[0] as { input: { opts: { flags: string[] } } }).input.opts.flags[0] = '-i';
  out.content.length = 0;
  assert.deepEqual(message, before);
  // …and the input's blocks still carry their original content.
  assert.equal(message.content[2]?.content, 'plain');
});

test('a failed call leaves the input message unchanged', async () => {
  const message = {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'first' },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'second' }] },
    ],
  };
  const before = structuredClone(message);
  const failing: FileWriter = {
    mkdir: async () => undefined,
    writeFile: async (path) => {
      if (path.endsWith('toolu_b.md')) throw new Error('disk full');
    },
  };
  const err = await offloadError(offloadToolResult(message as Message, 's', '/data', failing));
  assert.equal(err.code, 'WRITE_FAILED');
  assert.deepEqual(message, before);

  const invalid = {
    ...structuredClone(message),
    content: [...structuredClone(message).content, { type: 'tool_result', tool_use_id: '..', content: 'x' }],
  };
  const invalidBefore = structuredClone(invalid);
  await offloadError(offloadToolResult(invalid as Message, 's', '/data', new RecordingWriter()));
  assert.deepEqual(invalid, invalidBefore);
});

test('errors are OffloadError instances, real Errors, with exact messages', async (t) => {
  const writer = new RecordingWriter();
  const cases: { name: string; call: () => Promise<OffloadResult>; code: string; message: string }[] = [
    {
      name: 'no tool result',
      call: () => offloadToolResult({ role: 'user', content: 'just text' }, 's', '/out', writer),
      code: 'NO_TOOL_RESULT',
      message:
        'message has no tool result: expected a "tool_result" content block (Anthropic), a message with role "tool" (OpenAI Chat) or a "function_call_output" item (OpenAI Responses)',
    },
    {
      name: 'sessionId ..',
      call: () => offloadToolResult(toolResult('x'), '..', '/out', writer),
      code: 'INVALID_ID',
      message: 'invalid sessionId "..": is a relative path component ("." or "..")',
    },
    {
      name: 'missing tool_use_id',
      call: () =>
        offloadToolResult(
          { role: 'user', content: [{ type: 'tool_result', content: 'x' }] } as unknown as Message,
          's',
          '/out',
          writer,
        ),
      code: 'INVALID_ID',
      message: 'invalid content[0].tool_use_id: is missing',
    },
    {
      name: 'content 42',
      call: () => offloadToolResult(toolResult(42), 's', '/out', writer),
      code: 'INVALID_MESSAGE',
      message: 'invalid message: content[0].content must be a string or an array of content blocks, got a number',
    },
    {
      name: 'writer without methods',
      call: () => offloadToolResult(toolResult('x'), 's', '/out', {} as FileWriter),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
    },
    {
      name: 'writer with only mkdir',
      call: () =>
        offloadToolResult(toolResult('x'), 's', '/out', { mkdir: async () => undefined } as unknown as FileWriter),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
    },
    {
      name: 'writer with a non-function writeFile',
      call: () =>
        offloadToolResult(toolResult('x'), 's', '/out', {
          mkdir: async () => undefined,
          writeFile: 'nope',
        } as unknown as FileWriter),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
    },
    {
      name: 'writer null',
      call: () => offloadToolResult(toolResult('x'), 's', '/out', null as unknown as FileWriter),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
    },
    {
      name: 'outputDir number',
      call: () => offloadToolResult(toolResult('x'), 's', 42 as unknown as string, writer),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: outputDir must be a string, got number',
    },
    {
      name: 'outputDir null',
      call: () => offloadToolResult(toolResult('x'), 's', null as unknown as string, writer),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: outputDir must be a string, got null',
    },
    {
      name: 'relative options.cwd',
      call: () => offloadToolResult(toolResult('x'), 's', 'out', writer, { cwd: 'relative/dir' }),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: working directory must be an absolute path, got "relative/dir"',
    },
    {
      name: 'non-string options.cwd',
      call: () => offloadToolResult(toolResult('x'), 's', 'out', writer, { cwd: 7 as unknown as string }),
      code: 'INVALID_ARGUMENT',
      message: 'invalid argument: options.cwd must be a string, got number',
    },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      let pending: Promise<OffloadResult> | undefined;
      assert.doesNotThrow(() => {
        pending = c.call();
      }, 'errors are rejections, never synchronous throws');
      const err = await offloadError(pending!);
      assert.ok(err instanceof Error);
      assert.equal(err.name, 'OffloadError');
      assert.equal(err.code, c.code);
      assert.equal(err.message, c.message);
      assert.equal(typeof err.stack, 'string');
      assert.equal(Object.prototype.toString.call(err), '[object Error]');
      assert.equal(String(err), `OffloadError: ${c.message}`);
      assert.ok(!('path' in err), 'only WRITE_FAILED carries a path');
      assert.ok(!('cause' in err), 'no cause without a thrown JS value');
    });
  }
  assert.deepEqual(writer.calls, [], 'no failing call reached the writer');
});

test('OffloadError can be constructed by users', () => {
  const cause = new Error('root');
  const err = new OffloadError('custom', 'INVALID_ID', { cause });
  assert.ok(err instanceof OffloadError);
  assert.ok(err instanceof Error);
  assert.equal(err.name, 'OffloadError');
  assert.equal(err.code, 'INVALID_ID');
  assert.equal(err.message, 'custom');
  assert.equal(err.cause, cause);
});

test('a BigInt anywhere in the message is INVALID_MESSAGE, not a TypeError', async () => {
  const message = {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }],
    usage: { tokens: 10n },
  };
  const writer = new RecordingWriter();
  const err = await offloadError(offloadToolResult(message as unknown as Message, 's', '/out', writer));
  assert.equal(err.code, 'INVALID_MESSAGE');
  assert.ok(err.cause instanceof TypeError, 'the TypeError of JSON.stringify is kept as cause');
  assert.equal(err.message, `invalid message: message cannot be serialised as JSON: ${err.cause.message}`);
  assert.deepEqual(writer.calls, []);
});

test('a circular message is INVALID_MESSAGE, not a TypeError', async () => {
  const block: Record<string, unknown> = { type: 'tool_result', tool_use_id: 't', content: 'x' };
  const message = { role: 'user', content: [block] };
  block.parent = message;
  const writer = new RecordingWriter();
  const err = await offloadError(offloadToolResult(message as unknown as Message, 's', '/out', writer));
  assert.equal(err.code, 'INVALID_MESSAGE');
  assert.ok(err.cause instanceof TypeError);
  assert.equal(err.message, `invalid message: message cannot be serialised as JSON: ${err.cause.message}`);
  assert.match(err.message, /circular/i);
  assert.deepEqual(writer.calls, []);
});

test('a lone surrogate outside content and ids is kept as it was (content: lone-surrogates.test.ts)', async () => {
  // Other fields and keys are not written to files; the copy keeps them as they were.
  const elsewhere = { role: 'tool', tool_call_id: 'c', content: 'x', note: 'a\uDBFF', ['k\uD800']: 1 };
  const kept = await offloadToolResult(elsewhere as Message, 's', '/out', new RecordingWriter());
  assert.equal((kept.message as unknown as Record<string, unknown>).note, 'a\uDBFF');
  assert.equal((kept.message as unknown as Record<string, unknown>)['k\uD800'], 1);
  // A well-formed surrogate pair is fine.
  const ok = await offloadToolResult(toolResult('\uD83D\uDE00'), 's', '/out', new RecordingWriter());
  assert.equal(ok.freedChars, 2 - placeholder('/out/s/toolu_1.md').length);
});

test('toJSON and undefined properties behave as JSON.stringify', async () => {
  const content = [
    { type: 'text', text: 'a', cache_control: undefined, fn: () => 1 },
    { type: 'text', text: 'b', when: new Date(0), custom: { toJSON: () => ({ replaced: true }) } },
    undefined,
    () => 2,
  ];
  const message = {
    role: 'user',
    dropped: undefined,
    content: [
      { type: 'tool_use', id: 'toolu_1', name: 'n', input: { at: new Date(86_400_000), gone: undefined } },
      { type: 'tool_result', tool_use_id: 'toolu_1', content, extra: undefined },
    ],
  };
  const writer = new RecordingWriter();
  const result = await offloadToolResult(message as unknown as Message, 's', '/out', writer);

  const written = writer.files.get('/out/s/toolu_1.md');
  assert.equal(written, JSON.stringify(content));
  assert.equal(
    written,
    '[{"type":"text","text":"a"},{"type":"text","text":"b","when":"1970-01-01T00:00:00.000Z","custom":{"replaced":true}},null,null]',
  );
  assert.deepEqual(result.message, {
    role: 'user',
    content: [
      { type: 'tool_use', id: 'toolu_1', name: 'n', input: { at: '1970-01-02T00:00:00.000Z' } },
      { type: 'tool_result', tool_use_id: 'toolu_1', content: placeholder('/out/s/toolu_1.md') },
    ],
  });
  const out = result.message as unknown as { content: Record<string, unknown>[] };
  assert.ok(!('dropped' in out));
  assert.ok(!('extra' in out.content[1]!));
  assert.equal(result.freedChars, JSON.stringify(content).length - placeholder('/out/s/toolu_1.md').length);

  // Tool results are found in the message's own properties: a toJSON on the message
  // object itself is not consulted for that (it is everywhere something is serialised).
  const wrapped = { toJSON: () => ({ role: 'tool', tool_call_id: 'call_9', content: 'from toJSON' }) };
  const err = await offloadError(offloadToolResult(wrapped as unknown as Message, 's', '/out', writer));
  assert.equal(err.code, 'NO_TOOL_RESULT');
});

test('a toJSON that throws is INVALID_MESSAGE with what it threw as cause', async () => {
  const thrown = new RangeError('cannot serialise this');
  const message = {
    role: 'tool',
    tool_call_id: 'c',
    content: 'x',
    meta: {
      toJSON: () => {
        throw thrown;
      },
    },
  };
  const writer = new RecordingWriter();
  const err = await offloadError(offloadToolResult(message as unknown as Message, 's', '/out', writer));
  assert.equal(err.code, 'INVALID_MESSAGE');
  assert.equal(err.cause, thrown);
  assert.equal(err.message, 'invalid message: message cannot be serialised as JSON: cannot serialise this');
  assert.deepEqual(writer.calls, []);
});

test('a message that is undefined is INVALID_MESSAGE', async () => {
  const err = await offloadError(
    offloadToolResult(undefined as unknown as Message, 's', '/out', new RecordingWriter()),
  );
  assert.equal(err.code, 'INVALID_MESSAGE');
  assert.equal(err.message, 'invalid message: a message must be a JSON object, got undefined');
});

test('WRITE_FAILED carries the path and the exact error the writer rejected with', async () => {
  const original = Object.assign(new Error("EACCES: permission denied, open '/data/s/toolu_1.md'"), {
    code: 'EACCES',
    errno: -13,
  });
  const calls: string[] = [];
  const writer: FileWriter = {
    mkdir: async (dir) => void calls.push(`mkdir ${dir}`),
    writeFile: async (path) => {
      calls.push(`writeFile ${path}`);
      throw original;
    },
  };
  const err = await offloadError(offloadToolResult(toolResult('content'), 's', '/data', writer));
  assert.equal(err.code, 'WRITE_FAILED');
  assert.equal(err.name, 'OffloadError');
  assert.equal(err.path, '/data/s/toolu_1.md');
  assert.equal(err.cause, original);
  assert.ok(err.message.includes('/data/s/toolu_1.md'));
  assert.ok(err.message.includes(original.message));
  assert.equal(err.message, `failed to write /data/s/toolu_1.md: ${original.message}`);
  assert.deepEqual(calls, ['mkdir /data/s', 'writeFile /data/s/toolu_1.md']);
});

test('a string rejection becomes the WRITE_FAILED message and cause', async () => {
  const writer: FileWriter = { mkdir: async () => undefined, writeFile: () => Promise.reject('disk full') };
  const err = await offloadError(offloadToolResult(toolResult('x'), 's', '/data', writer));
  assert.equal(err.code, 'WRITE_FAILED');
  assert.equal(err.cause, 'disk full');
  assert.equal(err.message, 'failed to write /data/s/toolu_1.md: disk full');
});

test('a writer whose mkdir throws synchronously gives WRITE_FAILED for the directory', async () => {
  const thrown = new Error('read-only file system');
  let writes = 0;
  const writer = {
    mkdir(): Promise<void> {
      throw thrown;
    },
    async writeFile(): Promise<void> {
      writes++;
    },
  };
  const err = await offloadError(offloadToolResult(toolResult('x'), 'sess', '/data/out', writer));
  assert.equal(err.code, 'WRITE_FAILED');
  assert.equal(err.path, '/data/out/sess');
  assert.equal(err.cause, thrown);
  assert.equal(err.message, 'failed to write /data/out/sess: read-only file system');
  assert.equal(writes, 0);
});

test('a writer whose methods return plain values, not promises, works', async () => {
  const calls: unknown[][] = [];
  const writer = {
    mkdir(dir: string) {
      calls.push(['mkdir', dir]);
      return 'ignored';
    },
    writeFile(path: string, data: string) {
      calls.push(['writeFile', path, data]);
      return 42;
    },
  };
  const result = await offloadToolResult(toolResult('plain'), 's', '/data', writer as unknown as FileWriter);
  assert.deepEqual(calls, [
    ['mkdir', '/data/s'],
    ['writeFile', '/data/s/toolu_1.md', 'plain'],
  ]);
  assert.equal(result.file, '/data/s/toolu_1.md');
});

test('writer methods are called with the writer as this', async () => {
  class Writer {
    readonly seen: string[] = [];
    async mkdir(dir: string) {
      this.seen.push(dir);
    }
    async writeFile(path: string) {
      this.seen.push(path);
    }
  }
  const writer = new Writer();
  await offloadToolResult(toolResult('x'), 's', '/d', writer);
  assert.deepEqual(writer.seen, ['/d/s', '/d/s/toolu_1.md']);
});

test('concurrent calls settle independently with their own path and cause', async () => {
  const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const writer = (fail: boolean, ms: number): FileWriter => ({
    mkdir: () => delay(ms),
    writeFile: async () => {
      await delay(ms);
      if (fail) throw new Error(`boom ${ms}`);
    },
  });
  const settled = await Promise.allSettled([
    offloadToolResult(toolResult('a', 'a'), 's', '/o', writer(true, 30)),
    offloadToolResult(toolResult('b', 'b'), 's', '/o', writer(false, 10)),
    offloadToolResult(toolResult('c', 'c'), 's', '/o', writer(true, 1)),
  ]);
  const outcome = settled.map((s) =>
    s.status === 'fulfilled'
      ? s.value.file
      : `${(s.reason as OffloadError).path} ${((s.reason as OffloadError).cause as Error).message}`,
  );
  assert.deepEqual(outcome, ['/o/s/a.md boom 30', '/o/s/b.md', '/o/s/c.md boom 1']);
});

test('validation happens before any write: nothing reaches the writer', async () => {
  const invalid: [string, Message, string, string, { cwd: string } | undefined][] = [
    [
      'unsafe id in second block',
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_ok', content: 'fine' },
          { type: 'tool_result', tool_use_id: 'a/b', content: 'bad' },
        ],
      },
      's',
      '/out',
      undefined,
    ],
    [
      'invalid content in second block',
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_ok', content: 'fine' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: { not: 'valid' } },
        ],
      } as unknown as Message,
      's',
      '/out',
      undefined,
    ],
    ['unsafe session id', toolResult('fine'), 'a/b', '/out', undefined],
    ['relative cwd', toolResult('fine'), 's', 'out', { cwd: 'here' }],
    ['NUL in outputDir', toolResult('fine'), 's', '/out\0x', undefined],
  ];
  for (const [name, message, sessionId, outputDir, options] of invalid) {
    const writer = new RecordingWriter();
    await offloadError(offloadToolResult(message, sessionId, outputDir, writer, options));
    assert.deepEqual(writer.calls, [], name);
  }

  const err = await offloadError(offloadToolResult(invalid[0]![1], 's', '/out', new RecordingWriter()));
  assert.equal(err.message, 'invalid content[1].tool_use_id "a/b": contains "/"');

  // With the real writer, not even the session directory is created.
  const root = freshDir('validate');
  try {
    await offloadError(offloadToolResult(invalid[0]![1], 's', join(root, 'out'), new NodeFileWriter()));
    assert.deepEqual(readdirSync(root), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Product bug (wasm/src/error.rs, message_of): a thrown or rejected value that is neither
// an Error nor a string makes the wasm code call `unwrap_throw` on a failed string
// conversion. The exception escapes as an uncaught "called `Option::unwrap_throw()` on a
// `None` value" and the returned promise never settles. Run in a child process so the
// uncaught exception cannot take this test process down. Worse, every other call in
// flight at that moment (even one with a healthy writer) never settles either.
test('a writer rejecting with a non-Error, non-string value still gives WRITE_FAILED', { timeout: 20_000 }, () => {
  const script = `
    const { offloadToolResult } = require('tool-offload');
    const message = { role: 'tool', tool_call_id: 'c', content: 'x' };
    const values = { undefined: undefined, null: null, number: 42, object: { reason: 'quota' }, symbol: Symbol('s') };
    const uncaught = [];
    process.on('uncaughtException', (e) => uncaught.push(e.message));
    const outcomes = {};
    const runs = Object.entries(values).map(([name, value]) => {
      const pending = offloadToolResult(message, 's', '/o', { mkdir() {}, writeFile: () => Promise.reject(value) });
      const timeout = new Promise((resolve) => setTimeout(() => resolve('pending'), 1000));
      return Promise.race([pending.then(() => 'resolved', (e) => e.code + (e.cause === value ? ' cause kept' : ' cause lost')), timeout])
        .then((o) => { outcomes[name] = o; });
    });
    const healthy = offloadToolResult({ ...message, tool_call_id: 'ok' }, 's', '/o', { mkdir() {}, writeFile() {} });
    runs.push(Promise.race([healthy.then((r) => 'resolved ' + r.file, (e) => 'rejected ' + e.code), new Promise((resolve) => setTimeout(() => resolve('pending'), 1000))])
      .then((o) => { outcomes.healthy = o; }));
    Promise.all(runs).then(() => console.log(JSON.stringify({ outcomes, uncaught })));
  `;
  const child = spawnSync(process.execPath, ['-e', script], { cwd: repo, encoding: 'utf8', timeout: 15_000 });
  assert.equal(child.status, 0, child.stderr);
  const { outcomes, uncaught } = JSON.parse(child.stdout) as { outcomes: Record<string, string>; uncaught: string[] };
  assert.deepEqual(uncaught, []);
  assert.equal(outcomes.healthy, 'resolved /o/s/ok.md', 'a concurrent call with a working writer');
  for (const name of ['undefined', 'null', 'number', 'object', 'symbol']) {
    assert.equal(outcomes[name], 'WRITE_FAILED cause kept', name);
  }
});

// Same bug as above, reached through JSON.stringify (wasm/src/convert.rs → message_of).
test('a toJSON throwing a non-Error value is INVALID_MESSAGE', { timeout: 20_000 }, () => {
  const script = `
    const { offloadToolResult } = require('tool-offload');
    const uncaught = [];
    process.on('uncaughtException', (e) => uncaught.push(e.message));
    const message = { role: 'tool', tool_call_id: 'c', content: 'x', meta: { toJSON() { throw 42; } } };
    const pending = offloadToolResult(message, 's', '/o', { mkdir() {}, writeFile() {} });
    const timeout = new Promise((resolve) => setTimeout(() => resolve('pending'), 1000));
    Promise.race([pending.then(() => 'resolved', (e) => e.code + ' ' + e.cause), timeout])
      .then((outcome) => console.log(JSON.stringify({ outcome, uncaught })));
  `;
  const child = spawnSync(process.execPath, ['-e', script], { cwd: repo, encoding: 'utf8', timeout: 15_000 });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), { outcome: 'INVALID_MESSAGE 42', uncaught: [] });
});
