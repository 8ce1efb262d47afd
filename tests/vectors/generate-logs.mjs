// Writes materialize-failure-logs.json: every real-shaped log of tests/logs/ materialized
// at the default limits, so every host shows the same failure first (the summaries are
// `$core` texts: fill them with TOOL_OFFLOAD_BLESS=1, see README.md). The logs' labels
// are checked by core's tests/failure_logs.rs.
//
//   node tests/vectors/generate-logs.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const logs = join(here, '../logs');
const out = join(here, 'materialize-failure-logs.json');

/** Lines as Rust's `str::lines` counts them. */
const lineCount = (text) => (text.match(/\n/g)?.length ?? 0) + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);

const previous = (() => {
  try {
    return new Map(
      JSON.parse(readFileSync(out, 'utf8')).steps.map((s) => [s.toolCallId, s.expect.content.$core ?? null]),
    );
  } catch {
    return new Map();
  }
})();

// Under the default 4,000 a few short logs would come back inline; at 1,500 all but the
// shortest are summarised (core's tests/failure_logs.rs checks the default limits).
const maxInlineChars = 1500;
const labels = JSON.parse(readFileSync(join(logs, 'labels.json'), 'utf8'));
const steps = [];
const files = {};
for (const { file } of labels) {
  const output = readFileSync(join(logs, file), 'utf8');
  const id = file.replace(/\.log$/, '');
  if (output.length <= maxInlineChars && Buffer.byteLength(output) <= 16384) {
    steps.push({
      op: 'materialize',
      toolCallId: id,
      toolName: 'bash',
      output,
      expect: { inline: true, content: output },
    });
    continue;
  }
  steps.push({
    op: 'materialize',
    toolCallId: id,
    toolName: 'bash',
    output,
    expect: {
      inline: false,
      content: { $core: previous.get(id) ?? null },
      ref: {
        kind: 'artifact',
        id: `ctx://conv-1/tool/${id}.txt`,
        hint: {
          toolName: 'bash',
          toolCallId: id,
          bytes: Buffer.byteLength(output),
          chars: output.length,
          lines: lineCount(output),
          isJson: false,
        },
      },
      path: `context/conv-1/artifacts/tool/${id}.txt`,
    },
  });
  files[`/data/context/conv-1/artifacts/tool/${id}.txt`] = output;
}
const vector = {
  name: 'failure-logs',
  description: `${labels.length} real-shaped logs of many ecosystems (tests/logs/, each labelled with its root-cause line) materialized at maxInlineChars 1,500: the summary shows the failure first, names the likely root cause and ends with a grep hint that finds it, the same on every host.`,
  options: { conversationId: 'conv-1', maxInlineChars },
  steps,
  files,
};
writeFileSync(out, JSON.stringify(vector, null, 2) + '\n');
console.log(`wrote ${out}: ${steps.length} logs`);
