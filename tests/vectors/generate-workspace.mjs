// Regenerates tests/vectors/workspace-*.json: the Workspace knowledge store (the decision
// rules, one artifact and record per tool call, the <knowledge_list> at the inline limit,
// queries, paging and grep, namespace scope, idempotence, offloadMessages, export/import,
// the knowledge tools). Format and regeneration: tests/vectors/README.md.
//
// Facts JavaScript defines are computed here by a small model of the store: decisions
// (⌈length / 4⌉ tokens, or the vector's word counter), records (metadata order, UTF-16
// `chars`, UTF-8 `bytes`, `lines` as str::lines counts them, SHA-256, `created_at` from
// `toISOString`), files, query order (newest first, then id). Texts whose format core
// defines (the <knowledge_list>, pages, tool pages, error messages) are `$core`.
import { createHash } from 'node:crypto';
import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StepCase, estimateTokens, here, isStoredForm, previousVectors } from './shared.mjs';

const previous = previousVectors('workspace');
const NOW = Date.UTC(2026, 10, 25, 9, 30, 0, 123);
const FIXED = ['context_type', 'biz_id', 'tool_name', 'action_name', 'offload'];

const lineCount = (t) => (t === '' ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0));
const sha256 = (t) => createHash('sha256').update(t, 'utf8').digest('hex');

class Case extends StepCase {
  constructor(name, description) {
    super(previous, name, description);
    this.records = new Map();
  }
  /** A `workspace` step: the model's options for the calls after it. */
  workspace(options = {}) {
    const given = { now: NOW, ...options };
    this.o = { namespace: 'default', inlineLimit: 40000, tokenThreshold: 2000, offloadTools: [], ...given };
    return this.step('workspace', { options: given }, null);
  }
  ws(call, inputs, expect) {
    return this.step('ws', { call, ...inputs }, expect);
  }
  wsFail(call, inputs, code) {
    return this.fail('ws', { call, ...inputs }, code);
  }
  dir() {
    return `/data/context/${this.o.namespace}`;
  }
  /** Store `text` as `id` (a record, or the existing one): the record. */
  store(id, type, metadata, text) {
    const key = `${this.o.namespace}/${id}`;
    const old = this.records.get(key);
    if (old) {
      if (old.metadata.sha256 !== sha256(text) || old.type !== type) throw new Error(`${id}: a different content`);
      return { record: old, reused: true };
    }
    for (const fact of ['chars', 'bytes', 'lines', 'sha256', 'created_at']) delete metadata[fact];
    Object.assign(metadata, {
      chars: text.length,
      bytes: Buffer.byteLength(text),
      lines: lineCount(text),
      sha256: sha256(text),
      created_at: new Date(this.o.now).toISOString(),
    });
    const record = { id, type, metadata };
    this.records.set(key, record);
    this.files.set(`${this.dir()}/artifacts/knowledge/${id}.${type === 'json' ? 'json' : 'txt'}`, text);
    this.files.set(`${this.dir()}/records/${id}.json`, JSON.stringify(record));
    return { record, reused: false };
  }
  /** `offloadToolResult`, its outcome from the model; `stored`: the text core stores
   * instead (with `redact`: the content, secrets replaced; `redacted` their counts by
   * kind, which the record keeps). */
  offload(input, { counter, stored, redacted } = {}) {
    const given = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
    const text = stored ?? given;
    if (typeof input.content === 'string' && isStoredForm(given))
      return this.ws('offloadToolResult', input, { offloaded: false, content: input.content });
    const reason = this.decide(input, given, counter);
    // Kept inline, or stored and shown whole: with redact, as the redacted text.
    const shown = stored !== undefined && stored !== given ? stored : input.content;
    if (['flag_false', 'tool_never', 'under_threshold', 'within_tool_limit'].includes(reason))
      return this.ws('offloadToolResult', input, { offloaded: false, content: shown, reason });
    // A reused call id with another content takes the next free name: -1, -2, …
    let id = `tool_result_${input.toolCallId}`;
    for (let n = 1; this.records.get(`${this.o.namespace}/${id}`)?.metadata.sha256 !== undefined; n++) {
      if (this.records.get(`${this.o.namespace}/${id}`).metadata.sha256 === sha256(text)) break;
      id = `tool_result_${input.toolCallId}-${n}`;
    }
    const metadata = this.metadata(input);
    if (redacted !== undefined) metadata.redacted = redacted;
    this.store(id, typeof input.content === 'string' ? 'text' : 'json', metadata, text);
    const replaced = text.length >= this.o.inlineLimit;
    return this.ws('offloadToolResult', input, {
      offloaded: true,
      content: replaced ? this.core('expect', 'content') : shown,
      artifactId: id,
      reason,
    });
  }
  decide(input, text) {
    const flag = input.metadata?.offload;
    if (flag === false) return 'flag_false';
    if (flag === true) return 'flag_true';
    const tools = this.o.tools ?? {};
    // The one precedence rule: the tool's own entry, else the "*" entry, decides alone
    // (an entry that sets nothing is as if absent); tokenThreshold only without one.
    const set = (e) => (e !== undefined && Object.keys(e).length > 0 ? e : undefined);
    const own = set(tools[input.toolName]);
    const entry = own ?? set(tools['*']);
    const byEntry = (when) => (when === 'never' ? 'tool_never' : 'tool_always');
    if (own?.materialize !== undefined) return byEntry(own.materialize);
    if (this.o.offloadTools.includes(input.toolName)) return 'listed_tool';
    if (entry?.materialize !== undefined) return byEntry(entry.materialize);
    if (
      text.length > (entry?.maxInlineChars ?? Infinity) ||
      Buffer.byteLength(text) > (entry?.maxInlineBytes ?? Infinity)
    )
      return 'over_tool_limit';
    if (entry !== undefined && entry.maxInlineTokens === undefined) return 'within_tool_limit';
    const threshold = entry?.maxInlineTokens ?? this.o.tokenThreshold;
    // A host's tokenizer never counts more tokens than bytes: not asked up to the threshold.
    if (this.o.countTokens === 'words' && Buffer.byteLength(text) <= threshold) return 'under_threshold';
    const tokens = this.o.countTokens === 'words' ? text.split(' ').length : estimateTokens(text);
    return tokens > threshold ? 'over_threshold' : 'under_threshold';
  }
  /** `add`'s metadata: the caller's, then the workspace's scope where the caller set none. */
  scoped(metadata) {
    const m = { ...metadata };
    for (const [key, option] of [
      ['agent_id', 'agentId'],
      ['task_id', 'taskId'],
      ['session_id', 'sessionId'],
    ])
      if (!(key in m) && this.o[option] !== undefined) m[key] = this.o[option];
    return m;
  }
  metadata(input) {
    const m = { context_type: 'tool_result', biz_id: input.toolCallId };
    for (const [key, option] of [
      ['agent_id', 'agentId'],
      ['task_id', 'taskId'],
      ['session_id', 'sessionId'],
    ])
      if (this.o[option] !== undefined) m[key] = this.o[option];
    m.tool_name = input.toolName;
    if (input.actionName !== undefined) m.action_name = input.actionName;
    for (const [key, value] of Object.entries(input.metadata ?? {})) if (!FIXED.includes(key)) m[key] = value;
    return m;
  }
  /** Records of this namespace matching `filter`, newest first, paged. */
  query(filter = {}, { limit = 50, offset = 0 } = {}) {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    return [...this.records.entries()]
      .filter(([key]) => key.startsWith(`${this.o.namespace}/`))
      .map(([, r]) => r)
      .filter((r) => Object.entries(filter).every(([k, v]) => k in r.metadata && same(r.metadata[k], v)))
      .sort((a, b) =>
        a.metadata.created_at < b.metadata.created_at
          ? 1
          : a.metadata.created_at > b.metadata.created_at
            ? -1
            : a.id < b.id
              ? -1
              : a.id > b.id
                ? 1
                : 0,
      )
      .slice(offset, offset + Math.min(limit, 1000));
  }
  info(filter) {
    return this.query({ context_type: 'tool_result', ...filter }, { limit: 1000 }).map((r) => ({
      artifact_id: r.id,
      biz_id: r.metadata.biz_id,
      tool_name: r.metadata.tool_name,
      ...(r.metadata.action_name !== undefined ? { action_name: r.metadata.action_name } : {}),
      chars: r.metadata.chars,
      bytes: r.metadata.bytes,
      lines: r.metadata.lines,
      created_at: r.metadata.created_at,
    }));
  }
}

const cases = [];
const add = (c) => (cases.push(c), c);
const text = (n, ch = 'x') => ch.repeat(n);
const log = (lines, errorAt = []) =>
  Array.from({ length: lines }, (_, i) =>
    errorAt.includes(i + 1) ? `line ${i + 1} ERROR <disk> & "full"` : `line ${i + 1} ok`,
  ).join('\n');

{
  const c = add(
    new Case(
      'decisions',
      "need_offload: metadata.offload false never stores, true always, a listed tool always, else more than tokenThreshold tokens (core's estimate, or a custom counter): exactly at the threshold stays, one over is stored (35 letters are 10 estimated tokens, 36 are 11).",
    ),
  );
  c.workspace({ offloadTools: ['web_fetch'], tokenThreshold: 10, taskId: 't1' });
  c.offload({ toolCallId: 'listed', toolName: 'web_fetch', content: 'tiny page' });
  c.offload({ toolCallId: 'forced', toolName: 'ls', content: 'a.txt', metadata: { offload: true, retry: 1 } });
  c.offload({ toolCallId: 'never', toolName: 'web_fetch', content: text(400), metadata: { offload: false } });
  c.offload({ toolCallId: 'at', toolName: 'cat', content: text(35) });
  c.offload({ toolCallId: 'over', toolName: 'cat', content: text(36) });
  c.workspace({ tokenThreshold: 3, countTokens: 'words' });
  c.offload({ toolCallId: 'w3', toolName: 'echo', content: 'alpha beta gamma' });
  c.offload({ toolCallId: 'w4', toolName: 'echo', content: 'alpha beta gamma delta' });
}
{
  const c = add(
    new Case(
      'tool-limits',
      'Per-tool limits (options.tools, the Materializer\'s entries): a tool\'s own entry decides before offloadTools ("never" keeps even a listed tool\'s result, "always" stores any), the "*" entry after it; the entry that applies decides alone on every axis: maxInlineChars and maxInlineBytes store what is over them (over_tool_limit) and keep what is within (within_tool_limit: tokenThreshold does not apply under an entry), maxInlineTokens replaces tokenThreshold for its tool, by the same estimate or counter; an entry that sets nothing is as if absent.',
    ),
  );
  c.workspace({
    offloadTools: ['web_fetch', 'ls'],
    tokenThreshold: 200,
    tools: {
      web_fetch: { materialize: 'never' },
      crawl: { materialize: 'always' },
      bash: { maxInlineTokens: 100 },
      grep: { maxInlineChars: 30 },
      read: { maxInlineChars: 5000 },
      '*': { maxInlineBytes: 600 },
    },
  });
  c.offload({ toolCallId: 'f1', toolName: 'web_fetch', content: text(400) });
  c.offload({ toolCallId: 'c1', toolName: 'crawl', content: 'ok' });
  c.offload({ toolCallId: 'l1', toolName: 'ls', content: 'a.txt' });
  c.offload({ toolCallId: 'b1', toolName: 'bash', content: text(360) });
  c.offload({ toolCallId: 'b2', toolName: 'bash', content: text(361) });
  c.offload({ toolCallId: 'g1', toolName: 'grep', content: text(31) });
  c.offload({ toolCallId: 'g2', toolName: 'grep', content: text(30) });
  c.offload({ toolCallId: 'e1', toolName: 'cat', content: '€'.repeat(201) });
  c.offload({ toolCallId: 'e2', toolName: 'cat', content: '€'.repeat(200) });
  // Within read's own 5,000 characters and far over tokenThreshold: kept (was stored).
  c.offload({ toolCallId: 'r1', toolName: 'read', content: text(3000) });
  c.offload({ toolCallId: 'f2', toolName: 'web_fetch', content: 'x', metadata: { offload: true } });
  c.workspace({ tools: { '*': { materialize: 'never' } }, offloadTools: ['web_fetch'] });
  c.offload({ toolCallId: 'n1', toolName: 'cat', content: text(9000) });
  c.offload({ toolCallId: 'n2', toolName: 'web_fetch', content: 'tiny' });
}
{
  const c = add(
    new Case(
      'inline-limit',
      'From inlineLimit (40,000) UTF-16 units on, a stored result comes back as a <knowledge_list> (well-formed XML: markup escaped, control characters as U+FFFD); one under, it comes back unchanged; a JSON value is stored as .json; offloading a <knowledge_list> again is a no-op.',
    ),
  );
  c.workspace({ agentId: 'agent-1', sessionId: 's"<&>' });
  const body = log(2000, [3, 1500]) + '\n\u001b[31mdone\u001b[0m\n';
  const at = body + text(40000 - body.length, 'z');
  c.offload({ toolCallId: 'at', toolName: 'bash', actionName: 'run', content: at });
  c.offload({ toolCallId: 'under', toolName: 'bash', content: at.slice(0, 39999) });
  const rows = Array.from({ length: 1200 }, (_, i) => ({ i, name: `row <${i}>` }));
  c.offload({ toolCallId: 'json', toolName: 'sql', content: { rows } });
  c.ws(
    'offloadToolResult',
    { toolCallId: 'again', toolName: 'bash', content: { $from: [1, 'content'] } },
    { offloaded: false, content: { $from: [1, 'content'] } },
  );
}
{
  const c = add(
    new Case(
      'query',
      'queryArtifacts: equality on any metadata field (JSON equality: "1" is not 1), newest first then by id, limit and offset, ids and metadata only; add stores any knowledge; getToolResultOffloadInfo by task and session.',
    ),
  );
  c.workspace({ taskId: 'task-a', sessionId: 's1', now: NOW });
  c.offload({ toolCallId: 'c1', toolName: 'bash', content: 'one', metadata: { offload: true, retry: 1 } });
  c.offload({ toolCallId: 'c2', toolName: 'grep', content: 'two', metadata: { offload: true, retry: '1' } });
  c.workspace({ taskId: 'task-b', sessionId: 's2', now: NOW + 1000 });
  c.offload({
    toolCallId: 'c3',
    toolName: 'bash',
    actionName: 'build',
    content: 'three',
    metadata: { offload: true, tags: ['x', 1] },
  });
  c.offload({ toolCallId: 'c0', toolName: 'bash', content: 'zero', metadata: { offload: true } });
  const note = { id: 'note-1', content: 'remember the milk', metadata: { context_type: 'note', task_id: 'task-b' } };
  const stored = c.store('note-1', 'text', c.scoped(note.metadata), note.content);
  c.ws('add', note, { ...stored.record, path: 'context/default/artifacts/knowledge/note-1.txt', reused: false });
  for (const [filter, paging] of [
    [{}, undefined],
    [{ context_type: 'tool_result' }, undefined],
    [{ task_id: 'task-a' }, undefined],
    [{ tool_name: 'bash', task_id: 'task-b' }, undefined],
    [{ biz_id: 'c2' }, undefined],
    [{ retry: 1 }, undefined],
    [{ retry: '1' }, undefined],
    [{ tags: ['x', 1] }, undefined],
    [{ action_name: 'build' }, undefined],
    [{ missing: null }, undefined],
    [{ context_type: 'tool_result' }, { limit: 2, offset: 1 }],
  ])
    c.ws('queryArtifacts', { filter, ...paging }, c.query(filter, paging));
  c.ws('getToolResultOffloadInfo', {}, c.info({}));
  c.ws('getToolResultOffloadInfo', { taskId: 'task-a' }, c.info({ task_id: 'task-a' }));
  c.ws(
    'getToolResultOffloadInfo',
    { sessionId: 's2', taskId: 'task-b' },
    c.info({ task_id: 'task-b', session_id: 's2' }),
  );
  c.wsFail('add', { id: 'bad', content: 'x', metadata: {} }, 'INVALID_ARGUMENT');
  c.wsFail('add', { id: 'bad', content: 'x', type: 'json', metadata: { context_type: 'n' } }, 'INVALID_ARGUMENT');
}
{
  const c = add(
    new Case(
      'read',
      'getById whole, getByLines pages (1-based, inclusive; the header says how to continue), grep with context and ignoreCase; unknown, unsafe and out-of-namespace ids are typed errors.',
    ),
  );
  c.workspace({});
  const content = log(3000, [7, 2999]);
  c.offload({ toolCallId: 'r1', toolName: 'bash', content, metadata: { offload: true } });
  c.ws('getById', { id: 'tool_result_r1' }, { ...c.query({ biz_id: 'r1' })[0], content });
  c.ws('getByLines', { id: 'tool_result_r1', startLine: 5, endLine: 8 }, c.core('expect'));
  c.ws('getByLines', { id: 'tool_result_r1', startLine: 2990 }, c.core('expect'));
  c.ws('getByLines', { id: 'tool_result_r1', startLine: 5000, endLine: 5001 }, c.core('expect'));
  c.wsFail('getByLines', { id: 'tool_result_r1', startLine: 0, endLine: 3 }, 'INVALID_ARGUMENT');
  c.ws('grep', { id: 'tool_result_r1', pattern: 'error', ignoreCase: true, context: 1 }, c.core('expect'));
  c.ws('grep', { id: 'tool_result_r1', pattern: 'nothing here' }, c.core('expect'));
  c.wsFail('grep', { id: 'tool_result_r1', pattern: '(?=x)' }, 'INVALID_PATTERN');
  c.wsFail('getById', { id: 'nope' }, 'REF_NOT_FOUND');
  c.wsFail('getById', { id: '../team-b/x' }, 'INVALID_ID');
  c.workspace({ namespace: 'team-b' });
  c.wsFail('getById', { id: 'tool_result_r1' }, 'REF_NOT_FOUND');
  c.ws('queryArtifacts', { filter: {} }, []);
}
{
  const c = add(
    new Case(
      'idempotent',
      "The same result again is reused (its record unchanged); another content under the same id is stored as tool_result_same-1, never over the first; offloadMessages over Anthropic, OpenAI Chat and Responses messages stores each result once, names tools from their calls, and leaves <knowledge_list>s alone on the next turn. What already stands for stored content (a placeholder, a Materializer summary, the budget's pointer) is never stored, even with metadata.offload true.",
    ),
  );
  c.workspace({});
  const big = log(5000, [42]);
  c.offload({ toolCallId: 'same', toolName: 'bash', content: big });
  c.o.now = NOW + 5000;
  c.step('workspace', { options: { now: NOW + 5000 } }, null);
  c.offload({ toolCallId: 'same', toolName: 'bash', content: big });
  c.offload({ toolCallId: 'same', toolName: 'bash', content: 'other', metadata: { offload: true } });
  // What already stands for stored content is never stored again, even when asked.
  for (const [id, content] of [
    ['placeholder', '[Content offloaded to: ./tool-result-x.md]'],
    [
      'summary',
      '[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9 bytes',
    ],
    [
      'cleared',
      '[Earlier output of bash (call c3, 48,211 chars) cleared from the conversation; stored as ctx://c/tool/c3.txt: context_read, context_grep]',
    ],
  ])
    c.offload({ toolCallId: id, toolName: 'bash', content, metadata: { offload: true } });
  const messages = [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'read_file', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: big }] },
    {
      role: 'assistant',
      tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'search', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call_2', content: 'small' },
    { type: 'function_call', call_id: 'fc_3', name: 'fetch', arguments: '{}' },
    { type: 'function_call_output', call_id: 'fc_3', output: big.replaceAll('ok', 'fine') },
  ];
  for (const [id, tool, t] of [
    ['tu_1', 'read_file', big],
    ['fc_3', 'fetch', messages[5].output],
  ])
    c.store(`tool_result_${id}`, 'text', c.metadata({ toolCallId: id, toolName: tool }), t);
  const first = c.ws(
    'offloadMessages',
    { messages },
    {
      messages: messages.map((m, i) =>
        i === 1
          ? { ...m, content: [{ ...m.content[0], content: c.core('expect', 'messages', 1, 'content', 0, 'content') }] }
          : i === 5
            ? { ...m, output: c.core('expect', 'messages', 5, 'output') }
            : m,
      ),
      artifactIds: ['tool_result_tu_1', 'tool_result_fc_3'],
    },
  );
  c.ws(
    'offloadMessages',
    { messages: { $from: [first, 'messages'] } },
    { messages: { $from: [first, 'messages'] }, artifactIds: [] },
  );
}
{
  const c = add(
    new Case(
      'export-import',
      'exportNamespace bundles every record with its content and SHA-256 (by id); importNamespace restores it into another namespace unchanged, identical items again are left alone, a tampered one is refused before anything is written.',
    ),
  );
  c.workspace({ taskId: 't' });
  c.offload({ toolCallId: 'b', toolName: 'bash', content: log(100), metadata: { offload: true } });
  c.offload({ toolCallId: 'a', toolName: 'sql', content: { n: 1 }, metadata: { offload: true } });
  const items = c
    .query()
    .sort((x, y) => (x.id < y.id ? -1 : 1))
    .map((record) => {
      const content = c.files.get(
        `/data/context/default/artifacts/knowledge/${record.id}.${record.type === 'json' ? 'json' : 'txt'}`,
      );
      return { record, sha256: sha256(content), content };
    });
  const bundle = c.ws(
    'exportNamespace',
    {},
    { format: 'tool-offload/workspace', version: 1, namespace: 'default', items },
  );
  c.workspace({ namespace: 'copy' });
  for (const { record, content } of items) c.store(record.id, record.type, { ...record.metadata }, content);
  c.ws('importNamespace', { bundle: { $from: [bundle] } }, ['tool_result_a', 'tool_result_b']);
  c.ws('importNamespace', { bundle: { $from: [bundle] } }, ['tool_result_a', 'tool_result_b']);
  c.ws('getById', { id: 'tool_result_a' }, { ...items[0].record, content: '{"n":1}' });
  const tampered = structuredClone({ format: 'tool-offload/workspace', version: 1, namespace: 'default', items });
  tampered.items[1].content += '!';
  c.workspace({ namespace: 'other' });
  c.wsFail('importNamespace', { bundle: tampered }, 'INVALID_BUNDLE');
}
{
  const c = add(
    new Case(
      'tools',
      'The knowledge tools on a registry: their definitions, and each answering the model with a bounded page or an is_error result naming the problem. grep_knowledge without an id searches every knowledge artifact of the namespace, newest first (by created_at), each under its own header named by its id.',
    ),
  );
  c.workspace({ inlineLimit: 2000 });
  c.offload({ toolCallId: 'k1', toolName: 'bash', content: log(300, [150]), metadata: { offload: true } });
  c.step('registry', {}, null);
  c.step('registerKnowledgeTools', {}, null);
  c.step('definitions', {}, c.core('expect'));
  const exec = (toolUseId, name, params) => c.step('execute', { toolUseId, name, params }, c.core('expect'));
  exec('u1', 'get_knowledge_by_id', { id: 'tool_result_k1' });
  exec('u2', 'get_knowledge_by_lines', { id: 'tool_result_k1', start_line: 149, end_line: 151 });
  exec('u3', 'grep_knowledge', { id: 'tool_result_k1', pattern: 'ERROR', context: 0 });
  exec('u4', 'query_artifacts', { filter: { tool_name: 'bash' } });
  exec('u5', 'get_tool_result_offload_info', {});
  exec('u6', 'get_knowledge_by_id', { id: 'missing' });
  exec('u7', 'get_knowledge_by_lines', { id: 'tool_result_k1' });
  // grep_knowledge without an id: every artifact of the namespace, newest first.
  c.workspace({ inlineLimit: 2000, now: NOW + 60_000 });
  c.offload({ toolCallId: 'k2', toolName: 'bash', content: log(200, [20, 180]), metadata: { offload: true } });
  c.step('registry', {}, null);
  c.step('registerKnowledgeTools', {}, null);
  exec('u8', 'grep_knowledge', { pattern: 'ERROR', context: 0 });
  exec('u9', 'grep_knowledge', { id: null, pattern: 'error', ignore_case: true, context: 1, max_matches: 2 });
  exec('u10', 'grep_knowledge', { pattern: 'nothing here' });
}

{
  const c = add(
    new Case(
      'redact',
      'With redact, well-known secrets in a stored tool result are replaced by [REDACTED:<kind>] before it is measured, hashed or written: the artifact, its record (chars, bytes, sha256) and the <knowledge_list> hold the markers, never the secret; the record counts what was replaced by kind (metadata.redacted). A result kept inline, or stored and shown whole, comes back redacted too.',
    ),
  );
  c.workspace({ redact: true, inlineLimit: 2000 });
  const body = (token) =>
    Array.from({ length: 200 }, (_, i) => (i === 100 ? `remote: using token ${token}` : `line ${i + 1} ok`)).join('\n');
  c.offload(
    {
      toolCallId: 'gh',
      toolName: 'bash',
      content: body('ghp_0123456789abcdefghijABCDEFGHIJ012345'),
      metadata: { offload: true },
    },
    { stored: body('[REDACTED:github-token]'), redacted: { 'github-token': 1 } },
  );
  c.ws('grep', { id: 'tool_result_gh', pattern: 'token' }, c.core('expect'));
  const small = 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345';
  c.offload(
    { toolCallId: 'kept', toolName: 'env', content: small },
    { stored: 'GITHUB_TOKEN=[REDACTED:github-token]' },
  );
  c.offload(
    { toolCallId: 'whole', toolName: 'env', content: small, metadata: { offload: true } },
    { stored: 'GITHUB_TOKEN=[REDACTED:github-token]', redacted: { 'github-token': 1 } },
  );
}

for (const old of readdirSync(here).filter((f) => f.startsWith('workspace-') && f.endsWith('.json')))
  unlinkSync(join(here, old));
let pending = 0;
for (const c of cases) {
  const json = JSON.stringify(c, null, 2);
  pending += (json.match(/"\$core": null/g) ?? []).length;
  writeFileSync(join(here, `workspace-${c.name}.json`), json + '\n');
}
console.log(
  `wrote ${cases.length} workspace vectors${pending ? `; ${pending} core texts not blessed yet: TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host, then run this again` : ''}`,
);
