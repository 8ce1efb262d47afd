// Regenerates tests/vectors/registry-*.json and todo-*.json: the tool registry (register,
// execute, its offload and materialize policies, the read-back tools) and TodoWrite /
// TodoRead. Format and regeneration: tests/vectors/README.md.
//
// Facts JavaScript defines are computed here: the tool_result shapes, the "not found"
// text, handler outcomes, the offload threshold in UTF-16 units and its placeholder, the
// todo texts of the spec (docs: TodoWrite/TodoRead), file contents. Texts whose format core
// defines (summaries, pages, the read tools' definitions, error messages) are `$core`,
// kept from the last bless.
import { writeFileSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { StepCase, here, isStoredForm, previousVectors, wellFormed } from './shared.mjs';

const previous = new Map([...previousVectors('registry'), ...previousVectors('todo')]);
const DATA = '/data';
const CONV = 'conv-1';
const LIMITS = { maxInlineChars: 4000, maxInlineBytes: 16384 };
const echoSchema = { type: 'object', properties: { text: { type: 'string' } } };

class Case extends StepCase {
  constructor(name, description) {
    super(previous, name, description);
  }
  registry(options = {}) {
    this.policy = options;
    return this.step('registry', options, null);
  }
  register(definition, handler, error) {
    if (error) return this.fail('register', { definition, handler }, error);
    return this.step('register', { definition, handler }, null);
  }
  /** `execute`, the expected result computed from what the handler gives. */
  execute(toolUseId, name, params, outcome, { expectError, materialized } = {}) {
    const inputs = { toolUseId, name, ...(params !== undefined ? { params } : {}) };
    if (expectError) return this.fail('execute', inputs, expectError.code, expectError.path);
    let { content, isError } = outcome;
    const offload = this.policy?.offload;
    if (
      offload &&
      !materialized?.passthrough &&
      content.length >= (offload.thresholdChars ?? 1000) &&
      !isStoredForm(content)
    ) {
      // A reused id never overwrites: the first free name of id.md, id-1.md, id-2.md…
      const dir = `${offload.outputDir}/${offload.sessionId}`;
      let path = `${dir}/${toolUseId}.md`;
      for (let n = 1; this.files.has(path); n++) path = `${dir}/${toolUseId}-${n}.md`;
      this.files.set(path, wellFormed(content));
      content = `[Tool result offloaded to file: ${path}]`;
    }
    if (this.policy?.materialize && materialized?.over) {
      this.files.set(`${DATA}/context/${CONV}/artifacts/tool/${toolUseId}.txt`, wellFormed(content));
      content = this.core('expect', 'content');
    }
    return this.step('execute', inputs, {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content,
      ...(isError ? { is_error: true } : {}),
    });
  }
}

const cases = [];
const add = (prefix, c) => (cases.push([prefix, c]), c);
const def = (name, schema = echoSchema, description = `The ${name} tool.`) => ({
  name,
  description,
  input_schema: schema,
});
const returns = (content, isError) => ({ returns: { content, ...(isError ? { is_error: true } : {}) } });
const over = (n) => 'x'.repeat(n);
/** What a materializer keeps inline: within both limits. */
const inline = (s) => s.length <= LIMITS.maxInlineChars && Buffer.byteLength(s) <= LIMITS.maxInlineBytes;

{
  const c = add(
    'registry',
    new Case(
      'execute',
      "Every handler outcome becomes a tool_result carrying the tool_use_id: output as is, is_error kept, a thrown error's message as an error result, an unknown tool \"Tool '<name>' not found\"; definitions in registration order.",
    ),
  );
  c.registry();
  c.register(def('echo'), { echo: true });
  c.register(def('report'), returns('2 files changed'));
  c.register(def('lint'), returns('3 warnings', true));
  c.register(def('broken'), { fails: 'disk on fire' });
  c.step('definitions', {}, [def('echo'), def('report'), def('lint'), def('broken')]);
  const params = { text: 'hi 😀', n: [1, 2.5, -0] };
  c.execute('toolu_1', 'echo', params, { content: JSON.stringify(params) });
  c.execute('toolu_2', 'report', {}, { content: '2 files changed' });
  c.execute('toolu_3', 'lint', {}, { content: '3 warnings', isError: true });
  c.execute('toolu_4', 'broken', {}, { content: 'disk on fire', isError: true });
  c.execute('toolu_5', 'nope', {}, { content: "Tool 'nope' not found", isError: true });
}
{
  const c = add(
    'registry',
    new Case(
      'register-errors',
      'Names must match ^[a-zA-Z0-9_-]{1,64}$ (INVALID_TOOL_NAME), be unique (DUPLICATE_TOOL, the first kept) and input_schema must be an object (INVALID_TOOL_DEFINITION); nothing is registered on an error.',
    ),
  );
  c.registry();
  for (const name of ['', 'has space', 'dot.name', 'ü', 'a'.repeat(65)])
    c.register(def(name), returns('x'), 'INVALID_TOOL_NAME');
  c.register(def('a'.repeat(64)), returns('64'));
  c.register(def('ok-name_1'), returns('first'));
  c.register(def('ok-name_1', echoSchema, 'Another.'), returns('second'), 'DUPLICATE_TOOL');
  for (const schema of [[], 'object', null, 1])
    c.register(def('bad_schema', schema), returns('x'), 'INVALID_TOOL_DEFINITION');
  c.step('definitions', {}, [def('a'.repeat(64)), def('ok-name_1')]);
  c.execute('toolu_1', 'ok-name_1', {}, { content: 'first' });
  c.execute('toolu_2', 'bad_schema', {}, { content: "Tool 'bad_schema' not found", isError: true });
}
{
  const c = add(
    'registry',
    new Case(
      'definition-formats',
      'getToolDefinitions({ format }) gives each API its tools array: anthropic (the default) { name, description, input_schema }; openai-chat { type: "function", function: { name, description, parameters } }; openai-responses { type: "function", name, description, parameters, strict: false }; mcp { name, description, inputSchema }. Another format is INVALID_ARGUMENT.',
    ),
  );
  c.registry();
  c.register(def('echo'), { echo: true });
  const { name, description, input_schema: schema } = def('echo');
  c.step('definitions', { format: 'anthropic' }, [def('echo')]);
  c.step('definitions', { format: 'openai-chat' }, [
    { type: 'function', function: { name, description, parameters: schema } },
  ]);
  c.step('definitions', { format: 'openai-responses' }, [
    { type: 'function', name, description, parameters: schema, strict: false },
  ]);
  c.step('definitions', { format: 'mcp' }, [{ name, description, inputSchema: schema }]);
  c.fail('definitions', { format: 'gemini' }, 'INVALID_ARGUMENT');
}
{
  const c = add(
    'registry',
    new Case(
      'offload',
      'With offload, results of at least thresholdChars (default 1000) UTF-16 units go to <outputDir>/<sessionId>/<tool_use_id>.md and come back as the placeholder, is_error kept; 999 units stay; a result that already is a placeholder is never offloaded again; a tool_use_id that cannot name a file is INVALID_ID only when offloading.',
    ),
  );
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's1' } });
  c.register(def('echo'), { echo: true });
  c.register(def('big'), returns('😀'.repeat(500)));
  c.register(def('big_error'), returns(over(1200), true));
  c.register(def('small'), returns(over(999)));
  c.execute('toolu_1', 'big', {}, { content: '😀'.repeat(500) });
  c.execute('toolu_2', 'big_error', {}, { content: over(1200), isError: true });
  c.execute('toolu_3', 'small', {}, { content: over(999) });
  c.execute('toolu_4', 'nope', {}, { content: "Tool 'nope' not found", isError: true });
  c.execute('../escape', 'small', {}, { content: over(999) });
  c.execute('../escape', 'big', {}, null, { expectError: { code: 'INVALID_ID' } });
  c.execute('toolu_5', 'echo', { text: over(1000) }, { content: JSON.stringify({ text: over(1000) }) });
}
{
  const c = add(
    'registry',
    new Case(
      'offload-threshold-and-placeholders',
      'thresholdChars 10: a result of 10 units is offloaded, 9 stay; a handler returning what already stands for stored content (over the threshold) — a placeholder, a Materializer summary, a <knowledge_list>, a page the read tools returned — gets it back unchanged.',
    ),
  );
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's2', thresholdChars: 10 } });
  c.register(def('ten'), returns('0123456789'));
  c.register(def('nine'), returns('012345678'));
  c.register(def('again'), returns('[Tool result offloaded to file: /work/out/s2/toolu_1.md]'));
  c.execute('toolu_1', 'ten', {}, { content: '0123456789' });
  c.execute('toolu_2', 'nine', {}, { content: '012345678' });
  c.execute('toolu_3', 'again', {}, { content: '[Tool result offloaded to file: /work/out/s2/toolu_1.md]' });
  const stored = [
    '[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9 bytes',
    '<knowledge_list>\n<knowledge id="tool_result_c2">x</knowledge>\n</knowledge_list>',
    '[ctx://c/tool/c1.txt: lines 1-2 of 4. More: context_read("ctx://c/tool/c1.txt", 2)]\n1| a\n2| b',
  ];
  stored.forEach((text, i) => {
    c.register(def(`stored${i}`), returns(text));
    c.execute(`toolu_${4 + i}`, `stored${i}`, {}, { content: text });
  });
}
{
  const c = add(
    'registry',
    new Case(
      'offload-reused-id',
      'A tool_use_id used again never overwrites the earlier result: the second goes to <id>-1.md, the third to <id>-2.md, even with the same text (the registry holds only a writer, so it never compares).',
    ),
  );
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's3' } });
  c.register(def('first'), returns(over(1000)));
  c.register(def('second'), returns('y'.repeat(1200)));
  c.execute('toolu_1', 'first', {}, { content: over(1000) });
  c.execute('toolu_1', 'second', {}, { content: 'y'.repeat(1200) });
  c.execute('toolu_1', 'first', {}, { content: over(1000) });
  c.execute('toolu_2', 'first', {}, { content: over(1000) });
}
{
  const c = add(
    'registry',
    new Case(
      'offload-write-failure',
      'A failing write rejects with WRITE_FAILED naming the path; the result is never silently inlined. A session id that cannot name a directory is INVALID_ID when the registry is made.',
    ),
  );
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's1', failOn: '/work/out/s1/toolu_1.md' } });
  c.register(def('big'), returns(over(1000)));
  c.execute('toolu_1', 'big', {}, null, { expectError: { code: 'WRITE_FAILED', path: '/work/out/s1/toolu_1.md' } });
  c.execute('toolu_2', 'big', {}, { content: over(1000) });
  c.fail('registry', { offload: { outputDir: '/work/out', sessionId: '../s' } }, 'INVALID_ID');
}
{
  const c = add(
    'registry',
    new Case(
      'materialize',
      "With materialize, a result over the materializer's limits comes back as its summary (is_error kept) and is stored; within the limits it is handed back as is; content that already is a summary is left alone (never materialized again); the read-back tools are registered all or none and their pages are never materialized.",
    ),
  );
  c.registry({ materialize: true });
  const log = 'line of a long build log\n'.repeat(200);
  c.register(def('build'), returns(log));
  c.register(def('build_failed'), returns(log, true));
  c.register(def('short'), returns('ok'));
  const first = c.execute('call_1', 'build', {}, { content: log }, { materialized: { over: !inline(log) } });
  c.execute('call_2', 'build_failed', {}, { content: log, isError: true }, { materialized: { over: !inline(log) } });
  c.execute('call_3', 'short', {}, { content: 'ok' }, { materialized: { over: false } });
  c.register(def('summary_again'), { returns: { content: { $from: [first, 'content'] } } });
  c.step(
    'execute',
    { toolUseId: 'call_4', name: 'summary_again', params: {} },
    { type: 'tool_result', tool_use_id: 'call_4', content: { $from: [first, 'content'] } },
  );
  // Two hits, one inline; the summary handed back again is not counted at all.
  c.step('stats', {}, { hits: 2, inlined: 1, savedChars: c.core('expect', 'savedChars') });
  c.step('registerReadTools', {}, null);
  c.step('definitions', {}, c.core('expect'));
  c.step(
    'execute',
    { toolUseId: 'call_5', name: 'context_read', params: { ref: `ctx://${CONV}/tool/call_1.txt`, limit: 200 } },
    { type: 'tool_result', tool_use_id: 'call_5', content: c.core('expect', 'content') },
  );
  c.step(
    'execute',
    { toolUseId: 'call_6', name: 'context_grep', params: { ref: `ctx://${CONV}/tool/nope.txt`, pattern: 'x' } },
    { type: 'tool_result', tool_use_id: 'call_6', content: c.core('expect', 'content'), is_error: true },
  );
  c.fail('registerReadTools', {}, 'DUPLICATE_TOOL');
}
{
  const c = add(
    'registry',
    new Case(
      'read-tools-all-or-none',
      'registerReadTools when one of the names is taken: DUPLICATE_TOOL and none of the three is registered.',
    ),
  );
  c.registry();
  c.register(def('context_tail'), returns('mine'));
  c.fail('registerReadTools', {}, 'DUPLICATE_TOOL');
  c.step('definitions', {}, [def('context_tail')]);
  c.step('registerTodoTools', {}, null);
  c.step('definitions', {}, c.core('expect'));
}
{
  const c = add(
    'todo',
    new Case(
      'write-read',
      'TodoRead of an empty list is {"todos":[]}; TodoWrite replaces the whole list and answers {"success":true,"count":N}; TodoRead gives each item with exactly content, status, activeForm in that order.',
    ),
  );
  c.registry();
  c.step('registerTodoTools', {}, null);
  c.execute('t1', 'TodoRead', {}, { content: '{"todos":[]}' });
  const todos = [
    { content: 'Plan', status: 'completed', activeForm: 'Planning', extra: 1 },
    { activeForm: 'Building', status: 'in_progress', content: 'Build 😀' },
    { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
  ];
  c.execute('t2', 'TodoWrite', { todos }, { content: '{"success":true,"count":3}' });
  const read = { todos: todos.map(({ content, status, activeForm }) => ({ content, status, activeForm })) };
  c.execute('t3', 'TodoRead', {}, { content: JSON.stringify(read) });
  c.execute('t4', 'TodoWrite', { todos: [] }, { content: '{"success":true,"count":0}' });
  c.execute('t5', 'TodoRead', {}, { content: '{"todos":[]}' });
  c.fail('registerTodoTools', {}, 'DUPLICATE_TOOL');
}
{
  const c = add(
    'todo',
    new Case(
      'register-all-or-none',
      'registerTodoTools when TodoRead is taken: DUPLICATE_TOOL and TodoWrite is not registered either.',
    ),
  );
  c.registry();
  c.register(def('TodoRead'), returns('mine'));
  c.fail('registerTodoTools', {}, 'DUPLICATE_TOOL');
  c.step('definitions', {}, [def('TodoRead')]);
  c.execute('t1', 'TodoWrite', { todos: [] }, { content: "Tool 'TodoWrite' not found", isError: true });
  c.execute('t2', 'TodoRead', {}, { content: 'mine' });
}
{
  const c = add(
    'todo',
    new Case(
      'validation',
      'TodoWrite validates in order and stops at the first error, returned as an is_error result with the exact message; the list is then left as it was.',
    ),
  );
  c.registry();
  c.step('registerTodoTools', {}, null);
  c.execute(
    't1',
    'TodoWrite',
    { todos: [{ content: 'Keep', status: 'pending', activeForm: 'Keeping' }] },
    { content: '{"success":true,"count":1}' },
  );
  const bad = [
    [{}, "'todos' array is required"],
    [{ todos: 'all' }, "'todos' must be an array"],
    [
      { todos: [{ content: '  ', status: 'pending', activeForm: 'x' }] },
      'Todo at index 0: content is required and cannot be empty',
    ],
    [
      {
        todos: [
          { content: 'a', status: 'pending', activeForm: 'A' },
          { content: 'b', status: 'done', activeForm: 'B' },
        ],
      },
      "Todo at index 1: invalid status 'done'. Must be one of: pending, in_progress, completed",
    ],
    [{ todos: [{ content: 'a', status: 'pending' }] }, 'Todo at index 0: activeForm is required and cannot be empty'],
    [{ todos: [null] }, 'Todo at index 0: content is required and cannot be empty'],
  ];
  bad.forEach(([params, message], i) => c.execute(`bad${i}`, 'TodoWrite', params, { content: message, isError: true }));
  c.execute(
    't2',
    'TodoRead',
    {},
    { content: '{"todos":[{"content":"Keep","status":"pending","activeForm":"Keeping"}]}' },
  );
}

// TodoWrite as the spec defines it (docs): validation in order, stopping at the first
// error; `String(value)` renders a bad status; content and activeForm must be strings
// that JavaScript's trim() leaves non-empty; text is stored untrimmed.
const STATUSES = ['pending', 'in_progress', 'completed'];
function todoWrite(list, params) {
  const todos = params?.todos;
  if (params === null || typeof params !== 'object' || Array.isArray(params) || todos === undefined)
    return { content: "'todos' array is required", isError: true };
  if (!Array.isArray(todos)) return { content: "'todos' must be an array", isError: true };
  const parsed = [];
  const text = (v) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  for (const [i, item] of todos.entries()) {
    const field = (k) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? item[k] : undefined);
    const content = text(field('content'));
    if (content === null)
      return { content: `Todo at index ${i}: content is required and cannot be empty`, isError: true };
    const status = field('status');
    if (typeof status !== 'string' || !STATUSES.includes(status)) {
      return {
        content: `Todo at index ${i}: invalid status '${String(status)}'. Must be one of: pending, in_progress, completed`,
        isError: true,
      };
    }
    const activeForm = text(field('activeForm'));
    if (activeForm === null)
      return { content: `Todo at index ${i}: activeForm is required and cannot be empty`, isError: true };
    parsed.push({ content, status, activeForm });
  }
  list.splice(0, list.length, ...parsed);
  return { content: JSON.stringify({ success: true, count: parsed.length }) };
}
const todoRead = (list) => ({ content: JSON.stringify({ todos: list }) });
const item = (content, status, activeForm) => ({ content, status, activeForm });

{
  const c = add(
    'todo',
    new Case(
      'validation-exhaustive',
      'Every TodoWrite error message, in the documented order: a missing or non-array todos; blank content and activeForm (JavaScript trim: U+0085, U+200B and U+180E are not whitespace); a bad status rendered as JavaScript String() renders it; non-object items; content before status before activeForm; earlier items first. Text is stored verbatim and read back escaped as JSON.stringify escapes it.',
    ),
  );
  c.registry();
  c.step('registerTodoTools', {}, null);
  const list = [];
  let n = 0;
  const write = (params) => c.execute(`w${n++}`, 'TodoWrite', params, todoWrite(list, params));
  for (const params of [
    {},
    { todo: [] },
    { Todos: [] },
    null,
    [],
    { todos: null },
    { todos: 'x' },
    { todos: 1 },
    { todos: {} },
    { todos: { 0: item('a', 'pending', 'A') } },
  ])
    write(params);
  for (const blank of ['', ' ', '\t\n', '\u00a0', '\ufeff', '\u2028', '\u3000', 1, null, true, [], {}, ['x']]) {
    write({ todos: [{ content: blank, status: 'pending', activeForm: 'Doing' }] });
    write({ todos: [{ content: 'Do', status: 'pending', activeForm: blank }] });
  }
  write({ todos: [{ status: 'pending', activeForm: 'Doing' }] });
  write({ todos: [{ content: 'Do', status: 'pending' }] });
  for (const status of [
    null,
    42,
    1.5,
    -3,
    0.1,
    1e21,
    true,
    false,
    'done',
    'Pending',
    'PENDING',
    ' pending',
    'in-progress',
    '',
    ['a', 'b'],
    [['a', 'b'], 'c'],
    [null, 1, 'x'],
    ['pending'],
    [],
    {},
    { status: 'pending' },
    [{}],
  ]) {
    write({ todos: [{ content: 'Do', status, activeForm: 'Doing' }] });
  }
  write({ todos: [{ content: 'Do', activeForm: 'Doing' }] });
  for (const bad of ['Plan', null, 1, [], ['Plan', 'pending', 'Planning']]) write({ todos: [bad] });
  write({ todos: [item('ok', 'pending', 'ok'), null] });
  write({ todos: [{ status: 'bad' }] });
  write({ todos: [{ content: '', status: 'bad', activeForm: '' }] });
  write({ todos: [{ content: 'Do', status: 'bad', activeForm: '' }] });
  write({ todos: [item('a', 'pending', 'A'), { content: 'b', status: 'bad' }, { content: '' }] });
  c.execute('r0', 'TodoRead', {}, todoRead(list));
  write({
    todos: [
      item('x', 'pending', 'y'),
      item('  padded  ', 'completed', '\tpadded\n'),
      item('say "hi"\n\\ é 😀 \u2028', 'in_progress', 'a\u0001'),
    ],
  });
  c.execute('r1', 'TodoRead', { ignored: true }, todoRead(list));
  for (const kept of ['\u0085', '\u200b', '\u180e', '\u0085\u0085']) write({ todos: [item(kept, 'pending', kept)] });
  c.execute('r2', 'TodoRead', {}, todoRead(list));
  write({ todos: [item('Keep', 'pending', 'Keeping')] });
  write({ todos: [item('New', 'pending', 'Newing'), { content: 'Broken' }] });
  c.execute('r3', 'TodoRead', {}, todoRead(list));
}
{
  const c = add(
    'registry',
    new Case(
      'names',
      'Tool names: 1 to 64 characters of A–Z a–z 0–9 _ - (case-sensitive: "Echo" and "echo" are two tools); anything else is INVALID_TOOL_NAME; an empty object schema is accepted; failed registrations leave the registry usable and in order.',
    ),
  );
  c.registry();
  const ok = ['a', 'a'.repeat(64), 'get_weather', 'Get-Weather-2', '_', '-', '0', 'AZaz09_-', 'Echo', 'echo'];
  const bad = [
    '',
    'a'.repeat(65),
    'a b',
    ' a',
    'a ',
    'a.b',
    'é',
    '工具',
    'a\n',
    'a\u0000',
    'a/b',
    'a:b',
    'a😀',
    'a\u200b',
    'é'.repeat(32),
  ];
  for (const [i, name] of ok.entries()) {
    c.register(def(name, i === 0 ? {} : echoSchema), returns(`I am ${name}`));
    if (i < bad.length) c.register(def(bad[i]), returns('x'), 'INVALID_TOOL_NAME');
  }
  for (const name of bad.slice(ok.length)) c.register(def(name), returns('x'), 'INVALID_TOOL_NAME');
  c.step(
    'definitions',
    {},
    ok.map((name, i) => def(name, i === 0 ? {} : echoSchema)),
  );
  c.execute('toolu_1', 'Echo', {}, { content: 'I am Echo' });
  c.execute('toolu_2', 'echo', {}, { content: 'I am echo' });
  c.execute('toolu_3', 'ECHO', {}, { content: "Tool 'ECHO' not found", isError: true });
}
{
  const c = add(
    'registry',
    new Case(
      'tool-use-id-on-every-path',
      'The result carries the tool_use_id passed in, on every path (output, reported error, thrown error, unknown tool), whatever it looks like; is_error appears only when true; the handler gets the params as given.',
    ),
  );
  c.registry();
  c.execute('toolu_0', 'echo', {}, { content: "Tool 'echo' not found", isError: true });
  c.register(def('echo'), { echo: true });
  c.register(def('lint'), returns('warn', true));
  c.register(def('quiet'), returns(''));
  c.register(def('broken'), { fails: 'boom 😀' });
  for (const id of ['toolu_01A', 'call with spaces', 'ü/../ü', '']) {
    c.execute(id, 'echo', { id }, { content: JSON.stringify({ id }) });
    c.execute(id, 'lint', {}, { content: 'warn', isError: true });
    c.execute(id, 'broken', {}, { content: 'boom 😀', isError: true });
    c.execute(id, 'nope', {}, { content: "Tool 'nope' not found", isError: true });
  }
  c.execute('toolu_q', 'quiet', {}, { content: '' });
  const params = { nested: { list: [1, 2.5, 1e21, null, true], text: 'tab\t"quote"\n' }, 2: 'two', b: 'b', 1: 'one' };
  c.execute('toolu_p', 'echo', params, { content: JSON.stringify(params) });
  c.execute('toolu_n', 'echo', undefined, { content: 'null' });
}
{
  const c = add(
    'registry',
    new Case(
      'offload-edges',
      'Offloading counts UTF-16 units (500 emoji are 1000: offloaded; 499 emoji and one letter are 999: kept); thresholdChars 0 offloads even an empty result; the file holds the content byte for byte (JSON-looking text too); the same id never overwrites its file (the second goes to <id>-1.md); a failing directory is WRITE_FAILED with nothing written; under the threshold a failing writer does not matter.',
    ),
  );
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's1' } });
  c.register(def('emoji'), returns('😀'.repeat(500)));
  c.register(def('almost'), returns('😀'.repeat(499) + 'a'));
  c.register(def('json'), returns(JSON.stringify({ rows: Array.from({ length: 120 }, (_, i) => ({ i, v: 'é' })) })));
  c.register(def('v1'), returns('first '.repeat(200)));
  c.register(def('v2'), returns('second '.repeat(200)));
  c.execute('toolu_e', 'emoji', {}, { content: '😀'.repeat(500) });
  c.execute('toolu_a', 'almost', {}, { content: '😀'.repeat(499) + 'a' });
  c.execute(
    'toolu_j',
    'json',
    {},
    { content: JSON.stringify({ rows: Array.from({ length: 120 }, (_, i) => ({ i, v: 'é' })) }) },
  );
  c.execute('toolu_same', 'v1', {}, { content: 'first '.repeat(200) });
  c.execute('toolu_same', 'v2', {}, { content: 'second '.repeat(200) });
  c.registry({ offload: { outputDir: '/work/zero', sessionId: 's0', thresholdChars: 0 } });
  c.register(def('empty'), returns(''));
  c.execute('toolu_z', 'empty', {}, { content: '' });
  c.registry({ offload: { outputDir: '/work/fail', sessionId: 's9', failOn: '/work/fail/s9' } });
  c.register(def('big'), returns('x'.repeat(1000)));
  c.register(def('small'), returns('x'.repeat(999)));
  c.execute('toolu_b', 'big', {}, null, { expectError: { code: 'WRITE_FAILED', path: '/work/fail/s9' } });
  c.execute('toolu_s', 'small', {}, { content: 'x'.repeat(999) });
  for (const id of ['a/b', '..', '.', 'a\\b', 'nul\u0000id'])
    c.execute(id, 'big', {}, null, { expectError: { code: 'INVALID_ID' } });
}

for (const prefix of ['registry', 'todo']) {
  for (const old of readdirSync(here).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json')))
    unlinkSync(join(here, old));
}
let pending = 0;
for (const [prefix, c] of cases) {
  const text = JSON.stringify(c, null, 2);
  pending += (text.match(/"\$core": null/g) ?? []).length;
  writeFileSync(join(here, `${prefix}-${c.name}.json`), text + '\n');
}
console.log(
  `wrote ${cases.length} registry and todo vectors${pending ? `; ${pending} core texts not blessed yet: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host, then run this again` : ''}`,
);
