/**
 * `tool-offload mcp proxy` with real MCP parts: the TypeScript SDK's Client over
 * StdioClientTransport launches the proxy (target/debug/tool-offload, built by
 * `make build`) in front of a TypeScript SDK server (test/mcp/log-server.ts) and of
 * the real @modelcontextprotocol/server-filesystem.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Materializer } from 'tool-offload';
import { materializeCallToolResult } from 'tool-offload/mcp';
import { buildLog, PLANTED, TINY_PNG } from './mcp/log.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const binary = join(root, 'target/debug/tool-offload');
const logServer = fileURLToPath(new URL('./mcp/log-server.ts', import.meta.url));
const require = createRequire(import.meta.url);
const filesystemServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

type Block = { type: string; text?: string; uri?: string; mimeType?: string; data?: string };

/** A connected client talking to `server` through the proxy. */
async function proxied(userData: string, server: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: binary,
    args: ['mcp', 'proxy', '--user-data', userData, '--conversation', 'conv-1', '--', ...server],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (content: unknown) =>
  (content as Block[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

describe('mcp proxy in front of a TypeScript SDK server', () => {
  let dir: string;
  let session: Awaited<ReturnType<typeof proxied>>;
  const marker = () => join(dir, 'cancelled');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-proxy-'));
    session = await proxied(dir, [process.execPath, '--import', 'tsx', logServer], {
      CANCEL_MARKER: join(dir, 'cancelled'),
    });
  });
  after(async () => {
    await session.client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the read-back tools and the ctx:// template', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.slice(-3), ['context_read', 'context_tail', 'context_grep']);
    assert.ok(names.includes('build_log'));
    const { resourceTemplates } = await session.client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['ctx://{conversation}/{kind}/{file}'],
    );
  });

  it('turns a 200 KB log into a summary and a resource link; grep and resources/read get it back', async () => {
    const result = await session.client.callTool({ name: 'build_log', arguments: {} });
    const content = result.content as Block[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'resource_link', 'image'],
    );
    const summary = content[0]!.text!;
    assert.match(
      summary,
      /^\[Output of log-server\/build_log \(call mcp-build_log-[0-9a-f]{16}\) stored as ctx:\/\/conv-1\/tool\/mcp-build_log-[0-9a-f]{16}\.txt/,
    );
    assert.ok(summary.length <= 4000, `summary of ${summary.length} characters`);
    const link = content[1]!;
    assert.match(link.uri!, /^ctx:\/\/conv-1\/tool\/mcp-build_log-[0-9a-f]{16}\.txt$/);
    assert.equal(link.mimeType, 'text/plain');
    assert.equal(content[2]!.mimeType, 'image/png');

    const grep = await session.client.callTool({
      name: 'context_grep',
      arguments: { ref: link.uri, pattern: 'disk quota' },
    });
    assert.equal(grep.isError, false);
    assert.match(textOf(grep.content), new RegExp(`1234\\| ${PLANTED.replace(/[()/]/g, '\\$&')}`));

    const read = await session.client.readResource({ uri: link.uri! });
    assert.equal(read.contents.length, 1);
    assert.equal((read.contents[0] as { text: string }).text, buildLog());
  });

  it('gives what tool-offload/mcp gives for the same result and call id', async () => {
    const other = mkdtempSync(join(tmpdir(), 'mcp-ts-same-'));
    try {
      const materializer = new Materializer({ userData: other, conversationId: 'conv-1' });
      const log = buildLog();
      const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `row ${i}` }));
      for (const [name, upstream] of [
        [
          'build_log',
          {
            content: [
              { type: 'text', text: log },
              { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
            ],
          },
        ],
        ['failing_build', { content: [{ type: 'text', text: log }], isError: true }],
        ['rows', { content: [{ type: 'text', text: '3000 rows' }], structuredContent: { rows } }],
      ] satisfies [string, CallToolResult][]) {
        const proxied = await session.client.callTool({ name, arguments: {} });
        const link = (proxied.content as Block[]).find((b) => b.type === 'resource_link')!;
        const callId = link.uri!.replace(/^.*\/(.*?)(-structured)?\.(txt|json)$/, '$1');
        const direct = await materializeCallToolResult(
          upstream,
          { toolName: name, callId, serverName: 'log-server' },
          materializer,
        );
        assert.deepEqual(proxied, direct, name);
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps isError, and the same output gets the same ref', async () => {
    const first = await session.client.callTool({ name: 'failing_build', arguments: {} });
    const again = await session.client.callTool({ name: 'failing_build', arguments: {} });
    assert.equal(first.isError, true);
    assert.deepEqual(again, first);
  });

  it('stores oversized structuredContent and says so', async () => {
    const result = await session.client.callTool({ name: 'rows', arguments: {} });
    assert.equal(result.structuredContent, undefined);
    const content = result.content as Block[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'text', 'resource_link'],
    );
    assert.equal(content[0]!.text, '3000 rows');
    assert.match(
      content[1]!.text!,
      /^\[structuredContent of rows \([\d,]+ bytes\) stored as ctx:\/\/conv-1\/tool\/mcp-rows-[0-9a-f]{16}-structured\.json/,
    );
    const read = await session.client.readResource({ uri: content[2]!.uri! });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).rows.length, 3000);
  });

  it('passes small results, unknown fields and custom notifications through', async () => {
    const small = await session.client.callTool({ name: 'small', arguments: {} });
    assert.deepEqual(small.content, [{ type: 'text', text: 'all good' }]);
    const seen: { method: string; params?: unknown }[] = [];
    session.client.fallbackNotificationHandler = async ({ method, params }) => void seen.push({ method, params });
    const vendor = await session.client.callTool({ name: 'vendor', arguments: {} });
    assert.equal(vendor.vendorField, 'kept');
    await session.client.notification({ method: 'notifications/client_vendor', params: { hello: 'upstream' } });
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(seen, [
      { method: 'notifications/vendor_event', params: { seen: 1 } },
      { method: 'notifications/vendor_echo', params: { hello: 'upstream' } },
    ]);
  });

  it('relays progress notifications and prompts', async () => {
    const progress: number[] = [];
    const result = await session.client.callTool({ name: 'progress', arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    assert.equal(textOf(result.content), 'done');
    assert.deepEqual(progress, [1, 2]);
    const { prompts } = await session.client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['summarize'],
    );
    const prompt = await session.client.getPrompt({ name: 'summarize' });
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Summarize the last build.' } }]);
  });

  it('answers a ctx:// ref that does not exist with an error', async () => {
    await assert.rejects(
      session.client.readResource({ uri: 'ctx://conv-1/tool/nothing.txt' }),
      /no artifact at ctx:\/\/conv-1\/tool\/nothing\.txt/,
    );
    await assert.rejects(
      session.client.readResource({ uri: 'ctx://other/tool/a.txt' }),
      /REF_OUT_OF_SCOPE|out of scope|outside/i,
    );
  });

  it('relays the client cancelling a call that never answers', async () => {
    const controller = new AbortController();
    const call = session.client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort('user gave up');
    await assert.rejects(call, /gave up|abort/i);
    for (let i = 0; i < 100 && !existsSync(marker()); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(readFileSync(marker(), 'utf8'), 'cancelled');
  });

  it('logs non-JSON upstream output to stderr and keeps going', async () => {
    const result = await session.client.callTool({ name: 'garbage', arguments: {} });
    assert.equal(textOf(result.content), 'answered after garbage');
    assert.match(session.stderr(), /not JSON-RPC.*this is not JSON-RPC/);
  });

  it('answers pending and later calls with an error naming the exit when the upstream dies', async () => {
    await assert.rejects(
      session.client.callTool({ name: 'exit', arguments: {} }),
      /upstream MCP server exited \(exit status: 3\) before answering/,
    );
    await assert.rejects(
      session.client.callTool({ name: 'small', arguments: {} }),
      /upstream MCP server exited \(exit status: 3\)/,
    );
    // The artifacts stay readable: the proxy itself is alive.
    const { tools } = await session.client.listTools().catch(() => ({ tools: [] }));
    assert.deepEqual(tools, []);
    const ref = 'ctx://conv-1/tool/';
    const tail = await session.client.callTool({
      name: 'context_tail',
      arguments: { ref: `${ref}nothing.txt`, lines: 1 },
    });
    assert.equal(tail.isError, true);
  });
});

describe('mcp proxy in front of @modelcontextprotocol/server-filesystem', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-fs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('materializes a large file read and reads it back', async () => {
    const files = join(dir, 'files');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(files);
    const log = buildLog();
    writeFileSync(join(files, 'build.log'), log);
    const { client } = await proxied(join(dir, 'data'), [process.execPath, filesystemServer, files]);
    try {
      await client.listTools(); // the client now checks results against the tools' outputSchema
      const result = await client.callTool({ name: 'read_text_file', arguments: { path: join(files, 'build.log') } });
      const content = result.content as Block[];
      assert.equal(content[0]!.type, 'text');
      assert.match(content[0]!.text!, /^\[Output of secure-filesystem-server\/read_text_file/);
      const link = content.find((b) => b.type === 'resource_link')!;
      const grep = await client.callTool({ name: 'context_grep', arguments: { ref: link.uri, pattern: 'disk quota' } });
      assert.match(textOf(grep.content), /1234\| FATAL: disk quota exceeded/);
      const read = await client.readResource({ uri: link.uri! });
      assert.equal((read.contents[0] as { text: string }).text, log);
    } finally {
      await client.close();
    }
  });
});
