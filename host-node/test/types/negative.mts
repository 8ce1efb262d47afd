// A deliberate mismatch that must FAIL to type-check (sdk-types.test.ts asserts the exact
// diagnostic): an Anthropic-style tool_result is not an OpenAI tool message. It proves
// that tsc really sees both the package's types and the SDK's, not `any`.
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ToolResult } from 'tool-offload';

declare const result: ToolResult;
export const wrong: ChatCompletionToolMessageParam = result;
