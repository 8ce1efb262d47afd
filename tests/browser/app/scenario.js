// What the bundler tests run: a small app's use of the package, identical in Node and in
// the page, so the page's results can be compared with Node's. `lib` is the package as
// imported, `writer` a MemoryWriter or OpfsWriter standing for an empty `/`.
const log = Array.from({ length: 400 }, (_, i) => (i % 97 === 0 ? `ERROR step ${i} failed` : `step ${i} ok`)).join(
  '\n',
);

export async function scenario(lib, writer) {
  const conversation = [
    { role: 'user', content: 'Run the build.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] },
  ];
  const batch = await lib.offloadToolResults(conversation, { outputDir: '/batch', writer });
  const materializer = new lib.Materializer({ userData: '/agent', conversationId: 'conv-1', writer });
  const result = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output: log });
  const error = await materializer.read('ctx://conv-1/tool/missing.txt').catch((e) => ({
    isOffloadError: e instanceof lib.OffloadError,
    code: e.code,
  }));
  return {
    batch: { placeholder: batch.messages[2].content[0].content, freedChars: batch.freedChars, files: batch.files },
    batchFile: await writer.readFile('/batch/tool-result-toolu_1.md'),
    summary: result.content,
    ref: result.ref.id,
    grep: await materializer.grep(result.ref.id, 'ERROR', { context: 1 }),
    tail: await materializer.tail(result.ref.id, 3),
    page: await materializer.read(result.ref.id, { offset: 100, limit: 5 }),
    listed: await writer.listDir('/agent/context/conv-1/artifacts/tool'),
    error,
    errorCodes: lib.ERROR_CODES.length,
  };
}
