//! The model's read-back tools: `context_read`, `context_tail`, `context_grep`. Their
//! definitions and argument checks live here so every host registers the same tools;
//! hosts only hand over the call and their reader.

use super::materializer::Materializer;
use crate::grep::pattern::compile_pattern;
use crate::io::{FileLifecycle, FileReader};
use crate::read::tool_args::{
    count, flag, object_schema, optional_string, string, within, Property, DEFAULT_CONTEXT,
    DEFAULT_LINES, DEFAULT_MAX_MATCHES, GREP_ARGS,
};
use crate::read::Within;
use crate::tools::{RegisterError, ToolDefinition, ToolOutput, ToolRegistry};
use serde_json::Value;

/// `context_read`'s name.
pub const CONTEXT_READ: &str = "context_read";
/// `context_tail`'s name.
pub const CONTEXT_TAIL: &str = "context_tail";
/// `context_grep`'s name.
pub const CONTEXT_GREP: &str = "context_grep";

/// A checked call of one of the read-back tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadCall {
    /// `context_read({ ref, offset?, part?, char?, limit?, path? })`.
    Read {
        /// The artifact's ref.
        reference: String,
        /// A JSON path: the page shows what it selects (see
        /// [`Materializer::read_json`]), not the artifact's lines.
        path: Option<String>,
        /// First line, 0-based.
        offset: usize,
        /// Where in that line to start: a part (1-based, for lines split into parts), or
        /// a character offset (`char`, which wins when both are given).
        within: Within,
        /// Lines at most.
        limit: usize,
    },
    /// `context_tail({ ref, lines? })`.
    Tail {
        /// The artifact's ref.
        reference: String,
        /// Rows from the end.
        lines: usize,
    },
    /// `context_grep({ ref, pattern, context?, max_matches?, ignore_case? })`.
    Grep {
        /// The artifact's ref.
        reference: String,
        /// A regular expression.
        pattern: String,
        /// Rows of context around each match.
        context: usize,
        /// Matches shown at most.
        max_matches: usize,
        /// Match case-insensitively.
        ignore_case: bool,
    },
    /// `context_grep({ pattern, context?, max_matches?, ignore_case? })` without a ref:
    /// every artifact of the conversation (see [`Materializer::grep_all`]).
    GrepAll {
        /// A regular expression.
        pattern: String,
        /// Rows of context around each match.
        context: usize,
        /// Matches shown at most, in all.
        max_matches: usize,
        /// Match case-insensitively.
        ignore_case: bool,
    },
}

impl ReadCall {
    /// Check the `input` the model sent to tool `name`.
    ///
    /// # Errors
    /// A message for the model (the host returns it as an `is_error` result) naming the
    /// bad field; `None` for a name that is not one of the three tools.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::ReadCall;
    /// let call = ReadCall::parse("context_tail", &json!({"ref": "ctx://c/tool/x.txt"})).unwrap();
    /// assert_eq!(call, Some(ReadCall::Tail { reference: "ctx://c/tool/x.txt".into(), lines: 200 }));
    /// assert_eq!(
    ///     ReadCall::parse("context_read", &json!({"ref": "r", "offset": -1})).unwrap_err(),
    ///     "offset must be a non-negative integer, got -1"
    /// );
    /// ```
    pub fn parse(name: &str, input: &Value) -> Result<Option<ReadCall>, String> {
        if !matches!(name, CONTEXT_READ | CONTEXT_TAIL | CONTEXT_GREP) {
            return Ok(None);
        }
        if !input.is_object() {
            return Err(format!(
                "{name} input must be an object, got {}",
                crate::json::stringify(input)
            ));
        }
        if name == CONTEXT_GREP && matches!(input.get("ref"), None | Some(Value::Null)) {
            return Ok(Some(ReadCall::GrepAll {
                pattern: string(input, "pattern")?,
                context: count(input, "context", DEFAULT_CONTEXT)?,
                max_matches: count(input, "max_matches", DEFAULT_MAX_MATCHES)?,
                ignore_case: flag(input, "ignore_case")?,
            }));
        }
        let reference = string(input, "ref")?;
        Ok(Some(match name {
            CONTEXT_READ => ReadCall::Read {
                reference,
                path: optional_string(input, "path")?,
                offset: count(input, "offset", 0)?,
                within: within(input)?,
                limit: count(input, "limit", DEFAULT_LINES)?,
            },
            CONTEXT_TAIL => ReadCall::Tail {
                reference,
                lines: count(input, "lines", DEFAULT_LINES)?,
            },
            _ => ReadCall::Grep {
                reference,
                pattern: string(input, "pattern")?,
                context: count(input, "context", DEFAULT_CONTEXT)?,
                max_matches: count(input, "max_matches", DEFAULT_MAX_MATCHES)?,
                ignore_case: flag(input, "ignore_case")?,
            },
        }))
    }
}

impl Materializer {
    /// Run a call of one of the read-back tools for the model: check `input`, read the
    /// page. Every failure (bad argument, ref out of scope or missing, bad pattern,
    /// read error) is an `is_error` output with a message the model can act on.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap();
    /// let input = json!({"ref": "ctx://c1/tool/x.txt", "pattern": "(?=a)"});
    /// let out = futures_executor::block_on(m.run_read_tool("context_grep", &input, &MemoryWriter::new()));
    /// assert!(out.is_error);
    /// assert_eq!(out.content, "invalid pattern \"(?=a)\": look-around is not supported");
    /// ```
    pub async fn run_read_tool<R>(&self, name: &str, input: &Value, reader: &R) -> ToolOutput
    where
        R: FileReader + FileLifecycle + ?Sized,
    {
        let page = match ReadCall::parse(name, input) {
            Err(message) => return ToolOutput::error(message),
            Ok(None) => return ToolOutput::error(format!("{name} is not a read-back tool")),
            Ok(Some(ReadCall::Read {
                reference,
                path,
                offset,
                within,
                limit,
            })) => match path {
                Some(path) => {
                    self.read_json(&reference, &path, offset, within, limit, reader)
                        .await
                }
                None => {
                    self.read_from(&reference, offset, within, limit, reader)
                        .await
                }
            },
            Ok(Some(ReadCall::Tail { reference, lines })) => {
                self.tail(&reference, lines, reader).await
            }
            Ok(Some(ReadCall::Grep {
                reference,
                pattern,
                context,
                max_matches,
                ignore_case,
            })) => match compile_pattern(&pattern, ignore_case) {
                Ok(pattern) => {
                    self.grep(&reference, &pattern, context, max_matches, reader)
                        .await
                }
                Err(error) => Err(error),
            },
            Ok(Some(ReadCall::GrepAll {
                pattern,
                context,
                max_matches,
                ignore_case,
            })) => match compile_pattern(&pattern, ignore_case) {
                Ok(pattern) => self.grep_all(&pattern, context, max_matches, reader).await,
                Err(error) => Err(error),
            },
        };
        match page {
            Ok(page) => ToolOutput::ok(page),
            Err(error) => ToolOutput::error(error.to_string()),
        }
    }
}

/// The three tools' definitions, in the order they are registered.
///
/// ```
/// let names: Vec<_> = tool_offload_core::materialize::read_tool_definitions()
///     .into_iter().map(|d| d.name).collect();
/// assert_eq!(names, ["context_read", "context_tail", "context_grep"]);
/// ```
pub fn read_tool_definitions() -> [ToolDefinition; 3] {
    const REF: Property = (
        "ref",
        "string",
        None,
        "The artifact's ref, as given in the summary: ctx://<conversation>/tool/<file>.",
    );
    [
        ToolDefinition::new(
            CONTEXT_READ,
            "Read numbered lines of a stored tool output (an artifact named in a summary). Returns at most one page; the header says where to continue.",
            object_schema(
                &[
                    REF,
                    ("offset", "integer", Some(0), "First line to show, 0-based (default 0): line 57 is offset 56."),
                    ("part", "integer", Some(1), "For a line over 2000 characters, shown as parts 57.1, 57.2, …: the part to start at (default 1)."),
                    ("char", "integer", Some(0), "Start at this character of the line instead (0-based): a grep window labelled 57.3@4010 starts at offset 56, char 4010."),
                    ("limit", "integer", Some(1), "Lines to show at most (default 200)."),
                    ("path", "string", None, "JSON only: show what this JSONPath selects, e.g. \"$.items[0:5].id\" (offset and limit page through it)."),
                ],
                &["ref"],
            ),
        ),
        ToolDefinition::new(
            CONTEXT_TAIL,
            "Read the last lines of a stored tool output, numbered.",
            object_schema(
                &[REF, ("lines", "integer", Some(1), "Lines from the end (default 200).")],
                &["ref"],
            ),
        ),
        ToolDefinition::new(
            CONTEXT_GREP,
            "Search a stored tool output with a regular expression; returns the numbered matching lines with context. Omit ref to search all of them, newest first.",
            object_schema(
                &[&[("ref", "string", None, "The artifact's ref, as given in the summary (ctx://…); omit it to search every artifact.")], &GREP_ARGS[..]].concat(),
                &["pattern"],
            ),
        ),
    ]
}

/// Register `context_read`, `context_tail` and `context_grep` on `registry` as
/// passthrough tools (their pages are already bounded: never offloaded or materialized
/// again), each with the host handler `handler(name)` gives; all three or none.
///
/// # Errors
/// [`RegisterError::Duplicate`] when a name is taken (then none is registered).
///
/// ```
/// use tool_offload_core::materialize::register_read_tools;
/// use tool_offload_core::tools::ToolRegistry;
/// let mut registry = ToolRegistry::new();
/// register_read_tools(&mut registry, |name| name.to_owned()).unwrap();
/// assert!(registry.is_passthrough("context_grep"));
/// assert!(register_read_tools(&mut registry, |name| name.to_owned()).is_err());
/// ```
pub fn register_read_tools<H>(
    registry: &mut ToolRegistry<H>,
    handler: impl FnMut(&str) -> H,
) -> Result<(), RegisterError> {
    registry.register_all_passthrough(read_tool_definitions(), handler)
}

#[cfg(test)]
#[path = "read_tools_tests.rs"]
mod tests;
