/**
 * The upstream of the proxy tests: a real MCP server on stdio (the TypeScript SDK's
 * McpServer) whose tools return a 200 KB log, hang, exit, print garbage, or send what a
 * typed relay might drop (an unknown result field, a custom notification).
 * Run with `node --import tsx log-server.ts`; CANCEL_MARKER names a file written when a
 * cancellation reaches the server.
 */
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildLog, TINY_PNG } from './log.js';

const server = new McpServer({ name: 'log-server', version: '1.0.0' });

server.registerTool('build_log', { description: 'The last build log.' }, () => ({
  content: [
    { type: 'text', text: buildLog() },
    { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
  ],
}));

server.registerTool('failing_build', { description: 'A failed build: a big log, isError.' }, () => ({
  content: [{ type: 'text', text: buildLog() }],
  isError: true,
}));

server.registerTool('rows', { description: 'Many rows, as structured content.' }, () => {
  const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `row ${i}` }));
  return { content: [{ type: 'text', text: `${rows.length} rows` }], structuredContent: { rows } };
});

server.registerTool('small', { description: 'A short answer.' }, () => ({
  content: [{ type: 'text', text: 'all good' }],
}));

server.registerTool(
  'vendor',
  { description: 'A result with a vendor field, after a custom notification.' },
  async () => {
    await server.server.notification({ method: 'notifications/vendor_event', params: { seen: 1 } });
    return { content: [{ type: 'text', text: 'vendor' }], vendorField: 'kept' };
  },
);

server.registerTool('progress', { description: 'Reports progress twice, then answers.' }, async (extra) => {
  const token = extra._meta?.progressToken;
  if (token !== undefined) {
    for (const progress of [1, 2]) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, total: 2 },
      });
    }
  }
  // The SDK's client handles notifications a tick later than responses: let them land first.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { content: [{ type: 'text', text: 'done' }] };
});

server.registerPrompt('summarize', { description: 'Summarize the build.' }, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the last build.' } }],
}));

server.registerTool(
  'hang',
  { description: 'Never answers.' },
  (extra) =>
    new Promise(() => {
      extra.signal.addEventListener('abort', () => {
        if (process.env.CANCEL_MARKER) writeFileSync(process.env.CANCEL_MARKER, 'cancelled');
      });
    }),
);

server.registerTool('exit', { description: 'Exits mid-call.' }, () => {
  setTimeout(() => process.exit(3), 10);
  return new Promise(() => {});
});

server.registerTool('garbage', { description: 'Prints non-JSON to stdout, then answers.' }, () => {
  process.stdout.write('this is not JSON-RPC\n');
  return { content: [{ type: 'text', text: 'answered after garbage' }] };
});

server.server.fallbackNotificationHandler = async (notification) => {
  // Echo a client's custom notification back, so the test sees it crossed the proxy twice.
  if (notification.method === 'notifications/client_vendor') {
    await server.server.notification({ method: 'notifications/vendor_echo', params: notification.params });
  }
};

await server.connect(new StdioServerTransport());
