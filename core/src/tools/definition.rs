//! A tool's definition, and the formats a registry lists definitions in.

use serde_json::{Map, Value};

/// A tool as the Anthropic API describes it (the `tools` parameter).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::tools::ToolDefinition;
/// let tool = ToolDefinition::new("get_weather", "Current weather for a city.", json!({
///     "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]
/// }));
/// assert_eq!(tool.to_value()["name"], "get_weather");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// `^[a-zA-Z0-9_-]{1,64}$`, unique in a registry.
    pub name: String,
    /// What the tool does and when to use it: the model reads this.
    pub description: String,
    /// A JSON Schema object describing the tool's input.
    pub input_schema: Value,
}

impl ToolDefinition {
    /// A definition from its three parts.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            input_schema,
        }
    }

    /// `definitions` as `format`'s `tools` array.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::tools::{ToolDefinition, ToolFormat};
    /// let tools = [ToolDefinition::new("ls", "List files.", json!({"type": "object"}))];
    /// assert_eq!(ToolDefinition::all_as(&tools, ToolFormat::Mcp)[0]["name"], "ls");
    /// ```
    pub fn all_as(definitions: &[ToolDefinition], format: ToolFormat) -> Vec<Value> {
        definitions.iter().map(|d| d.to_format(format)).collect()
    }

    /// `{ name, description, input_schema }`, ready for the API's `tools` array.
    pub fn to_value(&self) -> Value {
        self.to_format(ToolFormat::Anthropic)
    }

    /// The definition as an entry of `format`'s `tools` array.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::tools::{ToolDefinition, ToolFormat};
    /// let tool = ToolDefinition::new("ls", "List files.", json!({"type": "object"}));
    /// assert_eq!(
    ///     tool.to_format(ToolFormat::OpenAiChat),
    ///     json!({"type": "function", "function": {"name": "ls", "description": "List files.", "parameters": {"type": "object"}}})
    /// );
    /// assert_eq!(tool.to_format(ToolFormat::Mcp)["inputSchema"], json!({"type": "object"}));
    /// ```
    pub fn to_format(&self, format: ToolFormat) -> Value {
        let mut out = Map::new();
        if matches!(format, ToolFormat::OpenAiResponses) {
            out.insert("type".into(), "function".into());
        }
        out.insert("name".into(), self.name.clone().into());
        out.insert("description".into(), self.description.clone().into());
        let schema_key = match format {
            ToolFormat::Anthropic => "input_schema",
            ToolFormat::Mcp => "inputSchema",
            ToolFormat::OpenAiChat | ToolFormat::OpenAiResponses => "parameters",
        };
        out.insert(schema_key.into(), self.input_schema.clone());
        match format {
            ToolFormat::OpenAiChat => {
                let mut tool = Map::new();
                tool.insert("type".into(), "function".into());
                tool.insert("function".into(), Value::Object(out));
                Value::Object(tool)
            }
            // The Responses API makes function tools strict unless told otherwise, and
            // strict mode refuses ordinary JSON Schemas (optional properties).
            ToolFormat::OpenAiResponses => {
                out.insert("strict".into(), false.into());
                Value::Object(out)
            }
            ToolFormat::Anthropic | ToolFormat::Mcp => Value::Object(out),
        }
    }
}

/// The `tools` formats of the APIs a registry's definitions are handed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ToolFormat {
    /// Anthropic Messages: `{ name, description, input_schema }`.
    #[default]
    Anthropic,
    /// OpenAI Chat Completions: `{ type: "function", function: { name, description, parameters } }`.
    OpenAiChat,
    /// OpenAI Responses: `{ type: "function", name, description, parameters, strict: false }`.
    OpenAiResponses,
    /// Model Context Protocol `tools/list`: `{ name, description, inputSchema }`.
    Mcp,
}

impl ToolFormat {
    /// Every format, by its name: `anthropic`, `openai-chat`, `openai-responses`, `mcp`.
    pub const ALL: [(&'static str, ToolFormat); 4] = [
        ("anthropic", ToolFormat::Anthropic),
        ("openai-chat", ToolFormat::OpenAiChat),
        ("openai-responses", ToolFormat::OpenAiResponses),
        ("mcp", ToolFormat::Mcp),
    ];

    /// The format called `name`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the formats there are.
    ///
    /// ```
    /// use tool_offload_core::tools::ToolFormat;
    /// assert_eq!(ToolFormat::parse("mcp").unwrap(), ToolFormat::Mcp);
    /// assert_eq!(
    ///     ToolFormat::parse("gemini").unwrap_err().to_string(),
    ///     "invalid argument: format must be \"anthropic\", \"openai-chat\", \"openai-responses\" or \"mcp\", got \"gemini\""
    /// );
    /// ```
    pub fn parse(name: &str) -> Result<Self, crate::error::OffloadError> {
        ToolFormat::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, format)| *format)
            .ok_or_else(|| {
                crate::error::OffloadError::InvalidArgument(format!(
                    "format must be \"anthropic\", \"openai-chat\", \"openai-responses\" or \"mcp\", got {name:?}"
                ))
            })
    }
}
