// User code on the MCP adapter type-checks without casts under the strictest options
// (see tsconfig.adapters.json).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Materializer } from 'tool-offload';
import { materializeCallToolResult, registerContextTools } from 'tool-offload/mcp';

const server = new McpServer({ name: 'ci', version: '1.0.0' });
const materializer = new Materializer({ userData: '.agent', conversationId: 'ci' });
registerContextTools(server, materializer);

server.registerTool('build_log', { description: 'The last build log.' }, async (): Promise<CallToolResult> => {
  const result: CallToolResult = { content: [{ type: 'text', text: 'a very long log' }] };
  return materializeCallToolResult(
    result,
    { toolName: 'build_log', callId: 'build-1', serverName: 'ci' },
    materializer,
  );
});

export { server };
