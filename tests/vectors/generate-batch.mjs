// Regenerates tests/vectors/batch-*.json: `node tests/vectors/generate-batch.mjs`.
//
// Expected outputs come from the plain-JavaScript reference below (Node's own
// JSON.stringify and string .length define "correct"). Inputs are kept as raw JSON text
// so literals such as 1.0, 1e21 and -0 reach every host exactly as written.
import {
  contentText,
  unrecognizedIn,
  CWD,
  hasLoneSurrogate,
  isStoredForm,
  resolve,
  tr,
  user,
  wellFormed,
  writeVectors,
} from './shared.mjs';

const DEFAULT_THRESHOLD = 100;
const PREFIX = 'tool-result-';
const SUFFIX = '.md';
const MAX_NAME_BYTES = 255;

class Refused {
  constructor(code, mentions, path) {
    Object.assign(this, { code, mentions, path });
  }
}

/** Why `id` cannot name a file `tool-result-<id>.md`, or null when it can. */
function idProblem(id) {
  if (id === undefined) return 'missing';
  if (typeof id !== 'string') return 'not a string';
  if (id === '' || id === '.' || id === '..') return 'empty or relative';
  if (/[/\\\0]/.test(id)) return 'separator or NUL';
  if (hasLoneSurrogate(id)) return 'lone surrogate';
  if (Buffer.byteLength(id) + PREFIX.length + SUFFIX.length > MAX_NAME_BYTES) return 'too long';
  return null;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The tool results of messages[i], in order: { block, holder, field, form, id, idPath,
 * content, contentPath, text? }. `form` is how the placeholder is written: `null` as a
 * string, else the AI SDK's `{ type: form, value }`.
 */
function findResults(message, i) {
  if (!isObject(message)) throw new Refused('INVALID_MESSAGE', `messages[${i}]`);
  const at = (rest) => `messages[${i}].${rest}`;
  const whole = (idKey, field, holderKey = null) => {
    const holder = holderKey === null ? message : message[holderKey];
    const prefix = holderKey === null ? '' : `${holderKey}.`;
    return [
      {
        block: null,
        holder: holderKey,
        field,
        form: null,
        idKey,
        id: holder[idKey],
        idPath: at(prefix + idKey),
        content: holder[field],
        contentPath: at(prefix + field),
      },
    ];
  };
  const aiSdkParts =
    message.role === 'tool' &&
    Array.isArray(message.content) &&
    message.content.some((p) => isObject(p) && p.type === 'tool-result');
  if (aiSdkParts) return aiSdkResults(message.content, at);
  if (message.role === 'tool') return whole('tool_call_id', 'content');
  if (message.type === 'function_call_output') return whole('call_id', 'output');
  if (message.type === 'function_call_result') return whole('callId', 'output');
  if (message.type === 'tool')
    return isObject(message.data) ? whole('tool_call_id', 'content', 'data') : whole('tool_call_id', 'content');
  if (message.type === 'constructor' && Array.isArray(message.id) && message.id.at(-1) === 'ToolMessage')
    return isObject(message.kwargs) ? whole('tool_call_id', 'content', 'kwargs') : [];
  if (!Array.isArray(message.content)) return [];
  return message.content.flatMap((b, j) =>
    isObject(b) && b.type === 'tool_result'
      ? [
          {
            block: j,
            holder: null,
            field: 'content',
            form: null,
            id: b.tool_use_id,
            idPath: at(`content[${j}].tool_use_id`),
            content: b.content,
            contentPath: at(`content[${j}].content`),
          },
        ]
      : [],
  );
}

/** The AI SDK's `tool-result` parts: a text output as is, JSON values and content parts as their JSON.stringify. */
function aiSdkResults(parts, at) {
  return parts.flatMap((p, j) => {
    if (!isObject(p) || p.type !== 'tool-result') return [];
    const o = p.output;
    const kind = isObject(o) ? o.type : undefined;
    if (kind === 'execution-denied') return [];
    const forms = {
      text: ['text', false],
      'error-text': ['error-text', false],
      json: ['text', true],
      content: ['text', true],
      'error-json': ['error-text', true],
    };
    if (!(kind in forms)) throw new Refused('INVALID_MESSAGE', at(`content[${j}].output`));
    const [form, isJson] = forms[kind];
    let text;
    if (isJson) text = o.value === undefined ? '' : JSON.stringify(o.value);
    else if (typeof o.value === 'string') text = o.value;
    else throw new Refused('INVALID_MESSAGE', at(`content[${j}].output.value`));
    return [
      { block: j, holder: null, field: 'output', form, id: p.toolCallId, idPath: at(`content[${j}].toolCallId`), text },
    ];
  });
}

function toolResults(message, i) {
  const found = findResults(message, i);
  // Every content is checked, offloaded or not, before any id is looked at.
  for (const r of found) {
    if (r.text !== undefined) continue;
    // The Agents SDK's output may also be one structured item ({ type: "text", text }).
    r.text = r.idKey === 'callId' && isObject(r.content) ? JSON.stringify(r.content) : contentText(r.content);
    if (r.text === null) throw new Refused('INVALID_MESSAGE', r.contentPath);
  }
  return found;
}

/**
 * Reference for batch offload (offloadToolResults). Mirrors core/src/batch.rs: walk
 * oldest → newest, offload when 0 < count ≥ threshold, name files tool-result-<id>.md,
 * then -1, -2 … skipping names already given out in this batch; validate everything
 * before writing; create the directory once, before the first write.
 */
function referenceBatch(messages, { outputDir, threshold = DEFAULT_THRESHOLD, failOn }) {
  const dir = resolve(CWD, outputDir);
  const used = new Set();
  const nextNumber = new Map();
  // A numbered name too long for a file is reported against the message as a whole.
  const claim = (id, at) => {
    let n = nextNumber.get(id) ?? 0;
    for (;;) {
      const name = n === 0 ? `${PREFIX}${id}${SUFFIX}` : `${PREFIX}${id}-${n}${SUFFIX}`;
      nextNumber.set(id, ++n);
      if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Refused('INVALID_ID', at);
      if (!used.has(name)) {
        used.add(name);
        return name;
      }
    }
  };
  const written = {};
  const writtenSorted = () =>
    Object.fromEntries(Object.entries(written).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  try {
    // Plan: validation and names, no IO.
    const plans = messages.map((message, i) =>
      toolResults(message, i).flatMap((r) => {
        const chars = r.text.length;
        if (chars === 0 || chars < threshold || isStoredForm(r.text)) return [];
        if (idProblem(r.id)) throw new Refused('INVALID_ID', r.idPath);
        const name = claim(r.id, `messages[${i}]`);
        return [{ ...r, chars, name, path: `${dir}/${name}` }];
      }),
    );
    // Write, in walk order.
    const planned = plans.flat();
    if (planned.length > 0 && failOn === dir) throw new Refused('WRITE_FAILED', undefined, dir);
    for (const p of planned) {
      if (p.path === failOn) throw new Refused('WRITE_FAILED', undefined, p.path);
      written[p.path] = wellFormed(p.text);
    }
    const out = messages.map((message, i) => {
      if (plans[i].length === 0) return message;
      const copy = structuredClone(message);
      for (const p of plans[i]) {
        const block = p.block === null ? copy : copy.content[p.block];
        const holder = p.holder === null ? block : block[p.holder];
        const placeholder = `[Content offloaded to: ./${p.name}]`;
        holder[p.field] = p.form === null ? placeholder : { type: p.form, value: placeholder };
      }
      return copy;
    });
    const unrecognized = messages.flatMap((m, i) => unrecognizedIn(m, i));
    return {
      messages: out,
      offloadedCount: planned.length,
      freedChars: planned.reduce((sum, p) => sum + p.chars, 0),
      files: planned.map((p) => p.path),
      ...(unrecognized.length > 0 ? { unrecognized } : {}),
      written: writtenSorted(),
    };
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    return {
      error: e.code,
      ...(e.path !== undefined ? { errorPath: e.path } : {}),
      ...(e.mentions !== undefined ? { errorMentions: e.mentions } : {}),
      written: writtenSorted(),
    };
  }
}

// Raw JSON builders.
const J = JSON.stringify;
const tool = (id, content, extra = {}) => J({ role: 'tool', tool_call_id: id, content, ...extra });
const fco = (callId, output) => J({ type: 'function_call_output', call_id: callId, output });
const text = (t) => J({ role: 'user', content: t });
const x = (n, c = 'x') => c.repeat(n);

// Each case: name, description, raw message texts, options { threshold, outputDir,
// failOn, error }. `error` is the code the reference must agree on (a check of the
// reference itself).
const cases = [
  [
    'exactly-100-chars',
    'Default threshold 100: content of exactly 100 UTF-16 units is offloaded.',
    [user(tr('toolu_100', x(100)))],
  ],
  [
    '99-chars-stays',
    'Default threshold: 99 units stay inline; nothing is written, not even the directory.',
    [user(tr('toolu_99', x(99)))],
  ],
  [
    '100-and-99-in-one-message',
    'Only the block at the threshold is offloaded; its neighbour stays inline in the copy.',
    [user(tr('toolu_a', x(99, 'a')), '{"type":"text","text":"between"}', tr('toolu_b', x(100, 'b')))],
  ],
  [
    'custom-threshold',
    'threshold 10: 10 units are offloaded, 9 are not.',
    [user(tr('toolu_9', x(9)), tr('toolu_10', x(10))), tool('call_50', x(50)), tool('call_3', 'abc')],
    { threshold: 10 },
  ],
  [
    'threshold-above-everything',
    'A threshold above every result offloads nothing.',
    [user(tr('toolu_1', x(500))), tool('call_1', x(1000))],
    { threshold: 1000000 },
  ],
  [
    'threshold-1',
    'threshold 1: every non-empty result is offloaded.',
    [user(tr('toolu_1', 'a')), tool('call_1', 'b')],
    { threshold: 1 },
  ],
  [
    'empty-and-missing-content',
    'Empty and missing contents are never offloaded at the default threshold.',
    [
      user(tr('toolu_e', ''), '{"type":"tool_result","tool_use_id":"toolu_m"}'),
      '{"role":"tool","tool_call_id":"call_m"}',
      tool('call_e', ''),
      fco('fc_e', ''),
      '{"type":"function_call_output","call_id":"fc_m"}',
    ],
  ],
  [
    'empty-and-missing-content-threshold-0',
    'threshold 0: "" and missing content are still never offloaded, but "a" and an empty array ("[]", 2 units) are.',
    [
      user(
        tr('toolu_e', ''),
        '{"type":"tool_result","tool_use_id":"toolu_m"}',
        tr('toolu_a', 'a'),
        tr('toolu_arr', []),
      ),
      '{"role":"tool","tool_call_id":"call_m"}',
      tool('call_e', ''),
      fco('fc_e', ''),
      '{"type":"function_call_output","call_id":"fc_m"}',
    ],
    { threshold: 0 },
  ],
  [
    'string-vs-array-content',
    'Arrays are measured and written as their JSON.stringify: 73 characters of text make exactly 100 units of JSON (offloaded), 72 make 99 (inline), though an 80-character string stays inline.',
    [
      user(tr('toolu_arr100', [{ type: 'text', text: x(73) }])),
      user(tr('toolu_str80', x(80))),
      user(tr('toolu_arr99', [{ type: 'text', text: x(72) }])),
    ],
  ],
  [
    'numbers-in-array',
    'Numbers inside offloaded arrays use ECMAScript formatting; numbers elsewhere survive the copy as JavaScript reads them.',
    [
      '{"role":"user","n":1.0,"content":[{"type":"text","text":"see","m":[-0,1e21]},{"type":"tool_result","tool_use_id":"toolu_n","content":[{"type":"text","text":"numbers","nums":[1.0,1e21,-0,0.1,1E-7,1e20,123456789012345678901,-1.50,5e-324,2.5e+300]}]}]}',
      '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_small","content":[{"n":1.0}]}],"z":-0}',
    ],
  ],
  [
    'key-order',
    'Key order is kept, in the written JSON and in the copies; integer-like keys come first, as in JavaScript.',
    [
      '{"content":[{"content":[{"text":"' +
        x(60) +
        '","type":"text","z":1,"b":2,"2":"two","a":3,"1":"one"}],"tool_use_id":"toolu_k","type":"tool_result","b":1,"a":2}],"role":"user","id":"msg_1","10":"ten"}',
    ],
  ],
  [
    'astral-characters',
    'Counts are UTF-16 units: 50 × "😀" (50 code points, 200 bytes) is offloaded; 49 × "😀" + "a" (99 units) and 99 × "é" (198 bytes) are not.',
    [
      user(tr('toolu_emoji', x(50, '😀')), tr('toolu_99', x(49, '😀') + 'a'), tr('toolu_e', x(99, 'é'))),
      tool('call_mix', '😀 é 中文 \u{1F680}\u{10FFFF} ß'.repeat(10)),
    ],
  ],
  [
    'escapes-in-content',
    'String content is written raw; array content escaped exactly like JSON.stringify (/ and U+2028 unescaped).',
    [
      user(tr('toolu_raw', 'tab\tquote"backslash\\\nnul\u0000 ' + x(80))),
      user(
        '{"type":"tool_result","tool_use_id":"toolu_json","content":[{"type":"text","text":"q\\"b\\\\s/\\u0000\\u001f\\u007f\\b\\f\\n\\r\\t\\u2028 ' +
          x(60) +
          '"}]}',
      ),
    ],
  ],
  [
    'repeated-ids',
    'A repeated id: the first offloaded result gets the plain name, later offloaded ones -1, -2 …; inline ones take no number.',
    [
      user(tr('toolu_r', x(100, '1'))),
      user(tr('toolu_r', 'small')),
      tool('toolu_r', x(120, '3')),
      user(tr('toolu_r', 'tiny'), tr('toolu_r', x(130, '5'))),
      fco('toolu_r', 'small again'),
    ],
  ],
  [
    'repeated-id-collision',
    'Ids "a", "a", "a-1": the second "a" takes tool-result-a-1.md, so "a-1" gets tool-result-a-1-1.md; nothing is overwritten.',
    [tool('a', x(100, 'A')), tool('a', x(100, 'B')), tool('a-1', x(100, 'C'))],
  ],
  [
    'repeated-id-collision-reverse',
    'Ids "a-1", "a", "a": the second "a" skips the taken tool-result-a-1.md and gets -2.',
    [tool('a-1', x(100, 'C')), tool('a', x(100, 'A')), tool('a', x(100, 'B'))],
  ],
  [
    'mixed-formats',
    'Anthropic blocks, OpenAI Chat tool messages and OpenAI Responses items in one array, handled item by item.',
    [
      text('start'),
      '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.txt"}}]}',
      user(tr('toolu_1', x(150, 'a'))),
      '{"type":"function_call","call_id":"fc_1","name":"read","arguments":"{\\"path\\":\\"b.txt\\"}"}',
      fco('fc_1', x(200, 'b')),
      '{"type":"function_call_output","call_id":"fc_2","output":[{"type":"input_text","text":"' + x(120, 'c') + '"}]}',
      '{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]}',
      tool('call_1', x(250, 'd')),
      fco('fc_3', 'short'),
      text('end'),
    ],
  ],
  [
    'openai-chat-conversation',
    'A whole OpenAI Chat conversation: only the large role:"tool" message changes.',
    [
      '{"role":"system","content":"You are a coding agent."}',
      '{"role":"user","content":"Fix the failing test."}',
      '{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"run","arguments":"{\\"cmd\\":\\"cargo test\\"}"}},{"id":"call_b","type":"function","function":{"name":"cat","arguments":"{\\"path\\":\\"src/lib.rs\\"}"}}]}',
      tool('call_a', 'test result: FAILED. 1 passed; 1 failed\n' + x(300, '.'), { name: 'run' }),
      tool('call_b', 'fn main() {}', { name: 'cat' }),
      '{"role":"assistant","content":"The test fails because of X."}',
      '{"role":"user","content":[{"type":"text","text":"Go on."}]}',
    ],
  ],
  [
    'unchanged-messages-untouched',
    'Messages without results over the threshold come back as they are, whatever they hold.',
    [
      '{"role":"user","content":"plain text","metadata":{"n":1.0,"list":[1e21,-0,null,true],"ü":"🚀"}}',
      '{"role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"toolu_u","name":"x","input":{}},{"type":"server_tool_use","id":"srv_1"}]}',
      user(tr('toolu_u', 'short result')),
      user(tr('toolu_big', x(100))),
      '{"role":"user","content":[]}',
      '{"role":"tool","tool_call_id":"call_u","content":"short"}',
      '{}',
    ],
  ],
  [
    'extra-fields-preserved',
    'is_error, cache_control and unknown keys on the block and the message are kept, in order.',
    [
      '{"role":"user","x-trace":{"span":7},"content":[{"type":"tool_result","tool_use_id":"toolu_x","is_error":true,"content":"' +
        x(100, 'E') +
        '","cache_control":{"type":"ephemeral"},"x-extra":[1.0,null]},{"type":"document","source":{"type":"text","data":"doc"}}],"after":1}',
      tool('call_x', x(100, 'F'), { name: 'grep', 'x-extra': { a: [1, 2] } }),
    ],
  ],
  [
    'non-object-blocks-skipped',
    'Blocks that are not objects are not tool results and are kept as they are.',
    ['{"role":"user","content":[null,"text",5,[{"type":"tool_result"}],' + tr('toolu_ok', x(100)) + ']}'],
  ],
  ['empty-array', 'An empty conversation: nothing offloaded, nothing written, no directory.', []],
  [
    'relative-output-dir',
    'outputDir resolves against the working directory; placeholders stay relative.',
    [user(tr('toolu_1', x(100)))],
    { outputDir: './a/../artifacts/' },
  ],
  [
    'absolute-output-dir',
    'An absolute outputDir is used as is (normalised).',
    [user(tr('toolu_1', x(100)))],
    { outputDir: '/var/tmp//offload' },
  ],
  [
    'unicode-ids-unchanged',
    'Safe ids are used unchanged, whatever their characters.',
    [user(tr('tool use ü 🚀', x(100))), tool('call é', x(100))],
  ],
  [
    'lone-surrogate-content',
    'Content cut mid-emoji: its lone surrogate counts one unit (99 + 1 = 100: offloaded; 98 + 1 stays) and is written as U+FFFD; array content is written escaped, as JSON.stringify does; messages that stay keep theirs (content, other fields, keys) as JSON.stringify prints them.',
    [
      user(tr('toolu_cut', x(99) + '\uD83D')),
      user(tr('toolu_small', x(98) + '\uD83D')),
      '{"role":"user","content":"kept \\ud83d and \\udc00 and \\ud83d\\ude00","k\\ud800":"v\\udfff"}',
      tool('call_arr', [{ type: 'text', text: x(70) + '\uDC00' }]),
    ],
  ],
  [
    'lone-surrogate-ids',
    'Ids "x\\ud83d" and "x\\udc00" would both name tool-result-x\uFFFD.md: INVALID_ID, nothing written.',
    [tool('x\uD83D', x(100, 'A')), tool('x\uDC00', x(100, 'B'))],
    { error: 'INVALID_ID' },
  ],
  [
    'lone-surrogate-id-below-threshold',
    'Below the threshold an id with a lone surrogate names no file: no error, the message stays as it is.',
    [tool('x\uD83D', 'small'), user(tr('toolu_ok', x(100)))],
  ],
  ['id-240-bytes', '"tool-result-" + 240 bytes + ".md" is exactly 255 bytes: allowed.', [tool(x(240, 'i'), x(100))]],
  [
    'id-241-bytes',
    'A 241-byte id makes a 256-byte file name.',
    [text('hi'), tool(x(241, 'i'), x(100))],
    { error: 'INVALID_ID' },
  ],
  [
    'repeated-id-numbered-name-too-long',
    'A 240-byte id fits once; its numbered name "-1" would exceed 255 bytes: INVALID_ID before anything is written.',
    [tool(x(240, 'i'), x(100)), tool(x(240, 'i'), x(100))],
    { error: 'INVALID_ID' },
  ],
  [
    'unsafe-id-in-last-message',
    'Ids are validated before anything is written: an unsafe id in the last message means no file at all.',
    [
      user(tr('toolu_1', x(100))),
      tool('call_2', x(100)),
      fco('fc_3', x(100)),
      user(tr('toolu_ok', x(100)), tr('../escape', x(100))),
    ],
    { error: 'INVALID_ID' },
  ],
  [
    'unsafe-ids-below-threshold',
    'Ids are only checked for results that are offloaded: unsafe, missing or numeric ids below the threshold are fine.',
    [
      user(
        tr('../etc/passwd', 'small'),
        '{"type":"tool_result","content":"no id"}',
        '{"type":"tool_result","tool_use_id":42,"content":"numeric id"}',
        tr('', ''),
        tr('.', 'dot'),
      ),
      '{"role":"tool","content":"no call id"}',
      fco('a\\b', 'backslash'),
      '{"type":"function_call_output","output":"no call_id"}',
      user(tr('toolu_fine', x(100))),
      '{"role":"tool","tool_call_id":"call_no_content"}',
    ],
  ],
  [
    'missing-id-offloaded',
    'An offloaded tool_result without tool_use_id.',
    [user(tr('toolu_1', x(100))), user('{"type":"tool_result","content":"' + x(100) + '"}')],
    { error: 'INVALID_ID' },
  ],
  [
    'missing-call-id-offloaded',
    'An offloaded role:"tool" message without tool_call_id.',
    ['{"role":"tool","content":"' + x(100) + '"}'],
    { error: 'INVALID_ID' },
  ],
  [
    'responses-missing-call-id-offloaded',
    'An offloaded function_call_output without call_id.',
    [text('hi'), '{"type":"function_call_output","output":"' + x(100) + '"}'],
    { error: 'INVALID_ID' },
  ],
  [
    'non-string-id-offloaded',
    'An offloaded result with a numeric id.',
    ['{"role":"tool","tool_call_id":7,"content":"' + x(100) + '"}'],
    { error: 'INVALID_ID' },
  ],
  ['id-dotdot-offloaded', 'An offloaded result with the id "..".', [tool('..', x(100))], { error: 'INVALID_ID' }],
  [
    'string-item',
    'An item that is not an object is refused, naming its index.',
    [user(tr('toolu_1', x(100))), '"just a string"'],
    { error: 'INVALID_MESSAGE' },
  ],
  ['null-item', 'null is not a message.', [text('hi'), text('there'), 'null'], { error: 'INVALID_MESSAGE' }],
  ['array-item', 'An array is not a message.', ['[' + user(tr('toolu_1', x(100))) + ']'], { error: 'INVALID_MESSAGE' }],
  [
    'content-number-below-threshold',
    'A tool result whose content is neither string nor array is malformed, offloaded or not.',
    [user(tr('toolu_1', x(100))), user('{"type":"tool_result","tool_use_id":"toolu_2","content":42}')],
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'content-null',
    'null content is refused rather than guessed at.',
    ['{"role":"tool","tool_call_id":"call_1","content":null}'],
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'output-object',
    'A function_call_output whose output is an object.',
    ['{"type":"function_call_output","call_id":"fc_1","output":{"text":"x"}}'],
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'write-failure',
    'A failing write reports WRITE_FAILED with its path. Writes run side by side and the call waits for those already started, so every file before the failing one is there, whole.',
    [user(tr('toolu_a', x(100, 'a'))), tool('call_b', x(100, 'b')), fco('fc_c', x(100, 'c'))],
    { failOn: '/work/out/tool-result-fc_c.md', error: 'WRITE_FAILED' },
  ],
  [
    'placeholders-never-offloaded-again',
    'Content that already is a placeholder (batch or direct form) stays as it is, at any threshold: writing it again would overwrite the original file. Look-alikes that are not single-line placeholders are offloaded.',
    [
      user(tr('toolu_1', '[Content offloaded to: ./tool-result-toolu_1.md]')),
      tool('call_1', '[Tool result offloaded to file: /srv/out/s1/call_1.md]'),
      fco('fc_1', '[Content offloaded to: ./tool-result-fc_1.md]\nmore'),
      tool('call_2', '[Tool result offloaded to file: relative.md]'),
    ],
    { threshold: 1 },
  ],
  [
    'stored-forms-never-offloaded-again',
    "Content that already stands for stored content stays as it is, at any threshold, as in every writer: a Materializer summary (binary too), a <knowledge_list>, the budget's pointer, a page the read tools returned. Moving one to a file would hide its ref and preview behind a placeholder. Only a text's first 8,192 and last 64 UTF-16 units are read (a character cut there counts for nothing). Look-alikes (a summary naming no ctx:// ref, an unclosed list, a header whose name has a space, a first line running past the 8,192 units, a close tag further than 64 units from the end) are offloaded.",
    [
      user(
        tr(
          'toolu_1',
          '[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 120 bytes, 120 characters, 4 lines.\nerror: build failed',
        ),
        tr(
          'toolu_2',
          '<knowledge_list>\n<knowledge id="tool_result_c2" tool_name="bash">x</knowledge>\nRead more with get_knowledge_by_lines.\n</knowledge_list>',
        ),
      ),
      tool(
        'call_1',
        '[Earlier output of bash (call c3, 48,211 chars) cleared from the conversation; stored as ctx://c/tool/c3.txt: context_read, context_grep]',
      ),
      tool('call_2', '[ctx://c/tool/c1.txt: lines 1-2 of 4. More: context_read("ctx://c/tool/c1.txt", 2)]\n1| a\n2| b'),
      fco(
        'fc_1',
        '[Output of shot (call s) stored as ctx://c/tool/s.bin: binary data, 8 bytes, looks like a PNG image; not shown, and not text to read back.]',
      ),
      tool('call_3', '[Output of bash (call c1) stored as /tmp/c1.txt and not shown in full: read it.]\nmore'),
      tool('call_4', '<knowledge_list>\n<knowledge id="k">x</knowledge>'),
      tool('call_5', '[build log: lines 1-2 of 4.]\n1| a'),
      // Long texts are known by their first 8,192 and last 64 UTF-16 units.
      tool(
        'call_6',
        '[ctx://c/tool/a.txt: lines 1-1500 of 9000. More: context_read("ctx://c/tool/a.txt", 1500)]\n' +
          '1| ab\n'.repeat(1500),
      ),
      tool('call_7', `<knowledge_list>\n${'a'.repeat(8174)}😀${'b'.repeat(42)}😀\n</knowledge_list>\n`),
      tool('call_8', `[build: lines 1-2 of 4.${'y'.repeat(8200)}]\n1| a`),
      tool('call_9', `<knowledge_list>\n${'c'.repeat(9000)}\n</knowledge_list>${' '.repeat(64)}`),
    ],
    { threshold: 1 },
  ],
  [
    'mkdir-failure',
    'Failing to create the output directory reports WRITE_FAILED with the directory.',
    [user(tr('toolu_a', x(100, 'a')))],
    { failOn: '/work/out', error: 'WRITE_FAILED' },
  ],
  [
    'ai-sdk-tool-results',
    'Vercel AI SDK tool messages: each tool-result part is read by its output type (text as is, json and content as JSON.stringify), and replaced by an output the SDK still accepts: { type: "text" } or, for errors, { type: "error-text" }. A denied execution has nothing to offload; other parts stay.',
    [
      J({
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_t', toolName: 'bash', output: { type: 'text', value: x(120, 't') } },
          {
            type: 'tool-result',
            toolCallId: 'call_j',
            toolName: 'sql',
            output: { type: 'json', value: { rows: [x(100, 'j'), 1.5, null] } },
            providerOptions: { a: { b: 1 } },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_e',
            toolName: 'bash',
            output: { type: 'error-text', value: x(150, 'e') },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_ej',
            toolName: 'bash',
            output: { type: 'error-json', value: { error: x(100, 'f') } },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_c',
            toolName: 'mcp',
            output: { type: 'content', value: [{ type: 'text', text: x(100, 'c') }] },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_d',
            toolName: 'rm',
            output: { type: 'execution-denied', reason: x(200, 'd') },
          },
          { type: 'tool-result', toolCallId: 'call_s', toolName: 'ls', output: { type: 'text', value: 'short' } },
          { type: 'tool-approval-response', approvalId: 'a1', approved: true },
        ],
      }),
    ],
  ],
  [
    'ai-sdk-missing-tool-call-id',
    'An AI SDK tool-result part without toolCallId is INVALID_ID naming content[i].toolCallId.',
    [
      J({
        role: 'tool',
        content: [{ type: 'tool-result', toolName: 'bash', output: { type: 'text', value: x(100) } }],
      }),
    ],
    { error: 'INVALID_ID' },
  ],
  [
    'ai-sdk-text-output-not-a-string',
    'An AI SDK text output whose value is not a string is INVALID_MESSAGE naming output.value.',
    [
      J({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'x', output: { type: 'text', value: [x(100)] } }],
      }),
    ],
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'ai-sdk-unknown-output',
    'An AI SDK tool-result part whose output type is unknown is INVALID_MESSAGE, never guessed at.',
    [
      J({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'x', output: { type: 'video', value: x(100) } }],
      }),
    ],
    { error: 'INVALID_MESSAGE' },
  ],
  [
    'openai-agents-function-call-results',
    'OpenAI Agents SDK function_call_result items: the id is callId; a string output and a structured one ({ type: "text", text }, as its JSON.stringify) are replaced by the placeholder string, which the SDK accepts as output.',
    [
      J({ type: 'function_call_result', name: 'bash', callId: 'call_1', status: 'completed', output: x(100, 'o') }),
      J({
        type: 'function_call_result',
        name: 'read',
        callId: 'call_2',
        status: 'completed',
        output: { type: 'text', text: x(100, 'p') },
      }),
    ],
  ],
  [
    'langchain-tool-messages',
    'LangChain tool messages as plain objects ({ type: "tool" }), in the stored form ({ type: "tool", data }) and serialised ({ lc: 1, type: "constructor", id: [..., "ToolMessage"], kwargs }): the content in place, every other field kept.',
    [
      J({ type: 'tool', tool_call_id: 'lc_1', name: 'search', content: x(100, 'a') }),
      J({ type: 'tool', data: { content: x(100, 'b'), tool_call_id: 'lc_2', name: 'search', additional_kwargs: {} } }),
      J({
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'ToolMessage'],
        kwargs: { content: [{ type: 'text', text: x(100, 'c') }], tool_call_id: 'lc_3', status: 'success' },
      }),
      J({
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: { content: x(100, 'd') },
      }),
    ],
  ],
  [
    'unrecognized-results-reported',
    'Items that look like tool results but are of no shape we know (a type ending in _result or _output: Anthropic server tool results, Responses computer_call_output) are left as they are and reported by path in unrecognized; known results beside them are offloaded.',
    [
      user(
        tr('toolu_1', x(100, 'a')),
        J({ type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [{ type: 'text', text: x(100, 'm') }] }),
      ),
      J({
        type: 'computer_call_output',
        call_id: 'cu_1',
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AAAA' },
      }),
      J({
        role: 'assistant',
        content: [
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
          { type: 'text', text: 'done' },
        ],
      }),
      J({ type: 'reasoning', summary: [] }),
    ],
  ],
  [
    'langchain-serialised-missing-id',
    'A serialised LangChain ToolMessage without tool_call_id is INVALID_ID naming kwargs.tool_call_id.',
    [J({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'ToolMessage'], kwargs: { content: x(100) } })],
    { error: 'INVALID_ID' },
  ],
];

const rawArray = (raws) => (raws.length === 0 ? '[]' : `[\n      ${raws.join(',\n      ')}\n    ]`);

writeVectors(
  'batch',
  cases.map(([name, description, raws, opts = {}]) => {
    const outputDir = opts.outputDir ?? 'out';
    const messagesText = rawArray(raws);
    const messages = JSON.parse(messagesText);
    const expect = referenceBatch(messages, { outputDir, threshold: opts.threshold, failOn: opts.failOn });
    if ((expect.error ?? null) !== (opts.error ?? null)) {
      throw new Error(
        `${name}: the reference says ${expect.error ?? 'success'}, the case says ${opts.error ?? 'success'}`,
      );
    }
    const input = [
      ['outputDir', J(outputDir)],
      ...(opts.threshold !== undefined ? [['threshold', J(opts.threshold)]] : []),
      ...(opts.failOn ? [['failOn', J(opts.failOn)]] : []),
      ['messages', messagesText],
    ];
    return { name, description, call: 'offloadToolResults', input, expect };
  }),
);
