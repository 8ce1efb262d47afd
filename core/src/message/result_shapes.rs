//! The one description of where a tool result sits when a message (or an Anthropic
//! block) is itself one result: core's reader ([`super::find::tool_results`]) takes its field
//! names from here, and the npm package's fingerprint of what core reads
//! (`host-node/src/seen-messages.ts`) gets the same table through the wasm export
//! `messageShapes`, so the two cannot drift.

/// A message or block that holds one tool result, recognised by one field's value.
///
/// ```
/// use tool_offload_core::RESULT_SHAPES;
/// let chat = RESULT_SHAPES[0];
/// assert_eq!((chat.tag, chat.value, chat.id, chat.content), ("role", "tool", "tool_call_id", "content"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultShape {
    /// The field that says what this is: `role` or `type`.
    pub tag: &'static str,
    /// Its value: `tool`, `function_call_output`…
    pub value: &'static str,
    /// The field holding the tool-call id.
    pub id: &'static str,
    /// The field holding the content.
    pub content: &'static str,
    /// The field naming the tool, when the result itself says it.
    pub name: Option<&'static str>,
}

/// OpenAI Chat's `{ role: "tool", tool_call_id, content }` (and, with result parts in
/// `content`, the AI SDK's tool message).
pub(crate) const CHAT: ResultShape = ResultShape {
    tag: "role",
    value: "tool",
    id: "tool_call_id",
    content: "content",
    name: None,
};
/// The Responses API's `{ type: "function_call_output", call_id, output }`.
pub(crate) const RESPONSES: ResultShape = ResultShape {
    tag: "type",
    value: "function_call_output",
    id: "call_id",
    content: "output",
    name: None,
};
/// The OpenAI Agents SDK's `{ type: "function_call_result", callId, name, output }`.
pub(crate) const AGENTS: ResultShape = ResultShape {
    tag: "type",
    value: "function_call_result",
    id: "callId",
    content: "output",
    name: Some("name"),
};
/// LangChain's stored `{ type: "tool", tool_call_id, name, content }` (with `data`: the
/// same fields one level down).
pub(crate) const LANGCHAIN: ResultShape = ResultShape {
    tag: "type",
    value: "tool",
    id: "tool_call_id",
    content: "content",
    name: Some("name"),
};
/// An Anthropic `{ type: "tool_result", tool_use_id, content }` block of `content`.
pub(crate) const ANTHROPIC_BLOCK: ResultShape = ResultShape {
    tag: "type",
    value: "tool_result",
    id: "tool_use_id",
    content: "content",
    name: None,
};

/// Every [`ResultShape`], in the order core tests them (the block last: it is looked for
/// in `content` only when the message is none of the others).
pub const RESULT_SHAPES: [ResultShape; 5] = [CHAT, RESPONSES, AGENTS, LANGCHAIN, ANTHROPIC_BLOCK];
