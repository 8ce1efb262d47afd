// The npm package's ToolRegistry, registerTodoTools and offload middleware, against the
// contract of the issue: registration errors (codes and messages), executeTool on every
// path (unknown tool, output, reported error, throw, rejection, malformed output), the
// TodoWrite/TodoRead pair through executeTool, and offloading of large results through
// injected writers and the default NodeFileWriter. Exact strings are pinned verbatim:
// models and host code depend on them.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

import { OffloadError, registerTodoTools, ToolRegistry } from 'tool-offload';
import type { FileWriter, ToolDefinition, ToolHandler, ToolOutput, ToolResult } from 'tool-offload';
import { freshDir, offloadError as rejected, RecordingWriter } from './helpers.ts';
import * as wasm from '../wasm/tool_offload_wasm.js';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const MALFORMED = 'tool handler must return { content: string, is_error?: boolean }';
const placeholder = (path: string): string => `[Tool result offloaded to file: ${path}]`;

const def = (name: string, description = `The ${name} tool.`): ToolDefinition => ({
  name,
  description,
  input_schema: { type: 'object' },
});

/** A handler resolving to `content`. */
const ok =
  (content: string): ToolHandler =>
  async () => ({ content });

const names = (registry: wasm.ToolRegistry): string[] =>
  (registry.getToolDefinitions() as ToolDefinition[]).map((d) => d.name);

/** The OffloadError `fn` throws synchronously. */
function thrown(fn: () => unknown): OffloadError {
  let caught: unknown;
  assert.throws(fn, (e: unknown) => {
    caught = e;
    return true;
  });
  assert.ok(caught instanceof OffloadError, `expected an OffloadError, got ${String(caught)}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'OffloadError');
  return caught;
}

/** A registry offloading to `/virtual/out/s1` through `writer`, with tool `big` returning its `content` param. */
function offloading(writer: FileWriter, thresholdChars?: number): ToolRegistry {
  const registry = new ToolRegistry({
    offload: {
      outputDir: '/virtual/out',
      sessionId: 's1',
      writer,
      ...(thresholdChars === undefined ? {} : { thresholdChars }),
    },
  });
  registry.register(def('big'), async (params: { content: string; is_error?: boolean }) => ({ ...params }));
  return registry;
}

const todo = (content: unknown, status: unknown, activeForm: unknown) => ({ content, status, activeForm });

/** A registry with the todo tools and a runner returning each result's content. */
function todoRegistry() {
  const registry = new ToolRegistry();
  registerTodoTools(registry);
  let n = 0;
  const run = async (name: string, params: unknown): Promise<ToolResult> => {
    const id = `toolu_${++n}`;
    const result = await registry.executeTool(id, name, params);
    assert.equal(result.tool_use_id, id);
    return result;
  };
  const write = (params: unknown) => run('TodoWrite', params);
  const read = async () => {
    const result = await run('TodoRead', {});
    assert.equal('is_error' in result, false);
    return result.content;
  };
  return { registry, write, read };
}

// ---------------------------------------------------------------------------------------
// register: names
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// register: definitions and handlers
// ---------------------------------------------------------------------------------------

test('register rejects malformed definitions and handlers with INVALID_TOOL_DEFINITION', () => {
  const cases: [unknown, unknown, string][] = [
    [null, ok('x'), 'definition must be an object with name, description and input_schema'],
    [undefined, ok('x'), 'definition must be an object with name, description and input_schema'],
    ['echo', ok('x'), 'definition must be an object with name, description and input_schema'],
    [{ description: 'd', input_schema: { type: 'object' } }, ok('x'), 'name must be a string'],
    [{ name: 42, description: 'd', input_schema: { type: 'object' } }, ok('x'), 'name must be a string'],
    [{ name: 'echo', description: 5, input_schema: { type: 'object' } }, ok('x'), 'description must be a string'],
    [def('echo'), undefined, 'handler must be a function'],
    [def('echo'), { content: 'not a function' }, 'handler must be a function'],
    [def('echo'), 'echo', 'handler must be a function'],
  ];
  for (const [definition, handler, reason] of cases) {
    const registry = new ToolRegistry();
    const err = thrown(() => registry.register(definition as ToolDefinition, handler as ToolHandler));
    assert.equal(err.code, 'INVALID_TOOL_DEFINITION', reason);
    assert.equal(err.message, `invalid tool definition: ${reason}`);
    assert.deepEqual(registry.getToolDefinitions(), []);
  }
});

test('getTool returns { definition, handler } with the same handler, or undefined', () => {
  const registry = new ToolRegistry();
  const weather: ToolDefinition = {
    name: 'get_weather',
    description: 'Current weather.',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  };
  const handler = ok('sunny');
  registry.register(weather, handler);
  registry.register(def('other'), ok('other'));
  const tool = registry.getTool('get_weather');
  assert.ok(tool);
  assert.deepEqual(Object.keys(tool), ['definition', 'handler']);
  assert.equal(tool.handler, handler);
  assert.deepEqual(tool.definition, weather);
  assert.equal(registry.getTool('missing'), undefined);
  assert.equal(registry.getTool(''), undefined);
  assert.equal(new ToolRegistry().getTool('get_weather'), undefined);
});

test('getToolDefinitions: { name, description, input_schema } in registration order, copies', () => {
  const registry = new ToolRegistry();
  assert.deepEqual(registry.getToolDefinitions(), []);
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const weather = {
    name: 'get_weather',
    description: 'Current weather.',
    input_schema: schema,
    cache_control: { type: 'ephemeral' },
  };
  for (const name of ['zeta', 'alpha']) registry.register(def(name), ok(name));
  registry.register(weather as ToolDefinition, ok('w'));
  registry.register(def('Beta'), ok('B'));
  const definitions = registry.getToolDefinitions();
  assert.deepEqual(names(registry), ['zeta', 'alpha', 'get_weather', 'Beta']);
  assert.equal(
    JSON.stringify(definitions[2]),
    '{"name":"get_weather","description":"Current weather.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}',
  );
  for (const d of definitions) assert.deepEqual(Object.keys(d), ['name', 'description', 'input_schema']);

  // The registry keeps its own copy: mutating the input or an output changes nothing.
  schema.properties.city.type = 'number';
  weather.description = 'changed';
  definitions[2].input_schema.extra = true;
  definitions[2].name = 'renamed';
  assert.deepEqual(registry.getToolDefinitions()[2], {
    name: 'get_weather',
    description: 'Current weather.',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  });
  assert.notEqual(registry.getToolDefinitions()[2], registry.getToolDefinitions()[2]);
});

test('a definition without a description is registered with an empty one', () => {
  const registry = new ToolRegistry();
  registry.register({ name: 'bare', input_schema: { type: 'object' } } as ToolDefinition, ok('x'));
  assert.deepEqual(registry.getToolDefinitions(), [
    { name: 'bare', description: '', input_schema: { type: 'object' } },
  ]);
});

// ---------------------------------------------------------------------------------------
// executeTool
// ---------------------------------------------------------------------------------------

test('the handler receives exactly one argument, the params object itself, never the tool_use_id', async () => {
  const registry = new ToolRegistry();
  const seen: unknown[][] = [];
  registry.register(def('spy'), function (...args: unknown[]) {
    seen.push(args);
    return { content: 'ok' };
  });
  const params = { city: 'Paris', nested: { deep: [1, 2] } };
  const result = await registry.executeTool('toolu_secret', 'spy', params);
  assert.deepEqual(result, { type: 'tool_result', tool_use_id: 'toolu_secret', content: 'ok' });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].length, 1);
  assert.equal(seen[0][0], params, 'the same object, not a copy');
  assert.deepEqual(params, { city: 'Paris', nested: { deep: [1, 2] } }, 'params are not modified');

  // Any value is handed over as is.
  const array = [1, 2];
  for (const value of [array, 'text', 42, null, undefined]) {
    seen.length = 0;
    await registry.executeTool('toolu_2', 'spy', value);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].length, 1);
    assert.equal(seen[0][0], value);
  }
  assert.ok(!JSON.stringify(seen).includes('toolu'));
});

test('content with a lone UTF-16 surrogate passes through unchanged when it stays inline', async () => {
  const registry = new ToolRegistry();
  registry.register(def('lone'), ok('x\uD800y\uDC00'));
  assert.equal((await registry.executeTool('t', 'lone', {})).content, 'x\uD800y\uDC00');

  // Below the threshold of an offloading registry too; at it, the file holds U+FFFD for
  // each (as Node's fs writes it), never an error.
  const writer = new RecordingWriter();
  const offload = offloading(writer, 10);
  assert.equal((await offload.executeTool('t1', 'big', { content: 'x\uD800y' })).content, 'x\uD800y');
  await offload.executeTool('t2', 'big', { content: 'x\uD800'.repeat(5) });
  assert.equal(writer.files.get('/virtual/out/s1/t2.md'), 'x\uFFFD'.repeat(5));
});

test('a thrown error message with a lone UTF-16 surrogate passes through unchanged', async () => {
  const registry = new ToolRegistry();
  registry.register(def('lone'), () => {
    throw new Error('bad \uD800 input');
  });
  assert.equal((await registry.executeTool('t', 'lone', {})).content, 'bad \uD800 input');
});

test('synchronous and asynchronous handlers are both awaited', async () => {
  const registry = new ToolRegistry();
  registry.register(def('sync'), (params: { text: string }) => ({ content: params.text.toUpperCase() }));
  registry.register(
    def('later'),
    (params: { text: string }) =>
      new Promise<ToolOutput>((done) => setTimeout(() => done({ content: `${params.text}!` }), 20)),
  );
  assert.deepEqual(await registry.executeTool('a', 'sync', { text: 'hey' }), {
    type: 'tool_result',
    tool_use_id: 'a',
    content: 'HEY',
  });
  assert.deepEqual(await registry.executeTool('b', 'later', { text: 'hey' }), {
    type: 'tool_result',
    tool_use_id: 'b',
    content: 'hey!',
  });
});

test('a throwing or rejecting handler becomes an error result with the message', async () => {
  class ToolFailure extends Error {}
  const cases: [string, ToolHandler, string][] = [
    [
      'throws',
      () => {
        throw new Error('sync boom');
      },
      'sync boom',
    ],
    [
      'throwsAsync',
      async () => {
        throw new TypeError("cannot read properties of undefined (reading 'x')");
      },
      "cannot read properties of undefined (reading 'x')",
    ],
    ['rejects', () => Promise.reject(new ToolFailure('rejected: disk on fire')), 'rejected: disk on fire'],
    [
      'throwsString',
      () => {
        throw 'plain string';
      },
      'plain string',
    ],
    ['rejectsNumber', () => Promise.reject(42), '42'],
    [
      'throwsObject',
      () => {
        throw { reason: 'x' };
      },
      '[object Object]',
    ],
    [
      'emptyMessage',
      () => {
        throw new Error('');
      },
      '',
    ],
    [
      'unicode',
      async () => {
        throw new Error('échec 😀\n"line 2"');
      },
      'échec 😀\n"line 2"',
    ],
  ];
  const registry = new ToolRegistry();
  for (const [name, handler] of cases) registry.register(def(name), handler);
  for (const [name, , message] of cases) {
    const result = await registry.executeTool(`toolu_${name}`, name, { any: 'thing' });
    assert.deepEqual(
      result,
      { type: 'tool_result', tool_use_id: `toolu_${name}`, content: message, is_error: true },
      name,
    );
    assert.deepEqual(Object.keys(result), ['type', 'tool_use_id', 'content', 'is_error']);
  }
});

test('a handler returning something other than { content: string } is an error result', async () => {
  const registry = new ToolRegistry();
  const returns: unknown[] = [
    undefined,
    null,
    'bare string',
    42,
    {},
    { content: 5 },
    { content: null },
    { text: 'x' },
    ['x'],
  ];
  returns.forEach((value, i) => registry.register(def(`bad${i}`), (async () => value) as ToolHandler));
  for (let i = 0; i < returns.length; i++) {
    assert.deepEqual(
      await registry.executeTool(`toolu_${i}`, `bad${i}`, {}),
      { type: 'tool_result', tool_use_id: `toolu_${i}`, content: MALFORMED, is_error: true },
      JSON.stringify(returns[i]),
    );
  }
});

test('concurrent executions each get their own tool_use_id back', async () => {
  const registry = new ToolRegistry();
  // Later calls finish first.
  registry.register(
    def('wait'),
    (params: { ms: number; tag: string }) =>
      new Promise<ToolOutput>((done) => setTimeout(() => done({ content: params.tag }), params.ms)),
  );
  const runs = [0, 1, 2, 3, 4].map((i) =>
    registry.executeTool(`toolu_${i}`, 'wait', { ms: 50 - i * 10, tag: `tag${i}` }),
  );
  const results = await Promise.all(runs);
  assert.deepEqual(
    results,
    [0, 1, 2, 3, 4].map((i) => ({ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `tag${i}` })),
  );
});

test('a handler may use its registry (register and execute) while running', async () => {
  const registry = new ToolRegistry();
  registry.register(def('inner'), ok('inner result'));
  registry.register(def('outer'), async () => {
    registry.register(def('added'), ok('added result'));
    const inner = await registry.executeTool('toolu_inner', 'inner', {});
    return { content: `outer saw ${inner.content} for ${inner.tool_use_id}` };
  });
  assert.deepEqual(await registry.executeTool('toolu_outer', 'outer', {}), {
    type: 'tool_result',
    tool_use_id: 'toolu_outer',
    content: 'outer saw inner result for toolu_inner',
  });
  assert.deepEqual(names(registry), ['inner', 'outer', 'added']);
  assert.equal((await registry.executeTool('t', 'added', {})).content, 'added result');
});

test('executeTool rejects non-string toolUseId and name with INVALID_ARGUMENT', async () => {
  const registry = new ToolRegistry();
  let called = 0;
  registry.register(def('echo'), () => ({ content: String(++called) }));
  const call = registry.executeTool as (id: unknown, name: unknown, params: unknown) => Promise<ToolResult>;
  let err = await rejected(call.call(registry, 1, 'echo', {}));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(err.message, 'invalid argument: toolUseId must be a string, got number');
  err = await rejected(call.call(registry, undefined, 'echo', {}));
  assert.equal(err.message, 'invalid argument: toolUseId must be a string, got undefined');
  err = await rejected(call.call(registry, 'toolu_1', null, {}));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(err.message, 'invalid argument: name must be a string, got null');
  assert.equal(called, 0);
});

// ---------------------------------------------------------------------------------------
// TodoWrite / TodoRead
// ---------------------------------------------------------------------------------------

test('the todo handlers from getTool are functions that can be called directly on the shared list', async () => {
  const { registry, read } = todoRegistry();
  const write = registry.getTool('TodoWrite');
  const readTool = registry.getTool('TodoRead');
  assert.ok(write && readTool);
  assert.equal(typeof write.handler, 'function');
  assert.equal(typeof readTool.handler, 'function');

  const pending = write.handler({ todos: [todo('Direct', 'pending', 'Calling directly')] });
  assert.ok(pending instanceof Promise);
  const output = await pending;
  assert.deepEqual(output, { content: '{"success":true,"count":1}' });
  assert.equal('is_error' in output, false);
  // The same list executeTool reads.
  assert.equal(await read(), '{"todos":[{"content":"Direct","status":"pending","activeForm":"Calling directly"}]}');
  assert.deepEqual(await readTool.handler({}), {
    content: '{"todos":[{"content":"Direct","status":"pending","activeForm":"Calling directly"}]}',
  });

  const failure = await write.handler({ todos: 'nope' });
  assert.deepEqual(failure, { content: "'todos' must be an array", is_error: true });
  assert.equal(await read(), '{"todos":[{"content":"Direct","status":"pending","activeForm":"Calling directly"}]}');

  // The handlers are ordinary functions: they can be re-registered on another registry.
  const other = new ToolRegistry();
  other.register(registry.getToolDefinitions()[0], write.handler);
  assert.equal((await other.executeTool('t', 'TodoWrite', { todos: [] })).content, '{"success":true,"count":0}');
  assert.equal(await read(), '{"todos":[]}');
});

test('each registerTodoTools call has its own list', async () => {
  const one = todoRegistry();
  const two = todoRegistry();
  await one.write({ todos: [todo('One', 'pending', 'Doing one')] });
  assert.equal(await two.read(), '{"todos":[]}');
  assert.equal(await one.read(), '{"todos":[{"content":"One","status":"pending","activeForm":"Doing one"}]}');
});

test('registerTodoTools works on the raw wasm class too', async () => {
  const registry = new wasm.ToolRegistry(undefined);
  registerTodoTools(registry);
  assert.deepEqual(names(registry), ['TodoWrite', 'TodoRead']);
  assert.equal((await registry.executeTool('t', 'TodoRead', {})).content, '{"todos":[]}');
  assert.ok(new ToolRegistry() instanceof wasm.ToolRegistry);
});

// ---------------------------------------------------------------------------------------
// Offload middleware
// ---------------------------------------------------------------------------------------

test('offload: outputDir resolves against options.cwd, else process.cwd() at construction', async () => {
  for (const [outputDir, cwd, path] of [
    ['out', '/work', '/work/out/s1/t.md'],
    ['./out/', '/work', '/work/out/s1/t.md'],
    ['../out', '/srv/app', '/srv/out/s1/t.md'],
    ['/abs/dir', '/work', '/abs/dir/s1/t.md'],
  ]) {
    const writer = new RecordingWriter();
    const registry = new ToolRegistry({ offload: { outputDir, sessionId: 's1', writer, cwd } });
    registry.register(def('big'), ok('z'.repeat(1000)));
    assert.equal((await registry.executeTool('t', 'big', {})).content, placeholder(path), `${outputDir} in ${cwd}`);
    assert.equal(writer.files.get(path), 'z'.repeat(1000));
  }
  const writer = new RecordingWriter();
  const registry = new ToolRegistry({ offload: { outputDir: 'rel/out', sessionId: 's1', writer } });
  registry.register(def('big'), ok('z'.repeat(1000)));
  const path = resolve(process.cwd(), 'rel', 'out', 's1', 't.md');
  assert.equal((await registry.executeTool('t', 'big', {})).content, placeholder(path));
  assert.deepEqual(writer.calls[0], ['mkdir', resolve(process.cwd(), 'rel', 'out', 's1')]);
});

test('offload: with the default NodeFileWriter the real file exists with the exact bytes', async () => {
  const root = freshDir('registry');
  try {
    const registry = new ToolRegistry({ offload: { outputDir: join(root, 'artifacts'), sessionId: 'sess-1' } });
    const content = '😀 résumé "quoted" \\ \r\n'.repeat(100) + '\u2028\0tail';
    registry.register(def('dump'), ok(content));
    registry.register(def('small'), ok('tiny'));
    const result = await registry.executeTool('toolu_01A', 'dump', {});
    const dir = join(root, 'artifacts', 'sess-1');
    const file = join(dir, 'toolu_01A.md');
    assert.deepEqual(result, { type: 'tool_result', tool_use_id: 'toolu_01A', content: placeholder(file) });
    assert.deepEqual(readFileSync(file), Buffer.from(content, 'utf8'));
    assert.deepEqual(readdirSync(dir), ['toolu_01A.md'], 'no temporary files are left behind');

    assert.deepEqual(await registry.executeTool('toolu_02', 'small', {}), {
      type: 'tool_result',
      tool_use_id: 'toolu_02',
      content: 'tiny',
    });
    assert.deepEqual(readdirSync(dir), ['toolu_01A.md']);

    // A large TodoRead is offloaded like any other result.
    registerTodoTools(registry);
    const todos = Array.from({ length: 40 }, (_, i) => todo(`Task ${i}`, 'pending', `Doing task ${i}`));
    assert.equal(
      (await registry.executeTool('toolu_w', 'TodoWrite', { todos })).content,
      '{"success":true,"count":40}',
    );
    const read = await registry.executeTool('toolu_r', 'TodoRead', {});
    assert.equal(read.content, placeholder(join(dir, 'toolu_r.md')));
    assert.equal(readFileSync(join(dir, 'toolu_r.md'), 'utf8'), JSON.stringify({ todos }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('offload: a failed write rejects with WRITE_FAILED carrying the cause, and the result is not inlined', async () => {
  const diskFull = new Error('disk full');
  const writer = new RecordingWriter({ writeFile: diskFull });
  const registry = offloading(writer);
  const err = await rejected(registry.executeTool('toolu_1', 'big', { content: 'x'.repeat(1000) }));
  assert.equal(err.code, 'WRITE_FAILED');
  assert.equal(err.cause, diskFull);
  assert.equal(err.path, '/virtual/out/s1/toolu_1.md');
  assert.equal(err.message, 'failed to write /virtual/out/s1/toolu_1.md: disk full');
  assert.deepEqual(
    writer.calls.map((c) => c.slice(0, 2)),
    [
      ['mkdir', '/virtual/out/s1'],
      ['writeFile', '/virtual/out/s1/toolu_1.md'],
    ],
  );

  // A failing mkdir, with a non-Error thrown value: the cause is that value.
  const denied = { errno: -13, toString: () => 'permission denied' };
  const mkdirFails = offloading(new RecordingWriter({ mkdir: denied }));
  const err2 = await rejected(mkdirFails.executeTool('toolu_2', 'big', { content: 'x'.repeat(2000), is_error: true }));
  assert.equal(err2.code, 'WRITE_FAILED');
  assert.equal(err2.cause, denied);
  assert.equal(err2.path, '/virtual/out/s1');
  assert.equal(err2.message, 'failed to write /virtual/out/s1: permission denied');

  // The same registry still works below the threshold: the writer is never called.
  const before = writer.calls.length;
  assert.deepEqual(await registry.executeTool('toolu_3', 'big', { content: 'small' }), {
    type: 'tool_result',
    tool_use_id: 'toolu_3',
    content: 'small',
  });
  assert.equal(writer.calls.length, before);
});

test('offload: invalid options throw OffloadError at construction', () => {
  const writer = new RecordingWriter();
  const base = { outputDir: '/out', sessionId: 's1', writer };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ sessionId: '..' }, 'INVALID_ID', 'invalid sessionId "..": is a relative path component ("." or "..")'],
    [{ sessionId: '' }, 'INVALID_ID', ''],
    [{ sessionId: 'a/b' }, 'INVALID_ID', ''],
    [{ sessionId: 7 }, 'INVALID_ARGUMENT', 'invalid argument: offload.sessionId must be a string, got number'],
    [
      { sessionId: undefined },
      'INVALID_ARGUMENT',
      'invalid argument: offload.sessionId must be a string, got undefined',
    ],
    [{ outputDir: null }, 'INVALID_ARGUMENT', 'invalid argument: offload.outputDir must be a string, got null'],
    [
      { thresholdChars: 1.5 },
      'INVALID_ARGUMENT',
      'invalid argument: offload.thresholdChars must be a non-negative integer, got 1.5',
    ],
    [
      { thresholdChars: -1 },
      'INVALID_ARGUMENT',
      'invalid argument: offload.thresholdChars must be a non-negative integer, got -1',
    ],
    [
      { thresholdChars: Number.NaN },
      'INVALID_ARGUMENT',
      'invalid argument: offload.thresholdChars must be a non-negative integer, got NaN',
    ],
    [
      { thresholdChars: Infinity },
      'INVALID_ARGUMENT',
      'invalid argument: offload.thresholdChars must be a non-negative integer, got Infinity',
    ],
    [{ thresholdChars: '10' }, 'INVALID_ARGUMENT', ''],
    [{ thresholdChars: null }, 'INVALID_ARGUMENT', ''],
    [
      { writer: { mkdir() {} } },
      'INVALID_ARGUMENT',
      'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
    ],
    [{ outputDir: 'rel', cwd: 'not/absolute' }, 'INVALID_ARGUMENT', ''],
  ];
  for (const [override, code, message] of cases) {
    const err = thrown(() => new ToolRegistry({ offload: { ...base, ...override } as never }));
    assert.equal(err.code, code, JSON.stringify(override));
    if (message) assert.equal(err.message, message, JSON.stringify(override));
  }
  // The raw wasm class has no default writer.
  const err = thrown(() => new wasm.ToolRegistry({ offload: { outputDir: '/out', sessionId: 's1' } as never }));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(
    err.message,
    'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods',
  );
});

test('without offload options nothing is offloaded and no writer is needed', async () => {
  for (const registry of [
    new ToolRegistry(),
    new ToolRegistry({}),
    new ToolRegistry({ offload: undefined }),
    new wasm.ToolRegistry(undefined),
    new wasm.ToolRegistry({}),
  ]) {
    registry.register(def('big'), ok('x'.repeat(100_000)));
    const result = await registry.executeTool('t', 'big', {});
    assert.equal(result.content.length, 100_000);
  }
  // The package class fills in a NodeFileWriter; an explicit writer is used instead.
  const writer = new RecordingWriter();
  const registry = new ToolRegistry({ offload: { outputDir: '/o', sessionId: 's', writer } });
  registry.register(def('big'), ok('x'.repeat(1000)));
  await registry.executeTool('t', 'big', {});
  assert.deepEqual([...writer.files.keys()], ['/o/s/t.md']);
});

test('getToolDefinitions speaks each API format, typed per format', () => {
  const registry = new ToolRegistry();
  registerTodoTools(registry);
  const anthropic = registry.getToolDefinitions();
  const chat = registry.getToolDefinitions({ format: 'openai-chat' });
  const responses = registry.getToolDefinitions({ format: 'openai-responses' });
  const mcp = registry.getToolDefinitions({ format: 'mcp' });
  assert.deepEqual(
    [anthropic[0]!.name, chat[0]!.function.name, responses[0]!.name, mcp[0]!.name],
    ['TodoWrite', 'TodoWrite', 'TodoWrite', 'TodoWrite'],
  );
  assert.deepEqual(chat[1], {
    type: 'function',
    function: { name: 'TodoRead', description: anthropic[1]!.description, parameters: anthropic[1]!.input_schema },
  });
  assert.equal(responses[0]!.strict, false);
  assert.deepEqual(mcp[0]!.inputSchema, anthropic[0]!.input_schema);
  const bad = thrown(() => registry.getToolDefinitions({ format: 'gemini' as 'mcp' }));
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.equal(
    bad.message,
    'invalid argument: format must be "anthropic", "openai-chat", "openai-responses" or "mcp", got "gemini"',
  );
});
