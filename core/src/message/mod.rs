//! Finding tool results in the message shapes agent loops send, wherever they live.
//!
//! - Anthropic Messages: `{ role, content: [ { type: "tool_result", tool_use_id, content }, … ] }`
//! - OpenAI Chat Completions: `{ role: "tool", tool_call_id, content }`
//! - OpenAI Responses input items: `{ type: "function_call_output", call_id, output }`
//! - Vercel AI SDK: `{ role: "tool", content: [ { type: "tool-result", toolCallId, toolName,
//!   output: { type: "text" | "json" | "error-text" | "error-json" | "content", value } }, … ] }`
//! - OpenAI Agents SDK items: `{ type: "function_call_result", callId, name, output }`
//! - LangChain: `{ type: "tool", tool_call_id, content }`, its stored form
//!   `{ type: "tool", data: { tool_call_id, content } }` and its serialised form
//!   `{ lc: 1, type: "constructor", id: [ …, "ToolMessage" ], kwargs: { tool_call_id, content } }`
//!
//! Everything else in a message is opaque and preserved. What replaces a content keeps
//! the message valid for its framework ([`Form`]).

mod calls;
mod edit;
mod find;
mod found;
mod planned;
mod result_shapes;
mod shapes;
mod slot;
mod text;
pub(crate) use calls::{tool_input, tool_names};
pub use edit::apply_edits;
pub(crate) use edit::with_contents;
pub(crate) use find::{check_session_id, tool_results};
pub(crate) use found::{id_path, At};
pub(crate) use planned::{plan_tool_results, Planned};
pub use result_shapes::{ResultShape, RESULT_SHAPES};
pub(crate) use text::text_parts;
pub use text::{joined_texts, output_text};

pub use slot::{Form, Slot};
