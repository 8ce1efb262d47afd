/**
 * tool-offload inside your own MCP server (`@modelcontextprotocol/sdk`): materialize a
 * tool's oversized `CallToolResult` before returning it, and offer the read-back tools
 * and the `ctx://` resources. ESM only. For a server you did not write, put
 * `tool-offload mcp proxy` in front of it instead (docs/mcp.md).
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { Materializer } from 'tool-offload';
 * import { materializeCallToolResult, registerContextTools } from 'tool-offload/mcp';
 *
 * const server = new McpServer({ name: 'ci', version: '1.0.0' });
 * const materializer = new Materializer({ userData: '.agent', conversationId: 'ci' });
 * registerContextTools(server, materializer);
 * server.registerTool('build_log', { description: 'The last build log.' }, async () =>
 *   materializeCallToolResult(
 *     { content: [{ type: 'text', text: await buildLog() }] },
 *     { toolName: 'build_log', callId: `build-${Date.now()}` },
 *     materializer,
 *   ),
 * );
 * ```
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { mcpResourceTemplate, mimeType } from '../../wasm/tool_offload_wasm.js';
import type { Materializer } from '../materializer.js';
import { readBack } from './read-back.js';

/** The artifacts' resource template, as `tool-offload mcp proxy` advertises it (core's). */
const TEMPLATE = mcpResourceTemplate();
/** The artifacts' resource template's URI, `ctx://{conversation}/{kind}/{file}`. */
export const RESOURCE_TEMPLATE = TEMPLATE.uriTemplate;

/** What {@link materializeCallToolResult} needs to know about the call. */
export interface CallToolResultOptions {
  /** The tool's name (in the summary and the artifact's hint). */
  toolName: string;
  /** A unique id for this call: names the artifact (`<callId>.txt`, `<callId>-structured.json`). */
  callId: string;
  /** Your server's name, shown in the summary as `<serverName>/<toolName>`. */
  serverName?: string;
}

/**
 * `result` with its text stored when over the materializer's limits: the first text
 * block becomes the summary followed by a `resource_link` to the artifact, the other
 * text blocks go, images and other blocks stay, `isError` and `_meta` are kept. An
 * oversized `structuredContent` is stored as `<callId>-structured` and replaced by a
 * note and a link (leave `outputSchema` off such tools: the client would reject the
 * result). Within the limits, `result` itself comes back. The same rules as
 * `tool-offload mcp proxy`.
 *
 * @example
 * ```ts
 * return materializeCallToolResult(result, { toolName: 'query', callId: requestId }, materializer);
 * ```
 */
export async function materializeCallToolResult(
  result: CallToolResult,
  options: CallToolResultOptions,
  materializer: Materializer,
): Promise<CallToolResult> {
  // Core rewrites the result (the proxy runs the same function natively).
  return (await materializer.materializeCallToolResult(result, options)) as CallToolResult;
}

/**
 * Register `context_read`, `context_tail` and `context_grep` (core's definitions) and
 * the resource template {@link RESOURCE_TEMPLATE} on `server`, reading `materializer`'s
 * artifacts (refs of other conversations are refused). A resource reads as the
 * artifact's first numbered page, whose header says how to continue with
 * `context_read`.
 *
 * @example
 * ```ts
 * registerContextTools(server, materializer);
 * ```
 */
export function registerContextTools(server: McpServer, materializer: Materializer): void {
  const { definitions, run } = readBack(materializer);
  let calls = 0;
  for (const definition of definitions) {
    server.registerTool(
      definition.name,
      { description: definition.description, inputSchema: zodShape(definition.input_schema as JsonObjectSchema) },
      async (args: Record<string, unknown>) => {
        const output = await run(`mcp-${++calls}`, definition.name, args);
        return { content: [{ type: 'text', text: String(output.content) }], isError: output.is_error === true };
      },
    );
  }
  server.registerResource(
    TEMPLATE.name,
    new ResourceTemplate(RESOURCE_TEMPLATE, { list: undefined }),
    { title: TEMPLATE.title, description: TEMPLATE.description, mimeType: TEMPLATE.mimeType },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: mimeType(uri.href),
          text: await materializer.read(uri.href),
        },
      ],
    }),
  );
}

/** A JSON-schema property of core's read-back tools as a zod type (the SDK takes zod). */
interface JsonProperty {
  type?: string;
  minimum?: number;
  description?: string;
}

/** Core's `{ type: 'object', properties, required }`. */
interface JsonObjectSchema {
  properties?: Record<string, JsonProperty>;
  required?: string[];
}

/** Core's schema as the raw zod shape `registerTool` takes. */
function zodShape(schema: JsonObjectSchema): Record<string, z.ZodType> {
  const required = new Set(schema.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    let type: z.ZodType;
    if (property.type === 'integer' || property.type === 'number') {
      let number = property.type === 'integer' ? z.number().int() : z.number();
      if (property.minimum !== undefined) number = number.min(property.minimum);
      type = number;
    } else if (property.type === 'boolean') {
      type = z.boolean();
    } else {
      type = z.string();
    }
    if (property.description !== undefined) type = type.describe(property.description);
    shape[name] = required.has(name) ? type : type.optional();
  }
  return shape;
}
