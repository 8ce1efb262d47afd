/**
 * `tool-offload/mcp` inside a real TypeScript SDK server (McpServer), talked to by the
 * SDK's Client over its in-memory transport.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Materializer } from 'tool-offload';
import { materializeCallToolResult, registerContextTools, RESOURCE_TEMPLATE } from 'tool-offload/mcp';
import { buildLog, PLANTED } from './mcp/log.js';

type Block = { type: string; text?: string; uri?: string };
type Property = { type: string; description: string; minimum?: number };

describe('tool-offload/mcp in a TypeScript SDK server', () => {
  let dir: string;
  let client: Client;
  let materializer: Materializer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-ts-'));
    materializer = new Materializer({ userData: dir, conversationId: 'conv-1' });
    const server = new McpServer({ name: 'ci', version: '1.0.0' });
    registerContextTools(server, materializer);
    server.registerTool('build_log', { description: 'The last build log.' }, async () =>
      materializeCallToolResult(
        { content: [{ type: 'text', text: buildLog() }] },
        { toolName: 'build_log', callId: 'build-1', serverName: 'ci' },
        materializer,
      ),
    );
    server.registerTool('small', { description: 'Short.' }, async () =>
      materializeCallToolResult(
        { content: [{ type: 'text', text: 'ok' }] },
        { toolName: 'small', callId: 'small-1' },
        materializer,
      ),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the read-back tools with core’s descriptions and parameters', async () => {
    const { tools } = await client.listTools();
    const expected = materializer.getToolDefinitions({ format: 'mcp' });
    for (const definition of expected) {
      const listed = tools.find((t) => t.name === definition.name);
      assert.ok(listed, definition.name);
      assert.equal(listed.description, definition.description);
      const schema = definition.inputSchema as unknown as { properties: Record<string, Property>; required: string[] };
      assert.deepEqual(listed.inputSchema.required, schema.required);
      for (const [name, property] of Object.entries(schema.properties)) {
        const got: Property = (listed.inputSchema.properties as Record<string, Property>)[name]!;
        assert.equal(got.type, property.type, `${definition.name}.${name}`);
        assert.equal(got.description, property.description);
        assert.equal(got.minimum, property.minimum);
      }
    }
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      [RESOURCE_TEMPLATE],
    );
  });

  it('returns a summary and a link; the model greps the artifact; the resource reads as a page', async () => {
    const result = await client.callTool({ name: 'build_log', arguments: {} });
    const content = result.content as Block[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'resource_link'],
    );
    assert.match(
      content[0]!.text!,
      /^\[Output of ci\/build_log \(call build-1\) stored as ctx:\/\/conv-1\/tool\/build-1\.txt/,
    );
    assert.equal(content[1]!.uri, 'ctx://conv-1/tool/build-1.txt');
    const grep = await client.callTool({
      name: 'context_grep',
      arguments: { ref: content[1]!.uri, pattern: 'quota', ignore_case: true },
    });
    assert.equal(grep.isError, false);
    assert.ok((grep.content as Block[])[0]!.text!.includes(`1234| ${PLANTED}`));
    const page = await client.readResource({ uri: content[1]!.uri! });
    assert.match(
      (page.contents[0] as { text: string }).text,
      /^\[ctx:\/\/conv-1\/tool\/build-1\.txt: lines 1-\d+ of 3,400\. More: context_read/,
    );
  });

  it('leaves small results alone and reports bad read-back calls to the model', async () => {
    assert.deepEqual((await client.callTool({ name: 'small', arguments: {} })).content, [{ type: 'text', text: 'ok' }]);
    const bad = await client.callTool({ name: 'context_tail', arguments: { ref: 'ctx://conv-2/tool/x.txt' } });
    assert.equal(bad.isError, true);
    await assert.rejects(client.readResource({ uri: 'ctx://conv-2/tool/x.txt' }), /outside this conversation/);
  });

  it('keeps isError, _meta and images; stores oversized structuredContent with a note', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i }));
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'head' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: buildLog() },
      ],
      structuredContent: { rows },
      isError: true,
      _meta: { trace: 'x' },
    };
    const out = await materializeCallToolResult(result, { toolName: 'q', callId: 'q-1' }, materializer);
    assert.equal(out.isError, true);
    assert.deepEqual(out._meta, { trace: 'x' });
    assert.equal(out.structuredContent, undefined);
    const types = (out.content as Block[]).map((b) => b.type);
    assert.deepEqual(types, ['text', 'resource_link', 'image', 'text', 'resource_link']);
    assert.match(
      (out.content as Block[])[3]!.text!,
      /^\[structuredContent of q \([\d,]+ bytes\) stored as ctx:\/\/conv-1\/tool\/q-1-structured\.json/,
    );
    assert.equal(result.structuredContent !== undefined, true, 'the input is not mutated');
    // A result with structured content only (no content array) gains the note and link.
    const bare = { structuredContent: { rows } } as unknown as CallToolResult;
    const noted = await materializeCallToolResult(bare, { toolName: 'q', callId: 'q-2' }, materializer);
    assert.deepEqual(
      (noted.content as Block[]).map((b) => b.type),
      ['text', 'resource_link'],
    );
    assert.equal(result.content.length, 3);
  });
});
