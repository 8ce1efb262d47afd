// Issue 48's seams through the npm package, each a repro that failed before: read
// tracking counts our forms only, a per-tool entry decides alone, unknown option keys are
// refused, and a budget counter's failure is an OffloadError.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer, ToolRegistry, Workspace } from 'tool-offload';
import { freshDir, offloadError as rejected } from './helpers.ts';

const materializer = (extra: object = {}): Materializer =>
  new Materializer({ userData: freshDir('seams'), conversationId: 'c1', ...extra });

test("a read tool's error message is no output shown in part", () => {
  const m = materializer();
  const messages = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'context_read', input: { ref: 'x.txt' } }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'a', content: 'not a ctx:// ref: "x.txt"', is_error: true }],
    },
  ];
  // Before: [{ ref: 'ctx://', toolCallId: 'a', reads: 0, errors: true }].
  assert.deepEqual(m.readStats(messages), []);
  assert.deepEqual(m.unreadRefs(messages), []);
});

test('the unread reminder is said once for a set of refs', async () => {
  const m = materializer();
  const log = Array.from({ length: 600 }, (_, i) => (i === 300 ? 'error[E0308]: mismatched types' : `line ${i}`)).join(
    '\n',
  );
  let history: object[] = [
    { role: 'user', content: 'build' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: log }] },
  ];
  ({ messages: history } = await m.materializeMessages(history, { remindUnread: true }));
  const said = (h: object[]): number => JSON.stringify(h).split('[Not read yet: ').length - 1;
  assert.equal(said(history), 1);
  history = [...history, { role: 'assistant', content: 'Looking.' }, { role: 'user', content: 'go on' }];
  ({ messages: history } = await m.materializeMessages(history, { remindUnread: true }));
  assert.equal(said(history), 1, 'not again on the next user turn');
});

test("a tool's own entry decides on every axis", async () => {
  const m = materializer({ tools: { bash: { maxInlineChars: 30000 } } });
  const output = 'compiling crate_0042 … ok\n'.repeat(770);
  assert.equal(output.length, 20020);
  // Over the default 16,384 bytes, within bash's 30,000 characters: inline (was materialized).
  const done = await m.materialize({ toolCallId: 'b1', toolName: 'bash', output });
  assert.equal(done.inline, true);
  const other = await m.materialize({ toolCallId: 'l1', toolName: 'ls', output });
  assert.equal(other.inline, false);
});

test('an option no reader knows is refused, naming where it belongs', async () => {
  const cases: [() => unknown, string][] = [
    [
      () => materializer({ maxInlineTokens: 1000 }),
      'options.maxInlineTokens is not a Materializer option: it belongs in a tools entry (options.tools["*"].maxInlineTokens for every tool)',
    ],
    [
      () => materializer({ maxInlineChar: 1000 }),
      'options.maxInlineChar is not a Materializer option (did you mean maxInlineChars?)',
    ],
    [
      () => materializer({ tools: { bash: { maxInlineChar: 1000 } } }),
      'options.tools["bash"].maxInlineChar is not a tools entry field (did you mean maxInlineChars?)',
    ],
    [
      () => new Workspace({ root: freshDir('seams-ws'), tokenThreshhold: 10 } as never),
      'options.tokenThreshhold is not a Workspace option (did you mean tokenThreshold?)',
    ],
  ];
  for (const [make, message] of cases) {
    assert.throws(make, (e: unknown) => {
      assert.equal((e as { code?: string }).code, 'INVALID_ARGUMENT');
      assert.equal((e as Error).message, `invalid argument: ${message}`);
      return true;
    });
  }
  const error = await rejected(materializer().budget([], { triggerTokens: 1, keeplast: 2 } as never));
  assert.equal(error.message, 'invalid argument: options.keeplast is not a budget option (did you mean keepLast?)');
});

test("a budget counter's failure is an OffloadError naming it", async () => {
  const m = materializer();
  const history = [{ role: 'user', content: 'hello' }];
  const boom = new Error('boom');
  const threw = await rejected(
    m.budget(history, {
      triggerTokens: 1,
      countTokens: () => {
        throw boom;
      },
    }),
  );
  assert.equal(threw.code, 'INVALID_ARGUMENT');
  assert.equal(threw.message, 'invalid argument: options.countTokens threw: boom');
  assert.equal(threw.cause, boom);
  const half = await rejected(m.budget(history, { triggerTokens: 1, countTokens: () => 1.5 }));
  assert.equal(half.message, 'invalid argument: options.countTokens must return a non-negative integer, got 1.5');
  // The materializer's own counter is budget's default, checked the same way.
  const own = materializer({ countTokens: () => -1 });
  const negative = await rejected(own.budget(history, { triggerTokens: 1 }));
  assert.equal(negative.message, 'invalid argument: options.countTokens must return a non-negative integer, got -1');
});

test('a registry handler returning bytes gets them stored as binary, never an error', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const m = materializer();
  const materializing = new ToolRegistry({ materialize: m });
  materializing.register({ name: 'shot', description: 'A screenshot.', input_schema: { type: 'object' } }, () => png);
  const stored = (await materializing.executeTool('toolu_1', 'shot', {})) as { content: string; is_error?: boolean };
  assert.equal(stored.is_error, undefined);
  assert.equal(
    stored.content,
    '[Output of shot (call toolu_1) stored as ctx://c1/tool/toolu_1.bin: binary data, 16 bytes, looks like a PNG image; not shown, and not text to read back.]',
  );
  // Without a materializer: described, never shown, no error (was "tool handler must return …").
  const plain = new ToolRegistry();
  plain.register({ name: 'shot', description: 'A screenshot.', input_schema: { type: 'object' } }, async () =>
    Uint8Array.from(png),
  );
  assert.deepEqual(await plain.executeTool('toolu_2', 'shot', {}), {
    type: 'tool_result',
    tool_use_id: 'toolu_2',
    content:
      '[Binary output: 16 bytes, looks like a PNG image; not shown, and not stored: give the tool registry a materializer to keep it.]',
  });
});

test("a materializer's or workspace's counter that throws rejects with it as cause", async () => {
  const boom = new Error('boom');
  const countTokens = (): number => {
    throw boom;
  };
  const m = materializer({ countTokens, tools: { '*': { maxInlineTokens: 10 } } });
  const output = 'word '.repeat(200);
  const one = await rejected(m.materialize({ toolCallId: 'c1', toolName: 'bash', output }));
  assert.equal(one.message, 'invalid argument: options.countTokens threw: boom');
  assert.equal(one.cause, boom);
  const history = [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: output }] },
  ];
  const many = await rejected(m.materializeMessages(history));
  assert.equal(many.cause, boom);
  const ws = new Workspace({ root: freshDir('seams-ws'), countTokens });
  const long = 'word '.repeat(1000);
  const stored = await rejected(ws.offloadToolResult({ toolCallId: 'c3', toolName: 'bash', content: long }));
  assert.equal(stored.cause, boom);
});
