//! [`WorkspaceOptions`]: where a workspace lives, whom its results belong to, and when
//! they are stored and replaced.

/// The namespace of a workspace created without one.
pub const DEFAULT_NAMESPACE: &str = "default";
/// Contents of at least this many UTF-16 units are replaced by a `<knowledge_list>`.
pub const DEFAULT_INLINE_LIMIT: usize = 40_000;
/// The smallest `inline_limit` accepted: a `<knowledge_list>` needs room for its
/// attributes and a few summary lines.
pub const MIN_INLINE_LIMIT: usize = 2_000;
/// A tool result over this many tokens is stored (offloaded) by default: about 7,000
/// characters of source or prose by [`estimate_tokens`](crate::tokens::estimate_tokens) (5,000 of
/// a log or CSV), under a fifth of the inline limit. Smaller results are cheap to
/// keep in the conversation and rarely worth finding again; larger ones are what an
/// agent later wants to query, page and grep, even while they still fit inline.
pub const DEFAULT_TOKEN_THRESHOLD: usize = 2_000;

/// How a [`Workspace`](super::store::Workspace) stores and replaces.
///
/// ```
/// use tool_offload_core::workspace::WorkspaceOptions;
/// let mut options = WorkspaceOptions::new("/data", "/");
/// options.task_id = Some("task-1".into());
/// assert_eq!(options.namespace, "default");
/// assert_eq!(options.inline_limit, 40_000);
/// ```
#[derive(Debug, Clone)]
pub struct WorkspaceOptions {
    /// Root directory; the namespace lives in `<root>/context/<namespace>/`.
    pub root: String,
    /// The namespace this workspace stores in and reads from (default `"default"`).
    pub namespace: String,
    /// Absolute directory a relative `root` resolves against.
    pub cwd: String,
    /// Recorded as `agent_id` on every tool result.
    pub agent_id: Option<String>,
    /// Recorded as `task_id` on every tool result.
    pub task_id: Option<String>,
    /// Recorded as `session_id` on every tool result.
    pub session_id: Option<String>,
    /// Contents of at least this many UTF-16 units come back as a `<knowledge_list>`
    /// (default [`DEFAULT_INLINE_LIMIT`]); shorter ones come back unchanged.
    pub inline_limit: usize,
    /// Tools whose results are always stored.
    pub offload_tools: Vec<String>,
    /// Per-tool limits by tool name (exact), `"*"` for every tool without its own entry,
    /// as the Materializer's ([`ToolLimits`](crate::limits::tool_limits::ToolLimits)): `never`
    /// or `always` stores, `max_inline_chars`/`max_inline_bytes` store what is over them,
    /// and `max_inline_tokens` replaces `token_threshold`. A tool's own entry comes
    /// before `offload_tools`, the `"*"` entry after it. Empty by default.
    pub tools: Vec<(String, crate::limits::tool_limits::ToolLimits)>,
    /// Results over this many tokens are stored (default [`DEFAULT_TOKEN_THRESHOLD`]).
    pub token_threshold: usize,
    /// Replace well-known secrets by `[REDACTED:<kind>]` before a content is measured,
    /// hashed or written (see [`crate::redact`]). Off by default.
    pub redact: crate::redact::Redaction,
    /// How record files are parsed (default [`parse_json`](super::record::parse_json), serde_json;
    /// the wasm build hands in the engine's `JSON.parse`, so it carries no JSON parser).
    pub parse_json: super::record::JsonParser,
}

impl WorkspaceOptions {
    /// Options with the defaults, and an empty `cwd`: the host fills it in with its
    /// working directory (the tokio host does; core alone needs an absolute `root`
    /// then).
    ///
    /// ```
    /// use tool_offload_core::workspace::WorkspaceOptions;
    /// let options = WorkspaceOptions { task_id: Some("t1".into()), ..WorkspaceOptions::at("/var/lib/agent") };
    /// assert_eq!((options.namespace.as_str(), options.cwd.as_str()), ("default", ""));
    /// ```
    pub fn at(root: impl Into<String>) -> Self {
        Self::new(root, "")
    }

    /// Options with the defaults.
    pub fn new(root: impl Into<String>, cwd: impl Into<String>) -> Self {
        WorkspaceOptions {
            root: root.into(),
            namespace: DEFAULT_NAMESPACE.into(),
            cwd: cwd.into(),
            agent_id: None,
            task_id: None,
            session_id: None,
            inline_limit: DEFAULT_INLINE_LIMIT,
            offload_tools: Vec::new(),
            tools: Vec::new(),
            token_threshold: DEFAULT_TOKEN_THRESHOLD,
            redact: crate::redact::Redaction::off(),
            parse_json: super::record::parse_json,
        }
    }
}
