/**
 * `tool-offload mcp serve` (an rmcp server) reading back artifacts the npm package
 * wrote, through the TypeScript SDK's Client; and the proxy in front of a server that
 * cannot start.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Materializer } from 'tool-offload';
import { buildLog } from './mcp/log.js';

const binary = fileURLToPath(new URL('../../target/debug/tool-offload', import.meta.url));

const connect = async (args: string[]) => {
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: binary, args, stderr: 'pipe' }));
  return client;
};

describe('mcp serve over artifacts the npm package wrote', () => {
  let dir: string;
  let ref: string;
  let client: Client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-serve-'));
    const materializer = new Materializer({ userData: dir, conversationId: 'conv-1' });
    const done = await materializer.materialize({ toolCallId: 'call_1', toolName: 'bash', output: buildLog() });
    assert.equal(done.inline, false);
    ref = done.inline ? '' : done.ref.id;
    client = await connect([
      'mcp',
      'serve',
      '--user-data',
      dir,
      '--conversation',
      'conv-1',
      '--max-resource-bytes',
      '100000',
    ]);
  });
  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers exactly the read-back tools, as core defines them', async () => {
    const { tools } = await client.listTools();
    const materializer = new Materializer({ userData: dir, conversationId: 'conv-1' });
    const expected = materializer.getToolDefinitions({ format: 'mcp' });
    assert.deepEqual(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      expected.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
  });

  it('runs them', async () => {
    const tail = await client.callTool({ name: 'context_tail', arguments: { ref, lines: 1 } });
    assert.equal(tail.isError, false);
    assert.match((tail.content as { text: string }[])[0]!.text, /3400\| step 3400: compiled module_3400/);
    const bad = await client.callTool({ name: 'context_read', arguments: { ref: 'ctx://conv-2/tool/x.txt' } });
    assert.equal(bad.isError, true);
    await assert.rejects(client.callTool({ name: 'bash', arguments: {} }), /unknown tool: bash/);
  });

  it('serves artifacts as resources, the large ones as their first page', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0]!.uriTemplate, 'ctx://{conversation}/{kind}/{file}');
    const read = await client.readResource({ uri: ref });
    const text = (read.contents[0] as { text: string }).text;
    assert.match(text, new RegExp(`^\\[${ref.replace(/[/.]/g, '\\$&')}: lines 1-\\d+ of 3,400\\. More: context_read`));
    assert.ok(text.length <= 4000);
  });
});

describe('mcp proxy in front of a server that cannot start', () => {
  it('answers initialize with an error saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-nostart-'));
    try {
      await assert.rejects(
        connect(['mcp', 'proxy', '--user-data', dir, '--', join(dir, 'no-such-server')]),
        /cannot start the upstream MCP server .*no-such-server/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
