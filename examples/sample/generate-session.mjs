// Regenerates sample/session.json, the conversation `make demo` replays: an agent asked to
// find out why CI is red runs eight commands whose outputs are real-shaped logs of
// tests/logs (cargo, pytest, go test, jest, tsc, docker, kubectl, maven), and after each
// names the root-cause line tests/logs/labels.json gives for it, as an agent that found it
// would. Deterministic: `node examples/sample/generate-session.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const logs = new URL('../../tests/logs/', import.meta.url);
const labels = JSON.parse(readFileSync(new URL('labels.json', logs), 'utf8'));
const steps = [
  ['cargo-build-mismatched-types.log', 'cargo build --workspace --keep-going'],
  ['pytest-assertion-failure-color.log', 'python -m pytest tests/ -q --color=yes'],
  ['go-test-fail-verbose.log', 'go test -v ./...'],
  ['jest-failure-typeerror-color.log', 'npx jest --ci'],
  ['tsc-cascading-errors.log', 'npx tsc --noEmit -p .'],
  ['docker-buildkit-npm-ci.log', 'docker build -t web:ci .'],
  ['kubectl-describe-pod-oomkilled.log', 'kubectl describe pod worker-7d9f'],
  ['maven-compilation-cascade.log', 'mvn -B verify'],
];
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '').trim();
const messages = [
  { role: 'user', content: 'CI is red on main. Find out why, in every job, and tell me the root cause of each.' },
];
steps.forEach(([file, command], i) => {
  const label = labels.find((l) => l.file === file);
  const text = readFileSync(new URL(file, logs), 'utf8');
  const root = strip(text.split('\n')[label.rootCause - 1]);
  const id = `toolu_01demo${String(i).padStart(2, '0')}`;
  messages.push({
    role: 'assistant',
    content: [
      { type: 'text', text: i === 0 ? 'Starting with the Rust build.' : 'Next job.' },
      { type: 'tool_use', id, name: 'Bash', input: { command } },
    ],
  });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] });
  messages.push({
    role: 'assistant',
    content: `\`${command}\`: the root cause is line ${label.rootCause}: ${root}`,
  });
  messages.push({ role: 'user', content: 'Go on.' });
});
messages.push({ role: 'assistant', content: 'That was every job: eight root causes, one per job, listed above.' });
writeFileSync(new URL('session.json', import.meta.url), `${JSON.stringify(messages, null, 1)}\n`);
