// The playground's bundled sample: the conversation around the demo's tool-result message
// (examples/sample, a ~120 KB build log and a test report answering two tool calls).
import toolResults from '../../examples/sample/tool-result-message.json' with { type: 'json' };

/** A short Anthropic Messages conversation whose third message carries two large tool results. */
export const SAMPLE: object[] = [
  { role: 'user', content: '`cargo build` fails in this repository. Find out why.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'I will build it and run the tests.' },
      { type: 'tool_use', id: 'toolu_01BuildLog', name: 'bash', input: { command: 'cargo build 2>&1' } },
      { type: 'tool_use', id: 'toolu_02TestReport', name: 'run_tests', input: { suite: 'all' } },
    ],
  },
  toolResults,
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'The build fails on a type mismatch in src/main.rs:42.' }],
  },
];
