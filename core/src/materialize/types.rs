//! The Materializer's data: options, the output to consider, refs and outcomes.

use crate::forms::context_ref::ContextRef;
use crate::limits::message_budget::ContextWindow;
use crate::limits::tool_limits::ToolLimits;
use crate::summary::ToolOutputRef;

/// Where artifacts live and when outputs go there.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterializerOptions {
    /// Root directory; artifacts go under `<user_data>/context/<conversation_id>/artifacts/`.
    pub user_data: String,
    /// The conversation whose artifacts this materializer writes and may read.
    pub conversation_id: String,
    /// Absolute directory a relative `user_data` resolves against.
    pub cwd: String,
    /// Outputs over this many UTF-16 code units are materialized (default 4000).
    pub max_inline_chars: usize,
    /// Outputs over this many UTF-8 bytes are materialized (default 16384).
    pub max_inline_bytes: usize,
    /// Lines of head and of tail in a summary (default 40).
    pub snippet_lines: usize,
    /// Optionally also a byte budget for head and for tail (e.g. 2048), lines as shown.
    pub snippet_bytes: Option<usize>,
    /// The output directory of direct or batch offload, if they run beside this
    /// materializer: then the read-back also reads the files their placeholders name
    /// (`./tool-result-<id>.md`, `<dir>/<session>/<id>.md`), and nothing else there.
    pub offload_dir: Option<String>,
    /// Per-tool limits by tool name (exact), `"*"` for every tool without its own entry
    /// (see [`ToolLimits`]). Empty: every tool has the limits above.
    pub tools: Vec<(String, ToolLimits)>,
    /// Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
    /// passwords in assignments and URLs) by `[REDACTED:<kind>]` before an output is
    /// written or summarised (see [`crate::redact`]). Off by default.
    pub redact: crate::redact::Redaction,
    /// When the fresh results of one message (within their limits, not yet summaries)
    /// together hold more UTF-16 units than this, `materialize_messages` materializes the
    /// largest first until the rest fit (Claude Code uses 200,000). Off by default.
    pub message_budget_chars: Option<usize>,
    /// The model's window: in `materialize_messages`, a result is materialized when its
    /// estimated tokens exceed a share of what the messages before it leave free. Off by
    /// default.
    pub context_window: Option<ContextWindow>,
}

impl MaterializerOptions {
    /// Options with the defaults, and an empty `cwd`: the host fills it in with its
    /// working directory (the tokio host does; core alone needs an absolute
    /// `user_data` then).
    ///
    /// ```
    /// use tool_offload_core::materialize::MaterializerOptions;
    /// let options = MaterializerOptions { max_inline_chars: 8_000, ..MaterializerOptions::at("/var/lib/agent", "conv-1") };
    /// assert_eq!((options.cwd.as_str(), options.max_inline_bytes), ("", 16384));
    /// ```
    pub fn at(user_data: impl Into<String>, conversation_id: impl Into<String>) -> Self {
        Self::new(user_data, conversation_id, "")
    }

    /// Options with the defaults.
    pub fn new(
        user_data: impl Into<String>,
        conversation_id: impl Into<String>,
        cwd: impl Into<String>,
    ) -> Self {
        MaterializerOptions {
            user_data: user_data.into(),
            conversation_id: conversation_id.into(),
            cwd: cwd.into(),
            max_inline_chars: 4000,
            max_inline_bytes: 16384,
            snippet_lines: 40,
            snippet_bytes: None,
            offload_dir: None,
            tools: Vec::new(),
            redact: crate::redact::Redaction::off(),
            message_budget_chars: None,
            context_window: None,
        }
    }
}

/// One tool output as a Rust host holds it: a JSON value, its text made by
/// [`output_text`](crate::message::output_text). Hosts that hold the text already (wasm) build a [`ToolOutputRef`].
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::{output_text, ToolOutputInput};
/// let rows = json!({"rows": 2});
/// let input = ToolOutputInput { tool_call_id: "call_1", tool_name: "sql", server_name: None, output: &rows };
/// let (text, was_value) = output_text(input.output);
/// let out = input.with_text(&text, was_value);
/// assert_eq!((out.tool_call_id, out.text, out.was_value), ("call_1", r#"{"rows":2}"#, true));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolOutputInput<'a> {
    /// The id the artifact file is named by.
    pub tool_call_id: &'a str,
    /// Which tool answered.
    pub tool_name: &'a str,
    /// Its MCP server, when it came through one.
    pub server_name: Option<&'a str>,
    /// The output.
    pub output: &'a serde_json::Value,
}

impl ToolOutputInput<'_> {
    /// This call's output as core reads it: `text` and `was_value` from [`output_text`](crate::message::output_text).
    pub fn with_text<'t>(&'t self, text: &'t str, was_value: bool) -> ToolOutputRef<'t> {
        ToolOutputRef {
            tool_call_id: self.tool_call_id,
            tool_name: self.tool_name,
            server_name: self.server_name,
            text,
            was_value,
        }
    }
}

/// The outcome of [`Materializer::materialize`](super::materializer::Materializer::materialize).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Materialized {
    /// Within both limits: use the output as it is.
    Inline,
    /// Within both limits, but `redact` replaced secrets in it: give the model `content`
    /// (the output's text, redacted) instead of the output.
    Redacted {
        /// The output's text with its secrets replaced.
        content: String,
    },
    /// Written to an artifact: give the model `summary` instead.
    Artifact {
        /// Text for the model, pointer first.
        summary: String,
        /// How to read it back.
        reference: ContextRef,
        /// Absolute path of the artifact.
        path: String,
    },
}

impl Materialized {
    /// The text the model gets instead of the output, if any: a summary, or the
    /// redacted text.
    ///
    /// ```
    /// use tool_offload_core::materialize::Materialized;
    /// assert_eq!(Materialized::Inline.into_content(), None);
    /// assert_eq!(Materialized::Redacted { content: "x".into() }.into_content().as_deref(), Some("x"));
    /// ```
    pub fn into_content(self) -> Option<String> {
        match self {
            Materialized::Inline => None,
            Materialized::Redacted { content } => Some(content),
            Materialized::Artifact { summary, .. } => Some(summary),
        }
    }
}

/// Counts over a materializer's lifetime.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MaterializeStats {
    /// Outputs materialized.
    pub hits: u64,
    /// Outputs left inline.
    pub inlined: u64,
    /// UTF-16 units kept out of the conversation: Σ (output − summary).
    pub saved_chars: u64,
}

impl MaterializeStats {
    /// `saved_chars / hits`, 0 without hits.
    pub fn avg_saved_chars(&self) -> f64 {
        if self.hits == 0 {
            0.0
        } else {
            self.saved_chars as f64 / self.hits as f64
        }
    }

    /// The counts as every host returns them: `{ hits, inlined, savedChars,
    /// avgSavedChars }`.
    ///
    /// ```
    /// use tool_offload_core::materialize::MaterializeStats;
    /// let stats = MaterializeStats { hits: 2, inlined: 1, saved_chars: 5 };
    /// let shown = serde_json::json!({ "hits": 2, "inlined": 1, "savedChars": 5, "avgSavedChars": 2.5 });
    /// assert_eq!(stats.to_value(), shown);
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        let mut shown = serde_json::Map::new();
        shown.insert("hits".into(), self.hits.into());
        shown.insert("inlined".into(), self.inlined.into());
        shown.insert("savedChars".into(), self.saved_chars.into());
        shown.insert("avgSavedChars".into(), self.avg_saved_chars().into());
        shown.into()
    }
}
