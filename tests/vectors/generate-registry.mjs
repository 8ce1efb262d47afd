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
import { core, here, isPlaceholder, previousVectors, wellFormed } from './shared.mjs';

const previous = new Map([...previousVectors('registry'), ...previousVectors('todo')]);
const DATA = '/data';
const CONV = 'conv-1';
const LIMITS = { maxInlineChars: 4000, maxInlineBytes: 16384 };
const echoSchema = { type: 'object', properties: { text: { type: 'string' } } };

class Case {
  constructor(name, description) {
    Object.assign(this, { name, description, steps: [], files: new Map() });
  }
  /** `$core` for `path` of the step being added (its `expect`, or `error`). */
  core(...path) {
    let old = previous.get(this.name)?.steps?.[this.steps.length];
    for (const key of path) old = old?.[key];
    return core(old);
  }
  step(op, inputs, expect) {
    this.steps.push({ op, ...inputs, expect });
    return this.steps.length - 1;
  }
  fail(op, inputs, code, path) {
    this.steps.push({ op, ...inputs, error: { code, message: this.core('error', 'message'), ...(path ? { path } : {}) } });
    return this.steps.length - 1;
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
    if (offload && !materialized?.passthrough && content.length >= (offload.thresholdChars ?? 1000) && !isPlaceholder(content)) {
      const path = `${offload.outputDir}/${offload.sessionId}/${toolUseId}.md`;
      this.files.set(path, wellFormed(content));
      content = `[Tool result offloaded to file: ${path}]`;
    }
    if (this.policy?.materialize && materialized?.over) {
      this.files.set(`${DATA}/context/${CONV}/artifacts/tool/${toolUseId}.txt`, wellFormed(content));
      content = this.core('expect', 'content');
    }
    return this.step('execute', inputs, { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) });
  }
  toJSON() {
    const files = [...this.files].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return { name: this.name, description: this.description, steps: this.steps, files: Object.fromEntries(files) };
  }
}

const cases = [];
const add = (prefix, c) => (cases.push([prefix, c]), c);
const def = (name, schema = echoSchema, description = `The ${name} tool.`) => ({ name, description, input_schema: schema });
const returns = (content, isError) => ({ returns: { content, ...(isError ? { is_error: true } : {}) } });
const over = (n) => 'x'.repeat(n);
/** What a materializer keeps inline: within both limits. */
const inline = (s) => s.length <= LIMITS.maxInlineChars && Buffer.byteLength(s) <= LIMITS.maxInlineBytes;

{
  const c = add('registry', new Case('execute', 'Every handler outcome becomes a tool_result carrying the tool_use_id: output as is, is_error kept, a thrown error\'s message as an error result, an unknown tool "Tool \'<name>\' not found"; definitions in registration order.'));
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
  const c = add('registry', new Case('register-errors', 'Names must match ^[a-zA-Z0-9_-]{1,64}$ (INVALID_TOOL_NAME), be unique (DUPLICATE_TOOL, the first kept) and input_schema must be an object (INVALID_TOOL_DEFINITION); nothing is registered on an error.'));
  c.registry();
  for (const name of ['', 'has space', 'dot.name', 'ü', 'a'.repeat(65)]) c.register(def(name), returns('x'), 'INVALID_TOOL_NAME');
  c.register(def('a'.repeat(64)), returns('64'));
  c.register(def('ok-name_1'), returns('first'));
  c.register(def('ok-name_1', echoSchema, 'Another.'), returns('second'), 'DUPLICATE_TOOL');
  for (const schema of [[], 'object', null, 1]) c.register(def('bad_schema', schema), returns('x'), 'INVALID_TOOL_DEFINITION');
  c.step('definitions', {}, [def('a'.repeat(64)), def('ok-name_1')]);
  c.execute('toolu_1', 'ok-name_1', {}, { content: 'first' });
  c.execute('toolu_2', 'bad_schema', {}, { content: "Tool 'bad_schema' not found", isError: true });
}
{
  const c = add('registry', new Case('offload', 'With offload, results of at least thresholdChars (default 1000) UTF-16 units go to <outputDir>/<sessionId>/<tool_use_id>.md and come back as the placeholder, is_error kept; 999 units stay; a result that already is a placeholder is never offloaded again; a tool_use_id that cannot name a file is INVALID_ID only when offloading.'));
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
  const c = add('registry', new Case('offload-threshold-and-placeholders', 'thresholdChars 10: a result of 10 units is offloaded, 9 stay; a handler returning a placeholder (over the threshold) gets it back unchanged.'));
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's2', thresholdChars: 10 } });
  c.register(def('ten'), returns('0123456789'));
  c.register(def('nine'), returns('012345678'));
  c.register(def('again'), returns('[Tool result offloaded to file: /work/out/s2/toolu_1.md]'));
  c.execute('toolu_1', 'ten', {}, { content: '0123456789' });
  c.execute('toolu_2', 'nine', {}, { content: '012345678' });
  c.execute('toolu_3', 'again', {}, { content: '[Tool result offloaded to file: /work/out/s2/toolu_1.md]' });
}
{
  const c = add('registry', new Case('offload-write-failure', 'A failing write rejects with WRITE_FAILED naming the path; the result is never silently inlined. A session id that cannot name a directory is INVALID_ID when the registry is made.'));
  c.registry({ offload: { outputDir: '/work/out', sessionId: 's1', failOn: '/work/out/s1/toolu_1.md' } });
  c.register(def('big'), returns(over(1000)));
  c.execute('toolu_1', 'big', {}, null, { expectError: { code: 'WRITE_FAILED', path: '/work/out/s1/toolu_1.md' } });
  c.execute('toolu_2', 'big', {}, { content: over(1000) });
  c.fail('registry', { offload: { outputDir: '/work/out', sessionId: '../s' } }, 'INVALID_ID');
}
{
  const c = add('registry', new Case('materialize', 'With materialize, a result over the materializer\'s limits comes back as its summary (is_error kept) and is stored; within the limits it is handed back as is; content that already is a summary is left alone (never materialized again); the read-back tools are registered all or none and their pages are never materialized.'));
  c.registry({ materialize: true });
  const log = 'line of a long build log\n'.repeat(200);
  c.register(def('build'), returns(log));
  c.register(def('build_failed'), returns(log, true));
  c.register(def('short'), returns('ok'));
  const first = c.execute('call_1', 'build', {}, { content: log }, { materialized: { over: !inline(log) } });
  c.execute('call_2', 'build_failed', {}, { content: log, isError: true }, { materialized: { over: !inline(log) } });
  c.execute('call_3', 'short', {}, { content: 'ok' }, { materialized: { over: false } });
  c.register(def('summary_again'), { returns: { content: { $from: [first, 'content'] } } });
  c.step('execute', { toolUseId: 'call_4', name: 'summary_again', params: {} }, { type: 'tool_result', tool_use_id: 'call_4', content: { $from: [first, 'content'] } });
  // Two hits, one inline; the summary handed back again is not counted at all.
  c.step('stats', {}, { hits: 2, inlined: 1, savedChars: c.core('expect', 'savedChars') });
  c.step('registerReadTools', {}, null);
  c.step('execute', { toolUseId: 'call_5', name: 'context_read', params: { ref: `ctx://${CONV}/tool/call_1.txt`, limit: 200 } }, { type: 'tool_result', tool_use_id: 'call_5', content: c.core('expect', 'content') });
  c.step('execute', { toolUseId: 'call_6', name: 'context_grep', params: { ref: `ctx://${CONV}/tool/nope.txt`, pattern: 'x' } }, { type: 'tool_result', tool_use_id: 'call_6', content: c.core('expect', 'content'), is_error: true });
  c.fail('registerReadTools', {}, 'DUPLICATE_TOOL');
}
{
  const c = add('registry', new Case('read-tools-all-or-none', 'registerReadTools when one of the names is taken: DUPLICATE_TOOL and none of the three is registered.'));
  c.registry();
  c.register(def('context_tail'), returns('mine'));
  c.fail('registerReadTools', {}, 'DUPLICATE_TOOL');
  c.step('definitions', {}, [def('context_tail')]);
  c.step('registerTodoTools', {}, null);
  c.step('definitions', {}, c.core('expect'));
}
{
  const c = add('todo', new Case('write-read', 'TodoRead of an empty list is {"todos":[]}; TodoWrite replaces the whole list and answers {"success":true,"count":N}; TodoRead gives each item with exactly content, status, activeForm in that order.'));
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
  const c = add('todo', new Case('validation', 'TodoWrite validates in order and stops at the first error, returned as an is_error result with the exact message; the list is then left as it was.'));
  c.registry();
  c.step('registerTodoTools', {}, null);
  c.execute('t1', 'TodoWrite', { todos: [{ content: 'Keep', status: 'pending', activeForm: 'Keeping' }] }, { content: '{"success":true,"count":1}' });
  const bad = [
    [{}, "'todos' array is required"],
    [{ todos: 'all' }, "'todos' must be an array"],
    [{ todos: [{ content: '  ', status: 'pending', activeForm: 'x' }] }, 'Todo at index 0: content is required and cannot be empty'],
    [{ todos: [{ content: 'a', status: 'pending', activeForm: 'A' }, { content: 'b', status: 'done', activeForm: 'B' }] }, "Todo at index 1: invalid status 'done'. Must be one of: pending, in_progress, completed"],
    [{ todos: [{ content: 'a', status: 'pending' }] }, 'Todo at index 0: activeForm is required and cannot be empty'],
    [{ todos: [null] }, 'Todo at index 0: content is required and cannot be empty'],
  ];
  bad.forEach(([params, message], i) => c.execute(`bad${i}`, 'TodoWrite', params, { content: message, isError: true }));
  c.execute('t2', 'TodoRead', {}, { content: '{"todos":[{"content":"Keep","status":"pending","activeForm":"Keeping"}]}' });
}

for (const prefix of ['registry', 'todo']) {
  for (const old of readdirSync(here).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json'))) unlinkSync(join(here, old));
}
let pending = 0;
for (const [prefix, c] of cases) {
  const text = JSON.stringify(c, null, 2);
  pending += (text.match(/"\$core": null/g) ?? []).length;
  writeFileSync(join(here, `${prefix}-${c.name}.json`), text + '\n');
}
console.log(`wrote ${cases.length} registry and todo vectors${pending ? `; ${pending} core texts not blessed yet: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host, then run this again` : ''}`);
