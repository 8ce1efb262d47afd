// Type compatibility of the package's types with the official SDKs (@anthropic-ai/sdk,
// openai). This file only has to type-check: sdk-types.test.ts runs tsc on it (strict,
// module nodenext) and requires exit 0. Also part of host-node/tsconfig.test.json.
//
// Each `@ts-expect-error` pins a direction that does not hold today. The text after the
// directive is a fragment of the diagnostic tsc gives without it, which the test checks,
// so each pin fails for the documented reason; if the types change so that a direction
// holds, tsc reports the directive as unused (TS2578) and the test fails, so the pin gets
// revisited rather than silently rotting.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';

import { offloadToolResult, offloadToolResults, registerTodoTools, ToolRegistry } from 'tool-offload';
import type {
  AnthropicMessage,
  BatchResult,
  FileWriter,
  Message,
  OpenAIToolMessage,
  RegisteredTool,
  TextBlock,
  ToolDefinition,
  ToolOutput,
  ToolResult,
  ToolResultBlock,
  ToolUseBlock,
} from 'tool-offload';

declare const registry: ToolRegistry;
declare const writer: FileWriter;

// ---------------------------------------------------------------------------------------
// Tool definitions → Anthropic `tools`
// ---------------------------------------------------------------------------------------

export const tools: Anthropic.Tool[] = registry.getToolDefinitions();
export const one: Anthropic.Tool = registry.getToolDefinitions()[0];
export const toolUnions: Anthropic.Messages.ToolUnion[] = registry.getToolDefinitions();
declare const registered: RegisteredTool | undefined;
export const fromGetTool: Anthropic.Tool | undefined = registered?.definition;
export const definition: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
export const asSdkTool: Anthropic.Tool = definition;

// The reverse, an SDK tool passed to register(): `description` is optional on both sides.
declare const sdkTool: Anthropic.Tool;
export const sdkToolAsOurs: ToolDefinition = sdkTool;
export const sdkToolWithDescription: ToolDefinition = { ...sdkTool, description: sdkTool.description ?? '' };

// ---------------------------------------------------------------------------------------
// executeTool results → Anthropic tool_result blocks and messages
// ---------------------------------------------------------------------------------------

declare const result: ToolResult;
export const block: Anthropic.ToolResultBlockParam = result;
export const contentBlock: Anthropic.ContentBlockParam = result;
export const userTurn: Anthropic.MessageParam = { role: 'user', content: [result] };
export const userParam: Anthropic.Messages.UserMessageParam = {
  role: 'user',
  content: [result, { type: 'text', text: 'continue' }],
};

/** A complete agent turn with the SDK: our definitions in, our results back. */
export async function anthropicTurn(
  client: Anthropic,
  messages: Anthropic.MessageParam[],
): Promise<Anthropic.MessageParam[]> {
  const response = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools: registry.getToolDefinitions(),
    messages,
  });
  const results: ToolResult[] = [];
  for (const part of response.content) {
    if (part.type === 'tool_use') results.push(await registry.executeTool(part.id, part.name, part.input));
  }
  const next: Anthropic.MessageParam[] = [...messages, { role: 'assistant', content: response.content }];
  if (results.length > 0) next.push({ role: 'user', content: results });
  return next;
}

// ---------------------------------------------------------------------------------------
// AnthropicMessage / Message ↔ Anthropic.MessageParam
// ---------------------------------------------------------------------------------------

// Ours → SDK holds for messages whose content is a string.
declare const stringMessage: AnthropicMessage & { content: string };
export const stringMessageAsParam: Anthropic.MessageParam = stringMessage;
// ...and for text, tool_use and string-content tool_result blocks.
declare const ourText: TextBlock;
export const textAsParam: Anthropic.TextBlockParam = ourText;
declare const ourToolUse: ToolUseBlock;
export const toolUseAsParam: Anthropic.ToolUseBlockParam = ourToolUse;
declare const ourToolResult: ToolResultBlock & { content?: string };
export const toolResultAsParam: Anthropic.ToolResultBlockParam = ourToolResult;
export const blocksAsParam: Anthropic.MessageParam = { role: 'user', content: [ourText, ourToolUse, ourToolResult] };

// Ours → SDK does not hold in general: our blocks are deliberately open.
//   ImageBlock.source: unknown           vs ImageBlockParam.source: Base64ImageSource | URLImageSource | FileImageSource
//   OtherBlock.type: string              vs ContentBlockParam's literal `type` discriminants
//   ToolResultBlock.content: ContentBlock[] (same two) vs ToolResultBlockParam.content's block union
declare const anthropicMessage: AnthropicMessage;
// @ts-expect-error Types of property 'source' are incompatible.
export const oursAsParam: Anthropic.MessageParam = anthropicMessage;
declare const anyMessage: Message;
// @ts-expect-error Type 'Message' is not assignable to type 'MessageParam'.
export const messageAsParam: Anthropic.MessageParam = anyMessage;

// SDK → ours holds for user and assistant messages (our interfaces carry no index
// signature). MessageParam as a whole does not: it also includes SystemMessageParam
// (role "system"), which carries no tool result.
declare const sdkUser: Anthropic.Messages.UserMessageParam;
declare const sdkAssistant: Anthropic.Messages.AssistantMessageParam;
declare const sdkParam: Anthropic.MessageParam;
export const sdkUserAsOurs: AnthropicMessage = sdkUser;
export const sdkAssistantAsOurs: AnthropicMessage = sdkAssistant;
// @ts-expect-error Type 'MessageParam' is not assignable to type 'Message'.
export const sdkParamAsMessage: Message = sdkParam;
// ...and offloadToolResult (generic over M extends object, like the batch API) accepts
// any SDK message, MessageParam included, and keeps its type.
export const direct = offloadToolResult(sdkUser, 's1', 'artifacts', writer);
export async function directParam(message: Anthropic.MessageParam): Promise<Anthropic.MessageParam> {
  return (await offloadToolResult(message, 's1', 'artifacts', writer)).message;
}
// ...while offloadToolResults is generic and keeps the SDK type.
export async function batch(history: Anthropic.MessageParam[]): Promise<Anthropic.MessageParam[]> {
  const done: BatchResult<Anthropic.MessageParam> = await offloadToolResults(history, { outputDir: 'artifacts' });
  return done.messages;
}

// ---------------------------------------------------------------------------------------
// OpenAIToolMessage ↔ ChatCompletionToolMessageParam
// ---------------------------------------------------------------------------------------

// Ours → SDK holds for string content.
declare const openaiString: OpenAIToolMessage & { content: string };
export const openaiStringAsParam: ChatCompletionToolMessageParam = openaiString;
export const openaiInHistory: ChatCompletionMessageParam = openaiString;
declare const openaiMessage: OpenAIToolMessage;
// @ts-expect-error Property 'text' is missing in type 'ContentPart'
export const openaiAsParam: ChatCompletionToolMessageParam = openaiMessage;

// SDK → ours: ChatCompletionToolMessageParam is one of our OpenAI tool messages.
declare const openaiParam: ChatCompletionToolMessageParam;
export const openaiParamAsOurs: OpenAIToolMessage = openaiParam;

/** An OpenAI Chat turn: our definitions as function tools, our results as tool messages. */
export async function openaiTurn(
  client: OpenAI,
  messages: ChatCompletionMessageParam[],
): Promise<ChatCompletionMessageParam[]> {
  const functionTools: ChatCompletionFunctionTool[] = registry.getToolDefinitions().map((d) => ({
    type: 'function',
    function: { name: d.name, description: d.description, parameters: d.input_schema },
  }));
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages, tools: functionTools });
  const next: ChatCompletionMessageParam[] = [...messages, completion.choices[0].message];
  for (const call of completion.choices[0].message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const fn: ChatCompletionMessageFunctionToolCall = call;
    const executed = await registry.executeTool(fn.id, fn.function.name, JSON.parse(fn.function.arguments));
    const reply: ChatCompletionToolMessageParam = {
      role: 'tool',
      tool_call_id: executed.tool_use_id,
      content: executed.content,
    };
    next.push(reply);
  }
  return next;
}

// ---------------------------------------------------------------------------------------
// The registry's own API types
// ---------------------------------------------------------------------------------------

export const withOffload = new ToolRegistry({
  offload: { outputDir: 'artifacts', sessionId: 's1', thresholdChars: 2000 },
});
registerTodoTools(withOffload);
// A handler may return bytes too (stored as a binary artifact by a materializing registry).
export const handlerOutput: ToolOutput | Uint8Array | Promise<ToolOutput | Uint8Array> | undefined = withOffload
  .getTool('TodoWrite')
  ?.handler({ todos: [] });
export const pending: Promise<ToolResult> = withOffload.executeTool('toolu_1', 'TodoRead', {});
// @ts-expect-error Type 'false' is not assignable to type 'true'.
export const notFalse: ToolResult = { type: 'tool_result', tool_use_id: 't', content: 'c', is_error: false };
