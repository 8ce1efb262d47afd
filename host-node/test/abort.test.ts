// Cancelling with an AbortSignal: a writer or reader that never settles cannot hang
// batch offload, materializeMessages, exportConversation or importConversation; the call
// rejects with ABORTED (cause: the signal's reason) and nothing is reported as done.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';

import { importConversation, Materializer, offloadToolResults } from 'tool-offload';
import type { FileReader, FileWriter } from 'tool-offload';
import { offloadError, RecordingWriter } from './helpers.ts';

const never = () => new Promise<never>(() => undefined);

/** A writer (and reader) whose writes never settle. */
class StalledWriter implements FileWriter, FileReader {
  readonly files = new Map<string, string>();
  writes = 0;
  async mkdir(): Promise<void> {}
  writeFile(): Promise<void> {
    this.writes += 1;
    return never();
  }
  createFile(): Promise<boolean> {
    this.writes += 1;
    return never();
  }
  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }
  async listDir(): Promise<string[]> {
    return [];
  }
}

const big = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'x'.repeat(50_000) });

/** Abort `controller` once the writer has been called (the call is then stuck in it). */
function abortWhenStuck(controller: AbortController, writer: { writes: number }): void {
  const poll = setInterval(() => {
    if (writer.writes > 0) {
      clearInterval(poll);
      controller.abort(new Error('user pressed stop'));
    }
  }, 2);
}

test('batch offload stuck in a writer that never settles rejects with ABORTED', { timeout: 10_000 }, async () => {
  const writer = new StalledWriter();
  const controller = new AbortController();
  abortWhenStuck(controller, writer);
  const err = await offloadError(
    offloadToolResults([big('c1')], { outputDir: '/v', writer, signal: controller.signal }),
  );
  assert.equal(err.code, 'ABORTED');
  assert.equal((err.cause as Error).message, 'user pressed stop');
  assert.equal(err.message, 'the operation was aborted');
});

test('an already-aborted signal rejects before anything is written', async () => {
  const writer = new RecordingWriter();
  const signal = AbortSignal.abort('too late');
  const err = await offloadError(offloadToolResults([big('c1')], { outputDir: '/v', writer, signal }));
  assert.deepEqual([err.code, err.cause], ['ABORTED', 'too late']);
  assert.deepEqual(writer.calls, []);
});

test('materializeMessages and exportConversation are cancelled the same way', { timeout: 10_000 }, async () => {
  const writer = new StalledWriter();
  const m = new Materializer({ userData: '/v', conversationId: 'c', writer });
  const controller = new AbortController();
  abortWhenStuck(controller, writer);
  const err = await offloadError(m.materializeMessages([big('c1')], { signal: controller.signal }));
  assert.equal(err.code, 'ABORTED');
  assert.equal(m.stats().hits, 0, 'nothing reported as done');

  const stalledReader: FileReader = { readFile: never, listDir: async () => [] };
  const reading = new Materializer({
    userData: '/v',
    conversationId: 'c',
    writer: new RecordingWriter(),
    reader: stalledReader,
  });
  const exporting = new AbortController();
  setTimeout(() => exporting.abort(), 20);
  const summary = '[Tool output materialized: ctx://c/tool/c1.txt]';
  const exported = await offloadError(
    reading.exportConversation([{ role: 'tool', tool_call_id: 'c1', content: summary }], { signal: exporting.signal }),
  );
  assert.equal(exported.code, 'ABORTED');
});

test('importConversation is cancelled the same way', { timeout: 10_000 }, async () => {
  const source = new RecordingWriter();
  const files = new Map<string, string>();
  const readable = Object.assign(source, {
    readFile: async (p: string) => source.files.get(p) ?? files.get(p),
    listDir: async () => [],
  });
  const m = new Materializer({ userData: '/a', conversationId: 'c', writer: readable });
  const done = await m.materializeMessages([big('c1')]);
  const bundle = await m.exportConversation(done.messages);
  const writer = new StalledWriter();
  const controller = new AbortController();
  abortWhenStuck(controller, writer);
  const err = await offloadError(importConversation(bundle, { userData: '/b', writer, signal: controller.signal }));
  assert.equal(err.code, 'ABORTED');
});

test('a signal that is not an AbortSignal is INVALID_ARGUMENT; finished calls leave no listener behind', async () => {
  const writer = new RecordingWriter();
  const err = await offloadError(
    offloadToolResults([big('c1')], { outputDir: '/v', writer, signal: {} as AbortSignal }),
  );
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.match(err.message, /options\.signal must be an AbortSignal, got object/);
  const controller = new AbortController();
  for (let i = 0; i < 50; i++)
    await offloadToolResults([big(`c${i}`)], { outputDir: '/v', writer, signal: controller.signal });
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
});
