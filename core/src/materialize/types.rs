//! The Materializer's data: options, the output to consider, refs and outcomes.

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

/// A model's context window, for [`MaterializerOptions::context_window`]: a fresh result
/// in message `i` is materialized when its estimated tokens
/// ([`estimate_tokens`](crate::tokens::estimate_tokens)) exceed `result_share` of what
/// `tokens` leaves free after the messages before it (each counted as its
/// `JSON.stringify`). The messages before a result never grow, so the decision never
/// changes on a later turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextWindow {
    /// The window, in tokens.
    pub tokens: usize,
    /// The share of the free window one inline result may take (0 < share ≤ 1; 0.25 by
    /// default).
    pub result_share: f64,
}

impl ContextWindow {
    /// A window of `tokens` with the default share, a quarter.
    ///
    /// ```
    /// use tool_offload_core::materialize::ContextWindow;
    /// let w = ContextWindow::new(200_000);
    /// assert_eq!((w.tokens, w.result_share), (200_000, 0.25));
    /// assert_eq!(w.limit_after(40_000), 40_000);
    /// assert_eq!(w.limit_after(250_000), 0);
    /// ```
    pub fn new(tokens: usize) -> Self {
        ContextWindow {
            tokens,
            result_share: 0.25,
        }
    }

    /// `INVALID_ARGUMENT` unless `result_share` is over 0 and at most 1.
    ///
    /// ```
    /// use tool_offload_core::materialize::ContextWindow;
    /// let bad = ContextWindow { tokens: 10, result_share: 1.5 };
    /// assert_eq!(bad.check().unwrap_err().to_string(), "invalid argument: contextWindow.resultShare must be a number over 0 and at most 1, got 1.5");
    /// assert!(ContextWindow::new(10).check().is_ok());
    /// ```
    pub fn check(&self) -> Result<(), crate::error::OffloadError> {
        let share = self.result_share;
        if share > 0.0 && share <= 1.0 {
            return Ok(());
        }
        // Printed as JavaScript prints it (std's float formatting would add 10 KB to the
        // wasm for this one message).
        let shown = match serde_json::Number::from_f64(share) {
            Some(n) => crate::json::stringify(&serde_json::Value::Number(n)),
            None if share.is_nan() => "NaN".to_owned(),
            None if share > 0.0 => "Infinity".to_owned(),
            None => "-Infinity".to_owned(),
        };
        Err(crate::error::OffloadError::InvalidArgument(format!(
            "contextWindow.resultShare must be a number over 0 and at most 1, got {shown}"
        )))
    }

    /// The most tokens one inline result may hold after `before` tokens of history.
    pub fn limit_after(&self, before: usize) -> usize {
        (self.tokens.saturating_sub(before) as f64 * self.result_share) as usize
    }
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

/// How a tool output value is stored and measured: a string as is, an array of text
/// parts as the texts it holds ([`crate::message::joined_texts`]), any other value as its
/// `JSON.stringify`; and whether it counts as a JSON value (a `.json` artifact).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::output_text;
/// assert_eq!(output_text(&json!("log")), ("log".into(), false));
/// assert_eq!(output_text(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])), ("a\nb".into(), false));
/// assert_eq!(output_text(&json!({"rows": 2})), (r#"{"rows":2}"#.into(), true));
/// ```
pub fn output_text(output: &serde_json::Value) -> (std::borrow::Cow<'_, str>, bool) {
    use std::borrow::Cow;
    match output {
        serde_json::Value::String(s) => (Cow::Borrowed(s.as_str()), false),
        other => match crate::message::joined_texts(&other) {
            Some(joined) => (Cow::Owned(joined), false),
            None => (Cow::Owned(crate::json::stringify(other)), true),
        },
    }
}

/// One tool output as a Rust host holds it: a JSON value, its text made by
/// [`output_text`]. Hosts that hold the text already (wasm) build a [`ToolOutputRef`].
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
    /// This call's output as core reads it: `text` and `was_value` from [`output_text`].
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

/// What a ref's hint says about its artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefHint {
    /// The tool's name.
    pub tool_name: String,
    /// The MCP server, if any.
    pub server_name: Option<String>,
    /// The call's id.
    pub tool_call_id: String,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// UTF-16 code units.
    pub chars: usize,
    /// Lines.
    pub lines: usize,
    /// Whether the artifact is JSON (`.json`).
    pub is_json: bool,
    /// The secrets `redact` replaced in it, by kind (see
    /// [`Redacted::counts`](crate::redact::Redacted::counts)); empty when none.
    pub redacted: Vec<(String, usize)>,
}

/// A reference to an artifact, readable with [`Materializer::read`](super::materializer::Materializer::read) at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextRef {
    /// `ctx://<conversationId>/tool/<toolCallId>.<ext>`, both ids percent-encoded: UTF-8
    /// bytes outside `A–Z a–z 0–9 - . _ ~ :` as `%XX` (docs/materializer.md, "Refs"), so that any id
    /// survives in text; the file keeps the raw id.
    pub id: String,
    /// What is in it.
    pub hint: RefHint,
}

impl ContextRef {
    /// The ref as every host returns it: `{ kind: "artifact", id, hint: { toolName,
    /// serverName?, toolCallId, bytes, chars, lines, isJson, redacted? } }`.
    ///
    /// ```
    /// use tool_offload_core::materialize::{ContextRef, RefHint};
    /// let hint = RefHint { tool_name: "bash".into(), server_name: None, tool_call_id: "c1".into(),
    ///     bytes: 5, chars: 5, lines: 1, is_json: false, redacted: vec![("aws-key".into(), 2)] };
    /// let reference = ContextRef { id: "ctx://c/tool/c1.txt".into(), hint };
    /// assert_eq!(tool_offload_core::json::stringify(&reference.to_value()),
    ///     r#"{"kind":"artifact","id":"ctx://c/tool/c1.txt","hint":{"toolName":"bash","toolCallId":"c1","bytes":5,"chars":5,"lines":1,"isJson":false,"redacted":{"aws-key":2}}}"#);
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        let mut shown = serde_json::Map::new();
        shown.insert("kind".into(), "artifact".into());
        shown.insert("id".into(), self.id.as_str().into());
        shown.insert("hint".into(), self.hint.to_value());
        shown.into()
    }
}

impl RefHint {
    /// The hint's fields as [`ContextRef::to_value`] shows them.
    pub fn to_value(&self) -> serde_json::Value {
        let mut hint = serde_json::Map::new();
        hint.insert("toolName".into(), self.tool_name.as_str().into());
        if let Some(server) = &self.server_name {
            hint.insert("serverName".into(), server.as_str().into());
        }
        hint.insert("toolCallId".into(), self.tool_call_id.as_str().into());
        hint.insert("bytes".into(), self.bytes.into());
        hint.insert("chars".into(), self.chars.into());
        hint.insert("lines".into(), self.lines.into());
        hint.insert("isJson".into(), self.is_json.into());
        if !self.redacted.is_empty() {
            let counts = self
                .redacted
                .iter()
                .map(|(kind, n)| (kind.clone(), (*n).into()));
            hint.insert("redacted".into(), serde_json::Map::from_iter(counts).into());
        }
        hint.into()
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
}

/// When a tool's outputs are materialized, whatever their size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterializeWhen {
    /// Never: every output stays inline.
    Never,
    /// Always: every output becomes an artifact and its summary.
    Always,
}

/// One tool's entry in [`MaterializerOptions::tools`] (and the Workspace's
/// [`tools`](crate::workspace::WorkspaceOptions::tools)): each field given overrides the
/// `"*"` entry's, which overrides the options' own limits.
///
/// ```
/// use tool_offload_core::materialize::{Materializer, MaterializerOptions, MaterializeWhen, ToolLimits};
/// let mut options = MaterializerOptions::new("/d", "c", "/");
/// options.tools = vec![
///     ("Read".into(), ToolLimits { materialize: Some(MaterializeWhen::Never), ..ToolLimits::default() }),
///     ("*".into(), ToolLimits { max_inline_chars: Some(2000), ..ToolLimits::default() }),
///     ("bash".into(), ToolLimits { max_inline_chars: Some(8000), ..ToolLimits::default() }),
/// ];
/// let m = Materializer::new(options).unwrap();
/// let text = "x".repeat(5000);
/// assert!(!m.exceeds_limits_for("Read", &text));
/// assert!(!m.exceeds_limits_for("bash", &text));
/// assert!(m.exceeds_limits_for("grep", &text)); // "*": 2,000
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolLimits {
    /// Outputs over this many UTF-16 code units are materialized.
    pub max_inline_chars: Option<usize>,
    /// Outputs over this many UTF-8 bytes are materialized.
    pub max_inline_bytes: Option<usize>,
    /// Outputs over this many tokens are materialized: by
    /// [`estimate_tokens`](crate::tokens::estimate_tokens) in a Materializer, by the host's
    /// counter (else its estimate) in a Workspace, where it replaces `token_threshold`.
    pub max_inline_tokens: Option<usize>,
    /// Whatever the size: never, or always.
    pub materialize: Option<MaterializeWhen>,
}

/// The name of the entry that applies to every tool without its own.
pub const ANY_TOOL: &str = "*";
