//! What a summary is made from: one tool output.

/// One tool output to consider.
#[derive(Debug, Clone, Copy)]
pub struct ToolOutputRef<'a> {
    /// The call's id: names the artifact file.
    pub tool_call_id: &'a str,
    /// The tool's name.
    pub tool_name: &'a str,
    /// The MCP server (or other origin), if any.
    pub server_name: Option<&'a str>,
    /// The output as text: a string as is, any other JSON value as its `JSON.stringify`.
    pub text: &'a str,
    /// Whether the output was a JSON value rather than a string.
    pub was_value: bool,
}
