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

const NAME_RULE = '^[a-zA-Z0-9_-]{1,64}$';
const STATUS_RULE = 'Must be one of: pending, in_progress, completed';
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

const names = (registry: wasm.ToolRegistry): string[] => registry.getToolDefinitions().map((d) => d.name);

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
    offload: { outputDir: '/virtual/out', sessionId: 's1', writer, ...(thresholdChars === undefined ? {} : { thresholdChars }) },
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

/** The error content of TodoWrite with `params` on an empty list, which must stay empty. */
async function writeError(params: unknown): Promise<string> {
  const { write, read } = todoRegistry();
  const result = await write(params);
  assert.equal(result.is_error, true, `expected an error for ${JSON.stringify(params)}, got ${JSON.stringify(result)}`);
  assert.equal(await read(), '{"todos":[]}');
  return result.content;
}

const itemError = (item: unknown) => writeError({ todos: [item] });
const contentError = (i: number) => `Todo at index ${i}: content is required and cannot be empty`;
const activeFormError = (i: number) => `Todo at index ${i}: activeForm is required and cannot be empty`;
const statusError = (i: number, rendered: string) => `Todo at index ${i}: invalid status '${rendered}'. ${STATUS_RULE}`;

// ---------------------------------------------------------------------------------------
// register: names
// ---------------------------------------------------------------------------------------

test('register accepts names of 1 to 64 characters from [a-zA-Z0-9_-]', () => {
  const registry = new ToolRegistry();
  const accepted = ['a', 'x'.repeat(64), 'get_weather', 'Get-Weather-2', '_', '-', '0', 'AZaz09_-', 'TodoWrite'];
  for (const name of accepted) registry.register(def(name), ok(name));
  assert.deepEqual(names(registry), accepted);
});

test('register rejects invalid names with INVALID_TOOL_NAME and the exact message', () => {
  const invalid = ['', 'a'.repeat(65), 'a b', ' a', 'a ', 'a.b', 'a/b', 'a:b', 'café', '工具', 'a😀', 'é'.repeat(32)];
  for (const name of invalid) {
    const registry = new ToolRegistry();
    const err = thrown(() => registry.register(def(name), ok('x')));
    assert.equal(err.code, 'INVALID_TOOL_NAME', JSON.stringify(name));
    assert.equal(err.message, `invalid tool name ${JSON.stringify(name)}: must match ${NAME_RULE}`);
    assert.deepEqual(registry.getToolDefinitions(), []);
    assert.equal(registry.getTool(name), undefined);
  }
  // The name is quoted with Rust's escaping: control and invisible characters appear escaped.
  for (const [name, quoted] of [
    ['a\n', '"a\\n"'],
    ['a\u200B', '"a\\u{200b}"'],
    ['a\0', '"a\\0"'],
  ]) {
    const err = thrown(() => new ToolRegistry().register(def(name), ok('x')));
    assert.equal(err.code, 'INVALID_TOOL_NAME');
    assert.equal(err.message, `invalid tool name ${quoted}: must match ^[a-zA-Z0-9_-]{1,64}$`);
  }
  assert.equal(
    thrown(() => new ToolRegistry().register(def('a b'), ok('x'))).message,
    'invalid tool name "a b": must match ^[a-zA-Z0-9_-]{1,64}$',
  );
});

test('register rejects a duplicate with DUPLICATE_TOOL and keeps the first', async () => {
  const registry = new ToolRegistry();
  const first = ok('first');
  registry.register(def('echo', 'First echo.'), first);
  const err = thrown(() => registry.register(def('echo', 'Second echo.'), ok('second')));
  assert.equal(err.code, 'DUPLICATE_TOOL');
  assert.equal(err.message, 'tool "echo" is already registered');
  assert.deepEqual(names(registry), ['echo']);
  const tool = registry.getTool('echo');
  assert.ok(tool);
  assert.equal(tool.handler, first);
  assert.equal(tool.definition.description, 'First echo.');
  assert.equal((await registry.executeTool('t', 'echo', {})).content, 'first');
});

test('names are case-sensitive', async () => {
  const registry = new ToolRegistry();
  registry.register(def('echo'), ok('lower'));
  registry.register(def('Echo'), ok('upper'));
  assert.deepEqual(names(registry), ['echo', 'Echo']);
  assert.equal((await registry.executeTool('t', 'Echo', {})).content, 'upper');
  assert.equal(registry.getTool('ECHO'), undefined);
  assert.deepEqual(await registry.executeTool('t', 'ECHO', {}), {
    type: 'tool_result',
    tool_use_id: 't',
    content: "Tool 'ECHO' not found",
    is_error: true,
  });
});

// ---------------------------------------------------------------------------------------
// register: definitions and handlers
// ---------------------------------------------------------------------------------------

test('register rejects a non-object input_schema with INVALID_TOOL_DEFINITION', () => {
  for (const schema of [null, undefined, [], [{ type: 'object' }], 'object', true, 1]) {
    const registry = new ToolRegistry();
    registry.register(def('before'), ok('b'));
    const definition = { name: 't', description: 'd', input_schema: schema } as unknown as ToolDefinition;
    const err = thrown(() => registry.register(definition, ok('x')));
    assert.equal(err.code, 'INVALID_TOOL_DEFINITION', String(schema));
    assert.equal(err.message, 'invalid tool definition: input_schema must be a JSON Schema object');
    assert.deepEqual(names(registry), ['before']);
    // Refused for its schema, so the name is still free.
    registry.register(def('t'), ok('x'));
    assert.deepEqual(names(registry), ['before', 't']);
  }
});

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

test('failed registrations leave the registry usable and in order', () => {
  const registry = new ToolRegistry();
  registry.register(def('a'), ok('a'));
  assert.throws(() => registry.register(def('bad name'), ok('x')));
  assert.throws(() => registry.register(def('a'), ok('y')));
  assert.throws(() => registry.register({ name: 'c', description: 'd', input_schema: null } as unknown as ToolDefinition, ok('z')));
  registry.register(def('b'), ok('b'));
  registry.register(def('c'), ok('c'));
  assert.deepEqual(names(registry), ['a', 'b', 'c']);
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
  const weather = { name: 'get_weather', description: 'Current weather.', input_schema: schema, cache_control: { type: 'ephemeral' } };
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
  assert.deepEqual(registry.getToolDefinitions(), [{ name: 'bare', description: '', input_schema: { type: 'object' } }]);
});

// ---------------------------------------------------------------------------------------
// executeTool
// ---------------------------------------------------------------------------------------

test('executeTool on an unknown tool resolves to the exact not-found result', async () => {
  const registry = new ToolRegistry();
  registry.register(def('echo'), ok('hi'));
  for (const [id, name] of [
    ['toolu_01A', 'nope'],
    ['call_1', ''],
    ['x', 'echo '],
    ['', 'weird name/../'],
  ]) {
    const result = await registry.executeTool(id, name, {});
    assert.deepEqual(result, { type: 'tool_result', tool_use_id: id, content: `Tool '${name}' not found`, is_error: true });
    assert.deepEqual(Object.keys(result), ['type', 'tool_use_id', 'content', 'is_error']);
  }
  assert.equal(
    JSON.stringify(await new ToolRegistry().executeTool('toolu_9', 'missing', {})),
    `{"type":"tool_result","tool_use_id":"toolu_9","content":"Tool 'missing' not found","is_error":true}`,
  );
});

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

test('content passes through and is_error is present only when true', async () => {
  const registry = new ToolRegistry();
  const outputs: [string, unknown][] = [
    ['plain', { content: 'result text' }],
    ['false', { content: 'fine', is_error: false }],
    ['true', { content: 'soft failure', is_error: true }],
    ['empty', { content: '' }],
    ['unicode', { content: 'é😀\u2028\0"\\\r\n\t end  ' }],
    ['extra', { content: 'x', is_error: false, extra: 1, type: 'ignored', tool_use_id: 'forged' }],
    ['truthy', { content: 'x', is_error: 'yes' }],
    ['one', { content: 'x', is_error: 1 }],
  ];
  for (const [name, output] of outputs) registry.register(def(name), async () => output as ToolOutput);

  const run = (name: string) => registry.executeTool(`toolu_${name}`, name, {});
  for (const name of ['plain', 'false', 'empty', 'unicode', 'extra', 'truthy', 'one']) {
    const result = await run(name);
    assert.equal('is_error' in result, false, name);
    assert.deepEqual(Object.keys(result), ['type', 'tool_use_id', 'content'], name);
    assert.equal(result.type, 'tool_result');
    assert.equal(result.tool_use_id, `toolu_${name}`);
  }
  assert.equal((await run('plain')).content, 'result text');
  assert.equal((await run('false')).content, 'fine');
  assert.equal((await run('empty')).content, '');
  assert.equal((await run('unicode')).content, 'é😀\u2028\0"\\\r\n\t end  ');
  assert.equal((await run('extra')).content, 'x');
  const soft = await run('true');
  assert.deepEqual(soft, { type: 'tool_result', tool_use_id: 'toolu_true', content: 'soft failure', is_error: true });
  assert.equal(JSON.stringify(soft), '{"type":"tool_result","tool_use_id":"toolu_true","content":"soft failure","is_error":true}');
  assert.equal(JSON.stringify(await run('false')), '{"type":"tool_result","tool_use_id":"toolu_false","content":"fine"}');
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

test(
  'a thrown error message with a lone UTF-16 surrogate passes through unchanged',
  async () => {
    const registry = new ToolRegistry();
    registry.register(def('lone'), () => {
      throw new Error('bad \uD800 input');
    });
    assert.equal((await registry.executeTool('t', 'lone', {})).content, 'bad \uD800 input');
  },
);

test('synchronous and asynchronous handlers are both awaited', async () => {
  const registry = new ToolRegistry();
  registry.register(def('sync'), (params: { text: string }) => ({ content: params.text.toUpperCase() }));
  registry.register(def('later'), (params: { text: string }) => new Promise<ToolOutput>((done) => setTimeout(() => done({ content: `${params.text}!` }), 20)));
  assert.deepEqual(await registry.executeTool('a', 'sync', { text: 'hey' }), { type: 'tool_result', tool_use_id: 'a', content: 'HEY' });
  assert.deepEqual(await registry.executeTool('b', 'later', { text: 'hey' }), { type: 'tool_result', tool_use_id: 'b', content: 'hey!' });
});

test('a throwing or rejecting handler becomes an error result with the message', async () => {
  class ToolFailure extends Error {}
  const cases: [string, ToolHandler, string][] = [
    ['throws', () => { throw new Error('sync boom'); }, 'sync boom'],
    ['throwsAsync', async () => { throw new TypeError("cannot read properties of undefined (reading 'x')"); }, "cannot read properties of undefined (reading 'x')"],
    ['rejects', () => Promise.reject(new ToolFailure('rejected: disk on fire')), 'rejected: disk on fire'],
    ['throwsString', () => { throw 'plain string'; }, 'plain string'],
    ['rejectsNumber', () => Promise.reject(42), '42'],
    ['throwsObject', () => { throw { reason: 'x' }; }, '[object Object]'],
    ['emptyMessage', () => { throw new Error(''); }, ''],
    ['unicode', async () => { throw new Error('échec 😀\n"line 2"'); }, 'échec 😀\n"line 2"'],
  ];
  const registry = new ToolRegistry();
  for (const [name, handler] of cases) registry.register(def(name), handler);
  for (const [name, , message] of cases) {
    const result = await registry.executeTool(`toolu_${name}`, name, { any: 'thing' });
    assert.deepEqual(result, { type: 'tool_result', tool_use_id: `toolu_${name}`, content: message, is_error: true }, name);
    assert.deepEqual(Object.keys(result), ['type', 'tool_use_id', 'content', 'is_error']);
  }
});

test('a handler returning something other than { content: string } is an error result', async () => {
  const registry = new ToolRegistry();
  const returns: unknown[] = [undefined, null, 'bare string', 42, {}, { content: 5 }, { content: null }, { text: 'x' }, ['x']];
  returns.forEach((value, i) => registry.register(def(`bad${i}`), (async () => value) as ToolHandler));
  for (let i = 0; i < returns.length; i++) {
    assert.deepEqual(
      await registry.executeTool(`toolu_${i}`, `bad${i}`, {}),
      { type: 'tool_result', tool_use_id: `toolu_${i}`, content: MALFORMED, is_error: true },
      JSON.stringify(returns[i]),
    );
  }
});

test('tool_use_id equals the one passed in on every path', async () => {
  const registry = new ToolRegistry();
  registry.register(def('ok'), ok('fine'));
  registry.register(def('soft'), async () => ({ content: 'soft failure', is_error: true }));
  registry.register(def('hard'), async () => { throw new Error('hard failure'); });
  registry.register(def('bad'), (async () => 'nope') as unknown as ToolHandler);
  for (const id of ['toolu_01A', 'call_abc', '', '../weird id', '😀', 'x'.repeat(300)]) {
    assert.deepEqual(await registry.executeTool(id, 'ok', {}), { type: 'tool_result', tool_use_id: id, content: 'fine' });
    for (const [name, content] of [
      ['soft', 'soft failure'],
      ['hard', 'hard failure'],
      ['bad', MALFORMED],
      ['missing', "Tool 'missing' not found"],
    ]) {
      assert.deepEqual(await registry.executeTool(id, name, {}), { type: 'tool_result', tool_use_id: id, content, is_error: true });
    }
  }
});

test('concurrent executions each get their own tool_use_id back', async () => {
  const registry = new ToolRegistry();
  // Later calls finish first.
  registry.register(def('wait'), (params: { ms: number; tag: string }) =>
    new Promise<ToolOutput>((done) => setTimeout(() => done({ content: params.tag }), params.ms)),
  );
  const runs = [0, 1, 2, 3, 4].map((i) => registry.executeTool(`toolu_${i}`, 'wait', { ms: 50 - i * 10, tag: `tag${i}` }));
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

const TODO_WRITE_SCHEMA =
  '{"type":"object","properties":{"todos":{"type":"array","description":"The complete, updated todo list.","items":{"type":"object","properties":{"content":{"type":"string","minLength":1,"description":"The task, imperative: \\"Run the tests\\"."},"status":{"type":"string","enum":["pending","in_progress","completed"]},"activeForm":{"type":"string","minLength":1,"description":"The task under way: \\"Running the tests\\"."}},"required":["content","status","activeForm"],"additionalProperties":false}}},"required":["todos"]}';

test('registerTodoTools registers TodoWrite then TodoRead with the exact schemas', () => {
  const registry = new ToolRegistry();
  registry.register(def('first'), ok('f'));
  assert.equal(registerTodoTools(registry), undefined);
  assert.deepEqual(names(registry), ['first', 'TodoWrite', 'TodoRead']);
  const [, write, read] = registry.getToolDefinitions();
  assert.equal(JSON.stringify(write.input_schema), TODO_WRITE_SCHEMA);
  assert.equal(JSON.stringify(read.input_schema), '{"type":"object","properties":{}}');
  assert.deepEqual(read.input_schema, { type: 'object', properties: {} });
  // The descriptions tell the model when to use the tools.
  assert.match(write.description ?? "", /replaces the whole list/);
  assert.match(write.description ?? "", /\bUse it\b/);
  assert.match(read.description ?? "", /\bUse it\b/);
  assert.deepEqual(registry.getTool('TodoWrite')?.definition, write);
  assert.deepEqual(registry.getTool('TodoRead')?.definition, read);
});

test('TodoWrite and TodoRead round-trip through executeTool with exact outputs', async () => {
  const { registry, write, read } = todoRegistry();
  assert.deepEqual(await registry.executeTool('toolu_r0', 'TodoRead', {}), {
    type: 'tool_result',
    tool_use_id: 'toolu_r0',
    content: '{"todos":[]}',
  });

  const written = await registry.executeTool('toolu_w1', 'TodoWrite', {
    todos: [todo('Write tests', 'in_progress', 'Writing tests'), todo('Fix bugs', 'pending', 'Fixing bugs'), todo('Ship', 'completed', 'Shipping')],
  });
  assert.deepEqual(written, { type: 'tool_result', tool_use_id: 'toolu_w1', content: '{"success":true,"count":3}' });
  assert.equal(
    await read(),
    '{"todos":[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests"},{"content":"Fix bugs","status":"pending","activeForm":"Fixing bugs"},{"content":"Ship","status":"completed","activeForm":"Shipping"}]}',
  );

  // Each write replaces the whole list.
  assert.equal((await write({ todos: [todo('Only', 'pending', 'Doing only')] })).content, '{"success":true,"count":1}');
  assert.equal(await read(), '{"todos":[{"content":"Only","status":"pending","activeForm":"Doing only"}]}');

  // [] clears it.
  const cleared = await write({ todos: [] });
  assert.deepEqual(cleared, { type: 'tool_result', tool_use_id: cleared.tool_use_id, content: '{"success":true,"count":0}' });
  assert.equal(await read(), '{"todos":[]}');
});

test('TodoRead emits exactly content, status, activeForm in that order and ignores its params', async () => {
  const { write, read, registry } = todoRegistry();
  const params = {
    todos: [{ activeForm: 'Testing', priority: 'high', id: '1', status: 'pending', content: 'Test', extra: { nested: true } }],
    other: 'ignored',
  };
  assert.equal((await write(params)).content, '{"success":true,"count":1}');
  const expected = '{"todos":[{"content":"Test","status":"pending","activeForm":"Testing"}]}';
  assert.equal(await read(), expected);
  for (const p of [undefined, null, { todos: [] }, 'x']) {
    assert.equal((await registry.executeTool('t', 'TodoRead', p)).content, expected);
  }
});

test('TodoWrite keeps text verbatim, escapes like JSON.stringify, and accepts one-character fields', async () => {
  const { write, read } = todoRegistry();
  const items = [todo('x', 'pending', 'y'), todo('  padded  ', 'completed', '\tpadded\n'), todo('say "hi"\n\\ é 😀 \u2028', 'in_progress', 'a\u0001')];
  assert.equal((await write({ todos: items })).content, '{"success":true,"count":3}');
  const content = await read();
  assert.equal(content, JSON.stringify({ todos: items }));
  assert.deepEqual(JSON.parse(content), { todos: items });
});

test('TodoWrite validation messages are exact', async () => {
  for (const params of [{}, { todo: [] }, { Todos: [] }, { todos: undefined }, null, undefined, [], 'todos', 42, true]) {
    assert.equal(await writeError(params), "'todos' array is required", String(params));
  }
  for (const todos of [{}, { 0: todo('a', 'pending', 'b') }, '[]', 1, true, null]) {
    assert.equal(await writeError({ todos }), "'todos' must be an array", JSON.stringify(todos));
  }
  for (const content of ['', '   ', '\t\n', '\uFEFF', '\u00A0\u3000\u2028\u2029\u000B\u000C\r', null, 42, ['a'], { text: 'a' }, true, undefined]) {
    assert.equal(await itemError(todo(content, 'pending', 'Doing')), contentError(0), JSON.stringify(content));
  }
  for (const activeForm of ['', '   ', '\uFEFF', null, 7, ['Doing'], undefined]) {
    assert.equal(await itemError(todo('Do', 'pending', activeForm)), activeFormError(0), JSON.stringify(activeForm));
  }
  assert.equal(await itemError({ content: 'Do', status: 'pending', active_form: 'Doing' }), activeFormError(0));
  const statuses: [unknown, string][] = [
    ['done', 'done'],
    ['Pending', 'Pending'],
    [' pending', ' pending'],
    ['in-progress', 'in-progress'],
    ['', ''],
    [null, 'null'],
    [undefined, 'undefined'],
    [42, '42'],
    [1.5, '1.5'],
    [1e21, '1e+21'],
    [-0, '0'],
    [true, 'true'],
    [['a', 'b'], 'a,b'],
    [['pending'], 'pending'],
    [{}, '[object Object]'],
  ];
  for (const [status, rendered] of statuses) {
    assert.equal(await itemError(todo('Do', status, 'Doing')), statusError(0, rendered), String(status));
  }
  assert.equal(
    await itemError(todo('Do', 'done', 'Doing')),
    "Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed",
  );
  for (const item of ['Plan', null, 1, [], ['Plan', 'pending', 'Planning']]) {
    assert.equal(await itemError(item), contentError(0), JSON.stringify(item));
  }
});

test('TodoWrite validates items in order: content, then status, then activeForm; earlier items first', async () => {
  assert.equal(await itemError({ status: 'bad' }), contentError(0));
  assert.equal(await itemError(todo('', 'bad', '')), contentError(0));
  assert.equal(await itemError(todo('Do', 'bad', '')), statusError(0, 'bad'));
  assert.equal(await itemError({ content: 'Do' }), statusError(0, 'undefined'));
  assert.equal(await writeError({ todos: [todo('Do', 'pending', ''), todo('', 'pending', 'Doing')] }), activeFormError(0));
  assert.equal(await writeError({ todos: [todo('ok', 'pending', 'ok'), null] }), contentError(1));
  assert.equal(
    await writeError({ todos: [todo('a', 'pending', 'A'), todo('b', 'completed', 'B'), todo('c', 'later', ''), { status: 'nope' }] }),
    statusError(2, 'later'),
  );
  const eleven = [...'abcdefghij'].map((c) => todo(c, 'pending', c.toUpperCase()));
  assert.equal(await writeError({ todos: [...eleven, todo('k', 'pending', ' ')] }), activeFormError(10));
});

test('a failed TodoWrite leaves the list exactly as it was', async () => {
  const { write, read } = todoRegistry();
  await write({ todos: [todo('Plan', 'completed', 'Planning'), todo('Build', 'in_progress', 'Building')] });
  const before = await read();
  assert.equal(
    before,
    '{"todos":[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"in_progress","activeForm":"Building"}]}',
  );
  const invalid = [
    {},
    { todos: 'nope' },
    { todos: [todo('New', 'pending', 'Newing'), { content: '' }] },
    { todos: [todo('New', 'pending', 'Newing'), todo('x', 'done', 'y')] },
    { todos: [todo('New', 'pending', 'Newing'), todo('x', 'pending', '')] },
  ];
  for (const params of invalid) {
    const result = await write(params);
    assert.equal(result.is_error, true, JSON.stringify(params));
    assert.equal(await read(), before, JSON.stringify(params));
  }
  const failed = await write({ todos: [todo('x', 'done', 'y')] });
  assert.equal(
    JSON.stringify(failed),
    `{"type":"tool_result","tool_use_id":"${failed.tool_use_id}","content":"Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed","is_error":true}`,
  );
});

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

test('registerTodoTools twice, or over a taken name, throws DUPLICATE_TOOL and registers neither', async () => {
  const registry = new ToolRegistry();
  registerTodoTools(registry);
  const writeHandler = registry.getTool('TodoWrite')?.handler;
  let err = thrown(() => registerTodoTools(registry));
  assert.equal(err.code, 'DUPLICATE_TOOL');
  assert.equal(err.message, 'tool "TodoWrite" is already registered');
  assert.deepEqual(names(registry), ['TodoWrite', 'TodoRead']);
  assert.equal(registry.getTool('TodoWrite')?.handler, writeHandler);

  const taken = new ToolRegistry();
  taken.register(def('TodoRead'), ok('mine'));
  err = thrown(() => registerTodoTools(taken));
  assert.equal(err.code, 'DUPLICATE_TOOL');
  assert.equal(err.message, 'tool "TodoRead" is already registered');
  assert.deepEqual(names(taken), ['TodoRead']);
  assert.equal(taken.getTool('TodoWrite'), undefined);
  assert.equal((await taken.executeTool('t', 'TodoRead', {})).content, 'mine');
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

test('offload: at the default threshold of 1000 UTF-16 units the result is offloaded, below it untouched', async () => {
  const writer = new RecordingWriter();
  const registry = offloading(writer);
  const under = 'x'.repeat(999);
  assert.deepEqual(await registry.executeTool('toolu_1', 'big', { content: under }), { type: 'tool_result', tool_use_id: 'toolu_1', content: under });
  assert.deepEqual(writer.calls, []);

  const at = 'y'.repeat(1000);
  const result = await registry.executeTool('toolu_2', 'big', { content: at });
  const file = '/virtual/out/s1/toolu_2.md';
  assert.deepEqual(result, { type: 'tool_result', tool_use_id: 'toolu_2', content: placeholder(file) });
  assert.equal('is_error' in result, false);
  assert.deepEqual(writer.calls, [
    ['mkdir', '/virtual/out/s1'],
    ['writeFile', file, at],
  ]);
  assert.equal(result.content, '[Tool result offloaded to file: /virtual/out/s1/toolu_2.md]');
});

test('offload: the threshold counts UTF-16 units (an emoji counts 2)', async () => {
  const writer = new RecordingWriter();
  const registry = offloading(writer);
  const emoji = '😀'.repeat(500); // 500 code points, 1000 UTF-16 units
  assert.equal(emoji.length, 1000);
  assert.equal((await registry.executeTool('e1', 'big', { content: emoji })).content, placeholder('/virtual/out/s1/e1.md'));
  assert.equal(writer.files.get('/virtual/out/s1/e1.md'), emoji);

  const under = '😀'.repeat(499) + 'a'; // 999 units, 1997 UTF-8 bytes
  assert.equal((await registry.executeTool('e2', 'big', { content: under })).content, under);
  const accents = 'é'.repeat(999); // 999 units, 1998 UTF-8 bytes
  assert.equal((await registry.executeTool('e3', 'big', { content: accents })).content, accents);
  assert.deepEqual([...writer.files.keys()], ['/virtual/out/s1/e1.md']);
});

test('offload: a custom thresholdChars, including 0', async () => {
  const writer = new RecordingWriter();
  const registry = offloading(writer, 10);
  assert.equal((await registry.executeTool('a', 'big', { content: '123456789' })).content, '123456789');
  assert.equal((await registry.executeTool('b', 'big', { content: '1234567890' })).content, placeholder('/virtual/out/s1/b.md'));
  assert.equal(writer.files.get('/virtual/out/s1/b.md'), '1234567890');

  // 0: everything is offloaded, even empty content and the not-found result.
  const all = new RecordingWriter();
  const zero = offloading(all, 0);
  assert.equal((await zero.executeTool('empty', 'big', { content: '' })).content, placeholder('/virtual/out/s1/empty.md'));
  assert.equal(all.files.get('/virtual/out/s1/empty.md'), '');
  assert.deepEqual(await zero.executeTool('nf', 'nope', {}), {
    type: 'tool_result',
    tool_use_id: 'nf',
    content: placeholder('/virtual/out/s1/nf.md'),
    is_error: true,
  });
  assert.equal(all.files.get('/virtual/out/s1/nf.md'), "Tool 'nope' not found");
});

test('offload: error results are offloaded too and keep is_error: true', async () => {
  const writer = new RecordingWriter();
  const registry = offloading(writer);
  const long = 'E'.repeat(1500);
  registry.register(def('throws'), () => {
    throw new Error(long);
  });
  const soft = await registry.executeTool('toolu_soft', 'big', { content: long, is_error: true });
  assert.equal(
    JSON.stringify(soft),
    '{"type":"tool_result","tool_use_id":"toolu_soft","content":"[Tool result offloaded to file: /virtual/out/s1/toolu_soft.md]","is_error":true}',
  );
  const hard = await registry.executeTool('toolu_hard', 'throws', {});
  assert.deepEqual(hard, { type: 'tool_result', tool_use_id: 'toolu_hard', content: placeholder('/virtual/out/s1/toolu_hard.md'), is_error: true });
  assert.equal(writer.files.get('/virtual/out/s1/toolu_soft.md'), long);
  assert.equal(writer.files.get('/virtual/out/s1/toolu_hard.md'), long);

  // A short error result passes through untouched.
  assert.deepEqual(await registry.executeTool('toolu_nf', 'missing', {}), {
    type: 'tool_result',
    tool_use_id: 'toolu_nf',
    content: "Tool 'missing' not found",
    is_error: true,
  });
  assert.equal(writer.files.size, 2);
});

test('offload: the file holds the content byte for byte, and the same id overwrites', async () => {
  const writer = new RecordingWriter();
  const registry = offloading(writer);
  const content = 'line\n'.repeat(300) + '\r\n"quoted" \\ \u2028 \uFEFFé😀\t\0end  ';
  assert.equal((await registry.executeTool('toolu_b', 'big', { content })).content, placeholder('/virtual/out/s1/toolu_b.md'));
  assert.equal(writer.files.get('/virtual/out/s1/toolu_b.md'), content);
  const json = `[${'{"a":1.0},'.repeat(200).slice(0, -1)}]`;
  await registry.executeTool('toolu_b', 'big', { content: json });
  assert.equal(writer.files.get('/virtual/out/s1/toolu_b.md'), json, 'JSON-looking content is written as text');
  assert.equal(writer.files.size, 1);
});

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

    assert.deepEqual(await registry.executeTool('toolu_02', 'small', {}), { type: 'tool_result', tool_use_id: 'toolu_02', content: 'tiny' });
    assert.deepEqual(readdirSync(dir), ['toolu_01A.md']);

    // A large TodoRead is offloaded like any other result.
    registerTodoTools(registry);
    const todos = Array.from({ length: 40 }, (_, i) => todo(`Task ${i}`, 'pending', `Doing task ${i}`));
    assert.equal((await registry.executeTool('toolu_w', 'TodoWrite', { todos })).content, '{"success":true,"count":40}');
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
  assert.deepEqual(await registry.executeTool('toolu_3', 'big', { content: 'small' }), { type: 'tool_result', tool_use_id: 'toolu_3', content: 'small' });
  assert.equal(writer.calls.length, before);
});

test(
  'offload: a result that already is a placeholder is returned unchanged, not rejected',
  async () => {
    const writer = new RecordingWriter();
    const registry = offloading(writer, 10);
    for (const content of ['[Tool result offloaded to file: /elsewhere/s0/toolu_0.md]', '[Content offloaded to: ./tool-result-toolu_0.md]']) {
      assert.deepEqual(await registry.executeTool('toolu_p', 'big', { content }), { type: 'tool_result', tool_use_id: 'toolu_p', content });
    }
    assert.deepEqual(writer.calls, []);
  },
);

test('offload: a tool_use_id that cannot name a file rejects with INVALID_ID only when offloading', async () => {
  for (const id of ['../x', 'a/b', '..', '.', '', 'a\\b', 'a\0b', 'a'.repeat(253)]) {
    const writer = new RecordingWriter();
    const registry = offloading(writer);
    const err = await rejected(registry.executeTool(id, 'big', { content: 'x'.repeat(1000) }));
    assert.equal(err.code, 'INVALID_ID', JSON.stringify(id));
    assert.match(err.message, /tool_use_id/);
    assert.deepEqual(writer.calls, []);
    // Below the threshold the id is only echoed back.
    assert.deepEqual(await registry.executeTool(id, 'big', { content: 'small' }), { type: 'tool_result', tool_use_id: id, content: 'small' });
  }
  const writer = new RecordingWriter();
  const longest = 'a'.repeat(252);
  await offloading(writer).executeTool(longest, 'big', { content: 'x'.repeat(1000) });
  assert.ok(writer.files.has(`/virtual/out/s1/${longest}.md`));
});

test('offload: invalid options throw OffloadError at construction', () => {
  const writer = new RecordingWriter();
  const base = { outputDir: '/out', sessionId: 's1', writer };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ sessionId: '..' }, 'INVALID_ID', 'invalid sessionId "..": is a relative path component ("." or "..")'],
    [{ sessionId: '' }, 'INVALID_ID', ''],
    [{ sessionId: 'a/b' }, 'INVALID_ID', ''],
    [{ sessionId: 7 }, 'INVALID_ARGUMENT', 'invalid argument: offload.sessionId must be a string, got number'],
    [{ sessionId: undefined }, 'INVALID_ARGUMENT', 'invalid argument: offload.sessionId must be a string, got undefined'],
    [{ outputDir: null }, 'INVALID_ARGUMENT', 'invalid argument: offload.outputDir must be a string, got null'],
    [{ thresholdChars: 1.5 }, 'INVALID_ARGUMENT', 'invalid argument: offload.thresholdChars must be a non-negative integer, got 1.5'],
    [{ thresholdChars: -1 }, 'INVALID_ARGUMENT', 'invalid argument: offload.thresholdChars must be a non-negative integer, got -1'],
    [{ thresholdChars: Number.NaN }, 'INVALID_ARGUMENT', 'invalid argument: offload.thresholdChars must be a non-negative integer, got NaN'],
    [{ thresholdChars: Infinity }, 'INVALID_ARGUMENT', 'invalid argument: offload.thresholdChars must be a non-negative integer, got Infinity'],
    [{ thresholdChars: '10' }, 'INVALID_ARGUMENT', ''],
    [{ thresholdChars: null }, 'INVALID_ARGUMENT', ''],
    [{ writer: { mkdir() {} } }, 'INVALID_ARGUMENT', 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods'],
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
  assert.equal(err.message, 'invalid argument: writer must be an object with mkdir(dir) and writeFile(path, data) methods');
});

test('without offload options nothing is offloaded and no writer is needed', async () => {
  for (const registry of [new ToolRegistry(), new ToolRegistry({}), new ToolRegistry({ offload: undefined }), new wasm.ToolRegistry(undefined), new wasm.ToolRegistry({})]) {
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
