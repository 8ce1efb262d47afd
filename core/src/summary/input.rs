//! What a summary is made from: one tool output, its ref and how it is measured.

use crate::forms::reference::ArtifactKind;
use crate::text::measure::Measure;

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

/// What a summary describes.
#[derive(Debug, Clone, Copy)]
pub struct SummaryInput<'a> {
    /// The ref to read the artifact back with.
    pub reference: &'a str,
    /// The tool output: call id, tool, server, full text.
    pub output: ToolOutputRef<'a>,
    /// A tool call's output, or a terminal snippet (then `output.tool_call_id` is the
    /// snippet id).
    pub kind: ArtifactKind,
    /// Its sizes.
    pub measure: Measure,
    /// Whether it is JSON.
    pub is_json: bool,
    /// Lines of head and of tail to show at most.
    pub snippet_lines: usize,
    /// UTF-8 bytes of head and of tail to show at most (each line as shown, newline
    /// included), if a byte budget is set as well.
    pub snippet_bytes: Option<usize>,
    /// The summary stays strictly under this many UTF-16 units.
    pub max_chars: usize,
    /// Where an end this output shares with an earlier output of the conversation starts
    /// (a byte offset at a line start; see `materialize_messages`): named in one line,
    /// not shown, unless it holds a failure line. `None` for an output seen alone.
    pub repeated_end: Option<usize>,
}
