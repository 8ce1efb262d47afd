//! [`Materializer`] for Rust users: core's materializer on tokio, with `regex` for grep.

use std::path::PathBuf;

use tool_offload_core::materialize::{self, MaterializeStats, Materialized, ToolOutputRef};
use tool_offload_core::{json, FileReader, FileWriter, OffloadError, Value};

use crate::{utf8, working_dir_for, TokioFileWriter};

/// Where artifacts go and when outputs go there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterializerOptions {
    /// Root directory; artifacts go under `<user_data>/context/<conversation_id>/artifacts/`.
    pub user_data: PathBuf,
    /// The conversation whose artifacts this materializer writes and may read.
    pub conversation_id: String,
    /// Outputs over this many UTF-16 code units are materialized.
    pub max_inline_chars: usize,
    /// Outputs over this many UTF-8 bytes are materialized.
    pub max_inline_bytes: usize,
    /// Lines of head and of tail in a summary.
    pub snippet_lines: usize,
}

impl MaterializerOptions {
    /// Options with the defaults: 4000 characters, 16384 bytes, 40 lines.
    pub fn new(user_data: impl Into<PathBuf>, conversation_id: impl Into<String>) -> Self {
        let defaults = materialize::MaterializerOptions::new("", "", "/");
        MaterializerOptions {
            user_data: user_data.into(),
            conversation_id: conversation_id.into(),
            max_inline_chars: defaults.max_inline_chars,
            max_inline_bytes: defaults.max_inline_bytes,
            snippet_lines: defaults.snippet_lines,
        }
    }
}

/// One tool output to consider: a string, or any JSON value (written as its
/// `JSON.stringify`).
#[derive(Debug, Clone, Copy)]
pub struct ToolOutput<'a> {
    /// The call's id: names the artifact file.
    pub tool_call_id: &'a str,
    /// The tool's name.
    pub tool_name: &'a str,
    /// The MCP server (or other origin), if any.
    pub server_name: Option<&'a str>,
    /// The output.
    pub output: &'a Value,
}

/// Options of [`Materializer::grep`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrepOptions {
    /// Rows of context around each match (default 2).
    pub context: usize,
    /// Matches shown at most (default 50).
    pub max_matches: usize,
    /// Match case-insensitively.
    pub ignore_case: bool,
}

impl Default for GrepOptions {
    fn default() -> Self {
        GrepOptions {
            context: 2,
            max_matches: 50,
            ignore_case: false,
        }
    }
}

/// Moves tool outputs over the inline limits into artifacts of one conversation and
/// reads them back for the model (see [`tool_offload_core::materialize`]).
///
/// ```no_run
/// use serde_json::json;
/// use tool_offload::{Materializer, MaterializerOptions, ToolOutput};
/// use tool_offload::core::materialize::Materialized;
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let materializer = Materializer::new(MaterializerOptions::new("/var/lib/agent", "conv-1"))?;
/// let log = json!("…a 200 KB build log…");
/// let out = ToolOutput { tool_call_id: "call_1", tool_name: "bash", server_name: None, output: &log };
/// if let Materialized::Artifact { summary, reference, .. } = materializer.materialize(&out).await? {
///     println!("{summary}");
///     println!("{}", materializer.tail(&reference.id, 50).await?);
/// }
/// # Ok(()) }
/// ```
pub struct Materializer<IO = TokioFileWriter> {
    core: materialize::Materializer,
    io: IO,
}

impl Materializer {
    /// A materializer writing and reading with a [`TokioFileWriter`].
    ///
    /// # Errors
    /// `INVALID_ID` for a conversation id that cannot name a directory;
    /// `INVALID_ARGUMENT` for a path that is not UTF-8.
    pub fn new(options: MaterializerOptions) -> Result<Self, OffloadError> {
        Self::with_io(options, TokioFileWriter::new())
    }
}

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// A materializer over any writer-and-reader.
    ///
    /// # Errors
    /// As [`Materializer::new`].
    pub fn with_io(options: MaterializerOptions, io: IO) -> Result<Self, OffloadError> {
        let user_data = utf8(&options.user_data, "user data directory")?;
        let core = materialize::Materializer::new(materialize::MaterializerOptions {
            user_data: user_data.to_owned(),
            conversation_id: options.conversation_id,
            cwd: working_dir_for(user_data)?,
            max_inline_chars: options.max_inline_chars,
            max_inline_bytes: options.max_inline_bytes,
            snippet_lines: options.snippet_lines,
        })?;
        Ok(Materializer { core, io })
    }

    /// Leave the output inline when within both limits; otherwise write it first and
    /// return its summary and ref.
    ///
    /// # Errors
    /// `INVALID_ID`, `WRITE_FAILED`.
    pub async fn materialize(&self, output: &ToolOutput<'_>) -> Result<Materialized, OffloadError> {
        let (text, was_value) = match output.output {
            Value::String(s) => (std::borrow::Cow::Borrowed(s.as_str()), false),
            other => (std::borrow::Cow::Owned(json::stringify(other)), true),
        };
        let out = ToolOutputRef {
            tool_call_id: output.tool_call_id,
            tool_name: output.tool_name,
            server_name: output.server_name,
            text: &text,
            was_value,
        };
        self.core.materialize(&out, &self.io).await
    }

    /// Rows `offset..offset + limit` of an artifact, numbered, within the inline limit.
    ///
    /// # Errors
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn read(
        &self,
        reference: &str,
        offset: usize,
        limit: usize,
    ) -> Result<String, OffloadError> {
        self.core.read(reference, offset, limit, &self.io).await
    }

    /// The last `lines` rows of an artifact.
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn tail(&self, reference: &str, lines: usize) -> Result<String, OffloadError> {
        self.core.tail(reference, lines, &self.io).await
    }

    /// Rows of an artifact matching the regular expression `pattern`, with context.
    ///
    /// # Errors
    /// `INVALID_PATTERN`, and as [`Materializer::read`].
    pub async fn grep(
        &self,
        reference: &str,
        pattern: &str,
        options: GrepOptions,
    ) -> Result<String, OffloadError> {
        let regex = regex::RegexBuilder::new(pattern)
            .case_insensitive(options.ignore_case)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| OffloadError::InvalidPattern {
                pattern: pattern.into(),
                reason: e.to_string(),
            })?;
        self.core
            .grep(
                reference,
                |row| regex.is_match(row),
                options.context,
                options.max_matches,
                &self.io,
            )
            .await
    }

    /// Counts over this materializer's lifetime.
    pub fn stats(&self) -> MaterializeStats {
        self.core.stats()
    }
}
