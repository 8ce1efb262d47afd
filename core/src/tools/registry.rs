//! The tool registry: definitions, handlers by name, and what a call returns.

use super::definition::ToolDefinition;
use serde_json::{Map, Value};
use std::future::Future;

/// What a handler returns: the text for the model, and whether it reports a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The result text.
    pub content: String,
    /// The tool ran but failed (bad input, nothing found…); the model should adapt.
    pub is_error: bool,
}

impl ToolOutput {
    /// A successful output.
    pub fn ok(content: impl Into<String>) -> Self {
        ToolOutput {
            content: content.into(),
            is_error: false,
        }
    }
    /// An output reporting a failure.
    pub fn error(content: impl Into<String>) -> Self {
        ToolOutput {
            content: content.into(),
            is_error: true,
        }
    }
}

/// A `tool_result` block: the answer to one `tool_use`.
///
/// ```
/// use tool_offload_core::tools::ToolResult;
/// let result = ToolResult::not_found("toolu_1", "nope");
/// assert_eq!(
///     tool_offload_core::json::stringify(&result.to_value()),
///     r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"Tool 'nope' not found","is_error":true}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    /// The `id` of the `tool_use` this answers; always the one passed to `execute`.
    pub tool_use_id: String,
    /// The result text.
    pub content: String,
    /// Serialised as `is_error: true` only when true; absent otherwise.
    pub is_error: bool,
}

impl ToolResult {
    /// The result for a tool name the registry does not know.
    pub fn not_found(tool_use_id: &str, name: &str) -> Self {
        ToolResult {
            tool_use_id: tool_use_id.into(),
            content: format!("Tool '{name}' not found"),
            is_error: true,
        }
    }

    /// The result of a handler's outcome: its output as is, or a thrown error's message
    /// as an error result.
    pub fn from_outcome(tool_use_id: &str, outcome: Result<ToolOutput, String>) -> Self {
        let (content, is_error) = match outcome {
            Ok(output) => (output.content, output.is_error),
            Err(message) => (message, true),
        };
        ToolResult {
            tool_use_id: tool_use_id.into(),
            content,
            is_error,
        }
    }

    /// `{ type: "tool_result", tool_use_id, content, is_error?: true }`.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        out.insert("type".into(), "tool_result".into());
        out.insert("tool_use_id".into(), self.tool_use_id.clone().into());
        out.insert("content".into(), self.content.clone().into());
        if self.is_error {
            out.insert("is_error".into(), true.into());
        }
        Value::Object(out)
    }
}

/// A result after the policy: `replaced` tells whether its content is new (a
/// placeholder or a summary), so a host may hand back its own copy of the original
/// content otherwise (the npm package's JS string, lone surrogates and all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The result for the loop.
    pub result: ToolResult,
    /// Whether `result.content` was replaced.
    pub replaced: bool,
}

/// Why a tool could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// The name is not `^[a-zA-Z0-9_-]{1,64}$`, which the Anthropic API requires.
    #[error("invalid tool name {0:?}: must match ^[a-zA-Z0-9_-]{{1,64}}$")]
    InvalidName(String),
    /// A tool with this name is already registered.
    #[error("tool {0:?} is already registered")]
    Duplicate(String),
    /// The definition is not `{ name, description, input_schema }` with a schema object.
    #[error("invalid tool definition: {0}")]
    InvalidDefinition(String),
}

impl RegisterError {
    /// Stable code: [`crate::error::ErrorCode::InvalidToolName`], [`crate::error::ErrorCode::DuplicateTool`] or
    /// [`crate::error::ErrorCode::InvalidToolDefinition`].
    pub fn code(&self) -> crate::error::ErrorCode {
        match self {
            RegisterError::InvalidName(_) => crate::error::ErrorCode::InvalidToolName,
            RegisterError::Duplicate(_) => crate::error::ErrorCode::DuplicateTool,
            RegisterError::InvalidDefinition(_) => crate::error::ErrorCode::InvalidToolDefinition,
        }
    }
}

/// Tools by name, in registration order, each with its host handler `H`.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::tools::{ToolDefinition, ToolOutput, ToolRegistry};
/// let mut registry = ToolRegistry::new();
/// let echo = ToolDefinition::new("echo", "Repeat the input.", json!({"type": "object"}));
/// registry.register(echo, "handler").unwrap();
/// let result = futures_executor::block_on(
///     registry.execute("toolu_9", "echo", |_handler| async { Ok(ToolOutput::ok("hi")) }),
/// );
/// assert_eq!((result.tool_use_id.as_str(), result.content.as_str(), result.is_error), ("toolu_9", "hi", false));
/// ```
#[derive(Debug, Clone)]
pub struct ToolRegistry<H> {
    tools: Vec<(ToolDefinition, H)>,
    /// Tools whose results skip the hosts' result middleware (see `register_passthrough`).
    passthrough: Vec<String>,
}

impl<H> Default for ToolRegistry<H> {
    fn default() -> Self {
        ToolRegistry {
            tools: Vec::new(),
            passthrough: Vec::new(),
        }
    }
}

impl<H> ToolRegistry<H> {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a tool. The name must be one the API accepts and not yet registered.
    ///
    /// # Errors
    /// [`RegisterError`]; nothing is registered then.
    pub fn register(
        &mut self,
        definition: ToolDefinition,
        handler: H,
    ) -> Result<(), RegisterError> {
        if !valid_tool_name(&definition.name) {
            return Err(RegisterError::InvalidName(definition.name));
        }
        if !definition.input_schema.is_object() {
            return Err(RegisterError::InvalidDefinition(
                "input_schema must be a JSON Schema object".into(),
            ));
        }
        if self.get(&definition.name).is_some() {
            return Err(RegisterError::Duplicate(definition.name));
        }
        self.tools.push((definition, handler));
        Ok(())
    }

    /// [`ToolRegistry::register`] a tool whose results hosts hand back as they are,
    /// never offloaded or materialized: the read-back tools, whose pages are already
    /// bounded (offloading them would send the model in circles).
    ///
    /// # Errors
    /// As [`ToolRegistry::register`].
    pub fn register_passthrough(
        &mut self,
        definition: ToolDefinition,
        handler: H,
    ) -> Result<(), RegisterError> {
        let name = definition.name.clone();
        self.register(definition, handler)?;
        self.passthrough.push(name);
        Ok(())
    }

    /// Register `definitions` as passthrough tools, all or none.
    pub(crate) fn register_all_passthrough(
        &mut self,
        definitions: impl IntoIterator<Item = ToolDefinition>,
        mut handler: impl FnMut(&str) -> H,
    ) -> Result<(), RegisterError> {
        let definitions: Vec<_> = definitions.into_iter().collect();
        if let Some(taken) = definitions.iter().find(|d| self.get(&d.name).is_some()) {
            return Err(RegisterError::Duplicate(taken.name.clone()));
        }
        for definition in definitions {
            let handler = handler(&definition.name);
            self.register_passthrough(definition, handler)?;
        }
        Ok(())
    }

    /// Whether `name` was registered with [`ToolRegistry::register_passthrough`].
    pub fn is_passthrough(&self, name: &str) -> bool {
        self.passthrough.iter().any(|n| n == name)
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<(&ToolDefinition, &H)> {
        self.tools
            .iter()
            .find(|(d, _)| d.name == name)
            .map(|(d, h)| (d, h))
    }

    /// Every definition, in registration order: the API's `tools` parameter.
    pub fn definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.tools.iter().map(|(d, _)| d)
    }

    /// Run the tool `name` for the `tool_use` with id `tool_use_id`. `call` invokes the
    /// host handler (which never sees the id) and reports a thrown error or panic as
    /// `Err(message)`. Every path returns a result carrying `tool_use_id`: an unknown
    /// name gives `Tool '<name>' not found`, a failure its message, both `is_error`.
    pub async fn execute<F, Fut>(&self, tool_use_id: &str, name: &str, call: F) -> ToolResult
    where
        F: FnOnce(&H) -> Fut,
        Fut: Future<Output = Result<ToolOutput, String>>,
    {
        match self.get(name) {
            Some((_, handler)) => ToolResult::from_outcome(tool_use_id, call(handler).await),
            None => ToolResult::not_found(tool_use_id, name),
        }
    }
}

/// Whether the Anthropic API accepts `name`: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}
