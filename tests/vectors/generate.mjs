// Regenerates tests/vectors/direct-*.json: `node tests/vectors/generate.mjs`.
// (Batch vectors: generate-batch.mjs; shared helpers: shared.mjs.)
//
// Expected outputs come from Node itself (JSON.stringify, string .length), the
// definition of correct behaviour, via the small reference below. Inputs are kept as
// raw JSON text so literals such as 1.0, 1e21 and -0 reach every host exactly as written.
import { contentText, CWD, isPlaceholder, normalise, resolve, tr, user, wellFormed, writeVectors } from './shared.mjs';

/** Reference for the direct-offload rules of issue 2, successful path only. */
function referenceDirect(message, sessionId, outputDir) {
  const dir = normalise(`${resolve(CWD, outputDir)}/${sessionId}`);
  const out = structuredClone(message);
  const slots = (message.role === 'tool' ? [out] : out.content.filter((b) => b?.type === 'tool_result')).filter(
    (slot) => !isPlaceholder(slot.content),
  ); // already offloaded: left as is
  const written = {};
  const files = [];
  let freedChars = 0;
  for (const slot of slots) {
    const id = message.role === 'tool' ? slot.tool_call_id : slot.tool_use_id;
    const text = contentText(slot.content);
    const path = `${dir}/${id}.md`;
    const placeholder = `[Tool result offloaded to file: ${path}]`;
    written[path] = wellFormed(text);
    files.push(path);
    freedChars += text.length - placeholder.length;
    slot.content = placeholder;
  }
  return { message: out, freedChars, file: files[0], files, written };
}

// Each case: name, description, raw message JSON, and either nothing (expected output
// from the reference) or `error` (expected code). Optional: sessionId, outputDir, failOn.
const cases = [
  ['string-content', 'A string tool result is written as is.', user(tr('toolu_01', 'line 1\nline 2\n'))],
  [
    'array-content',
    'Array content is written as its JSON.stringify serialisation.',
    user(
      '{"type":"tool_result","tool_use_id":"toolu_02","content":[{"type":"text","text":"hello"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}',
    ),
  ],
  [
    'exactly-1000-chars',
    'A 1000-character result: freedChars counts UTF-16 units.',
    user(tr('toolu_03', 'x'.repeat(1000))),
  ],
  ['exactly-999-chars', 'A 999-character result.', user(tr('toolu_04', 'y'.repeat(999)))],
  [
    'astral-characters',
    'UTF-16 length (JS .length) differs from code points and bytes.',
    user(tr('toolu_05', '😀 é 中文 \u{1F680}\u{10FFFF} ß'.repeat(20))),
  ],
  [
    'numbers-in-array',
    'Numbers inside array content use ECMAScript formatting.',
    user(
      '{"type":"tool_result","tool_use_id":"toolu_06","content":[{"type":"text","text":"n","nums":[1.0,1e21,-0,0.1,1E-7,1e20,123456789012345678901,-1.50,5e-324,2.5e+300]}]}',
    ),
  ],
  [
    'key-order',
    'Key order is kept as given; integer-like keys come first, as in JavaScript.',
    '{"content":[{"content":[{"text":"t","type":"text","z":1,"b":2,"2":"two","a":3,"1":"one"}],"tool_use_id":"toolu_07","type":"tool_result"}],"role":"user","id":"msg_1"}',
  ],
  [
    'two-tool-results',
    'Two tool_result blocks in one message are both offloaded, in order.',
    user(tr('toolu_08a', 'first result'), '{"type":"text","text":"between"}', tr('toolu_08b', 'second result')),
  ],
  [
    'unknown-blocks-and-extra-fields',
    'Unknown block types, cache_control, is_error and extra keys are preserved.',
    '{"role":"user","x-trace":{"span":7},"content":[{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{"q":"x"}},{"type":"tool_result","tool_use_id":"toolu_09","is_error":true,"content":"Traceback: boom","cache_control":{"type":"ephemeral"},"x-extra":[1.0,null]},{"type":"document","source":{"type":"text","media_type":"text/plain","data":"doc"}}]}',
  ],
  [
    'openai-tool-string',
    'An OpenAI role:"tool" message is offloaded as a whole.',
    '{"role":"tool","tool_call_id":"call_abc123","content":"{\\"rows\\": [1, 2, 3]}","name":"sql"}',
  ],
  [
    'openai-tool-parts',
    'OpenAI content parts are written as JSON.',
    '{"role":"tool","tool_call_id":"call_def456","content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]}',
  ],
  [
    'missing-content',
    'A tool_result without content writes an empty file.',
    user('{"type":"tool_result","tool_use_id":"toolu_10"}'),
  ],
  [
    'openai-missing-content',
    'A tool message without content writes an empty file and gains a content placeholder at the end.',
    '{"role":"tool","tool_call_id":"call_empty","name":"noop"}',
  ],
  [
    'empty-string-content',
    'Empty content: freedChars is negative (the placeholder is longer).',
    user(tr('toolu_11', '')),
  ],
  [
    'repeated-id-overwrites',
    'A repeated id overwrites the earlier file.',
    user(tr('toolu_12', 'old'), tr('toolu_12', 'new')),
  ],
  [
    'relative-output-dir',
    'outputDir resolves against the working directory.',
    user(tr('toolu_13', 'r')),
    { outputDir: './a/../artifacts/' },
  ],
  [
    'absolute-output-dir',
    'An absolute outputDir is used as is.',
    user(tr('toolu_14', 'abs')),
    { outputDir: '/var/tmp//offload' },
  ],
  [
    'escapes-in-array',
    'Control characters, quotes and backslashes are escaped like JSON.stringify; / and U+2028 are not.',
    user(
      '{"type":"tool_result","tool_use_id":"toolu_15","content":[{"type":"text","text":"q\\"b\\\\s/\\u0000\\u001f\\u007f\\b\\f\\n\\r\\t\\u2028 end"}]}',
    ),
  ],
  [
    'raw-string-not-escaped',
    'String content is written raw, not JSON-escaped.',
    user(tr('toolu_16', 'tab\tquote"backslash\\\nnul\u0000')),
  ],
  [
    'lone-surrogate-content',
    "A tool output cut mid-emoji ends in a lone UTF-16 surrogate: no error, written as U+FFFD (EF BF BD) as Node's fs writes it; freedChars counts it as one unit.",
    user(tr('toolu_cut', 'log line 😀 cut here \uD83D')),
  ],
  [
    'lone-surrogate-in-array',
    'In array content lone surrogates are written as JSON.stringify writes them: escaped.',
    '{"role":"tool","tool_call_id":"call_cut","content":[{"type":"text","text":"\\udc00 low first, high last \\ud800"}]}',
  ],
  [
    'unicode-ids-unchanged',
    'Valid ids and session ids are never transformed.',
    user(tr('tool use ü 🚀', 'u')),
    { sessionId: 'séssion 1' },
  ],
  ['id-252-bytes', 'An id whose file name is exactly 255 bytes is valid.', user(tr('a'.repeat(252), 'long id'))],
  [
    'partly-offloaded',
    'A tool result that already is a placeholder is left as is; the others are offloaded.',
    user(tr('toolu_p1', '[Tool result offloaded to file: /work/out/s1/toolu_p1.md]'), tr('toolu_p2', 'fresh output')),
  ],
  [
    'already-offloaded',
    'Offloading an already offloaded message again writes nothing (it would overwrite the original file).',
    user(
      tr('toolu_p1', '[Tool result offloaded to file: /work/out/s1/toolu_p1.md]'),
      tr('toolu_p2', '[Content offloaded to: ./tool-result-toolu_p2.md]'),
    ),
    { error: 'ALREADY_OFFLOADED' },
  ],
  [
    'no-tool-result-string',
    'A message with string content has no tool result.',
    '{"role":"user","content":"just text"}',
    { error: 'NO_TOOL_RESULT' },
  ],
  [
    'no-tool-result-tool-use',
    'An assistant tool_use is not a tool result.',
    '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"ls","input":{}}]}',
    { error: 'NO_TOOL_RESULT' },
  ],
  [
    'no-tool-result-empty',
    'An empty content array has no tool result.',
    '{"role":"user","content":[]}',
    { error: 'NO_TOOL_RESULT' },
  ],
  [
    'missing-id',
    'A tool_result without tool_use_id.',
    user('{"type":"tool_result","content":"x"}'),
    { error: 'INVALID_ID' },
  ],
  [
    'non-string-id',
    'A numeric tool_use_id.',
    user('{"type":"tool_result","tool_use_id":42,"content":"x"}'),
    { error: 'INVALID_ID' },
  ],
  [
    'id-with-slash',
    'An id containing "/" could escape the directory.',
    user(tr('../../etc/passwd', 'x')),
    { error: 'INVALID_ID' },
  ],
  ['id-with-backslash', 'An id containing "\\".', user(tr('a\\b', 'x')), { error: 'INVALID_ID' }],
  ['id-dot', 'The id ".".', user(tr('.', 'x')), { error: 'INVALID_ID' }],
  ['id-dotdot', 'The id "..".', user(tr('..', 'x')), { error: 'INVALID_ID' }],
  ['id-empty', 'An empty id.', user(tr('', 'x')), { error: 'INVALID_ID' }],
  ['id-nul', 'An id containing NUL.', user(tr('a\u0000b', 'x')), { error: 'INVALID_ID' }],
  ['id-253-bytes', 'An id making a 256-byte file name.', user(tr('a'.repeat(253), 'x')), { error: 'INVALID_ID' }],
  [
    'id-multibyte-too-long',
    '127 × "é" is 254 bytes: too long with ".md", though only 127 characters.',
    user(tr('é'.repeat(127), 'x')),
    { error: 'INVALID_ID' },
  ],
  [
    'id-lone-surrogate',
    'An id holding a lone surrogate would be U+FFFD in a file name, shared with other ids: INVALID_ID.',
    user(tr('toolu_\uD83D', 'x')),
    { error: 'INVALID_ID', mentions: 'contains a lone UTF-16 surrogate' },
  ],
  [
    'unsafe-id-in-second-block',
    'Ids are validated before any write: nothing is written.',
    user(tr('toolu_ok', 'fine'), tr('../x', 'bad')),
    { error: 'INVALID_ID' },
  ],
  [
    'session-id-dotdot',
    'sessionId ".." would escape outputDir.',
    user(tr('toolu_1', 'x')),
    { sessionId: '..', error: 'INVALID_ID' },
  ],
  ['session-id-slash', 'sessionId with "/".', user(tr('toolu_1', 'x')), { sessionId: 'a/b', error: 'INVALID_ID' }],
  ['session-id-empty', 'An empty sessionId.', user(tr('toolu_1', 'x')), { sessionId: '', error: 'INVALID_ID' }],
  [
    'session-id-too-long',
    'A 256-byte sessionId.',
    user(tr('toolu_1', 'x')),
    { sessionId: 's'.repeat(256), error: 'INVALID_ID' },
  ],
  [
    'openai-missing-call-id',
    'A tool message without tool_call_id.',
    '{"role":"tool","content":"x"}',
    { error: 'INVALID_ID' },
  ],
  ['message-not-object', 'A message must be an object.', '["not","a","message"]', { error: 'INVALID_MESSAGE' }],
  [
    'content-number',
    'tool_result content must be a string or an array.',
    user('{"type":"tool_result","tool_use_id":"toolu_1","content":42}'),
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'content-null',
    'null content is refused rather than guessed at.',
    user('{"type":"tool_result","tool_use_id":"toolu_1","content":null}'),
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'write-failure',
    'A failing write reports WRITE_FAILED with the path.',
    user(tr('toolu_a', 'a'), tr('toolu_b', 'b')),
    { failOn: '/work/out/s1/toolu_b.md', error: 'WRITE_FAILED', writtenBefore: { '/work/out/s1/toolu_a.md': 'a' } },
  ],
];

writeVectors(
  'direct',
  cases.map(([name, description, rawMessage, opts = {}]) => {
    const sessionId = opts.sessionId ?? 's1';
    const outputDir = opts.outputDir ?? 'out';
    const message = JSON.parse(rawMessage);
    const expect = opts.error
      ? {
          error: opts.error,
          ...(opts.failOn ? { errorPath: opts.failOn } : {}),
          ...(opts.mentions ? { errorMentions: opts.mentions } : {}),
          written: opts.writtenBefore ?? {},
        }
      : referenceDirect(message, sessionId, outputDir);
    const input = [
      ['sessionId', JSON.stringify(sessionId)],
      ['outputDir', JSON.stringify(outputDir)],
      ...(opts.failOn ? [['failOn', JSON.stringify(opts.failOn)]] : []),
      ['message', rawMessage],
    ];
    return { name, description, call: 'offloadToolResult', input, expect };
  }),
);
