// Messages are read where they live, one field at a time through getters and Proxy traps
// as JavaScript reads them: class instances, null-prototype objects, long content arrays,
// serialised LangChain messages and getters that must run only once all come out as plain
// objects would.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Materializer, offloadToolResults } from 'tool-offload';
import { RecordingWriter } from './helpers.ts';

const big = (tag: string) => `${tag} `.repeat(100);
const placeholder = (id: string) => `[Content offloaded to: ./tool-result-${id}.md]`;

/** Offload `messages` at threshold 100; the files written, by name, and the messages. */
async function offload(messages: object[]) {
  const writer = new RecordingWriter();
  const result = await offloadToolResults(messages, { outputDir: '/w', threshold: 100, writer });
  const files = Object.fromEntries([...writer.files].map(([path, data]) => [path.slice('/w/'.length), data]));
  return { ...result, files };
}

test('a class instance message is read through its prototype getters', async () => {
  class ToolMessage {
    readonly role = 'tool';
    #content = big('class');
    get content() {
      return this.#content;
    }
    get tool_call_id() {
      return 'c1';
    }
  }
  const { files, messages } = await offload([new ToolMessage()]);
  assert.deepEqual(files, { 'tool-result-c1.md': big('class') });
  assert.equal((messages[0] as { content: string }).content, placeholder('c1'));
});

test('a tool result after 600 other blocks is found', async () => {
  const blocks: object[] = Array.from({ length: 600 }, (_, i) => ({ type: 'text', text: `t${i}` }));
  blocks.push({ type: 'tool_result', tool_use_id: 'late', content: big('late') });
  const message = { role: 'user', content: blocks };
  const { files, messages } = await offload([message]);
  assert.deepEqual(files, { 'tool-result-late.md': big('late') });
  const copy = messages[0] as { content: { content?: string }[] };
  assert.equal(copy.content[600].content, placeholder('late'));
  assert.equal(copy.content.length, 601);
});

test('null-prototype objects, Proxies, getters and nested results', async () => {
  const bare = Object.assign(Object.create(null), { role: 'tool', tool_call_id: 'bare', content: big('bare') });
  const proxied = new Proxy(
    { role: 'tool', tool_call_id: 'proxy', content: 'short' },
    {
      get: (target, key) => (key === 'content' ? big('proxy') : Reflect.get(target, key)),
    },
  );
  let reads = 0;
  const getter = {
    role: 'tool',
    tool_call_id: 'getter',
    get content() {
      reads++;
      return big('getter');
    },
  };
  // LangChain's serialised ToolMessage: the result sits three levels down.
  const lc = {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', 'ToolMessage'],
    kwargs: { tool_call_id: 'lc', content: [{ type: 'text', text: big('lc') }] },
  };
  const plain = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
  const { files, messages, offloadedCount } = await offload([bare, proxied, getter, lc, plain]);
  assert.equal(offloadedCount, 4);
  assert.deepEqual(Object.keys(files).sort(), [
    'tool-result-bare.md',
    'tool-result-getter.md',
    'tool-result-lc.md',
    'tool-result-proxy.md',
  ]);
  assert.equal(files['tool-result-proxy.md'], big('proxy'), 'the Proxy’s get trap is what is read');
  assert.equal(files['tool-result-lc.md'], JSON.stringify([{ type: 'text', text: big('lc') }]));
  assert.equal(reads, 1, 'the getter runs once');
  assert.equal(messages[4], plain, 'an unchanged message is the very object');
});

test('materializeMessages finds it there too', async () => {
  const writer = new RecordingWriter();
  const m = new Materializer({ userData: '/u', conversationId: 'walk', writer });
  const blocks: object[] = Array.from({ length: 600 }, (_, i) => ({ type: 'text', text: `t${i}` }));
  blocks.push({ type: 'tool_result', tool_use_id: 'late', content: 'x'.repeat(100_000) });
  const { messages, refs } = await m.materializeMessages([{ role: 'user', content: blocks }]);
  assert.equal(refs.length, 1);
  const copy = messages[0] as { content: { content?: string }[] };
  assert.notEqual(copy.content[600].content, 'x'.repeat(100_000));
});
