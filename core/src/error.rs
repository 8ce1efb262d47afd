//! The one error type of the core, with stable machine-readable codes.

use crate::io::IoError;

/// Declares [`ErrorCode`] once: the variants, their published strings, [`ErrorCode::ALL`]
/// and the TypeScript union the JS binding emits, so none of them can drift.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $code:literal,)*) => {
        /// Stable, machine-readable error codes. Hosts expose them as `error.code` (JS) and
        /// [`OffloadError::code`] (Rust); they never change meaning once published.
        ///
        /// ```
        /// use tool_offload_core::{ErrorCode, OffloadError};
        /// assert_eq!(OffloadError::NoToolResult.code(), ErrorCode::NoToolResult);
        /// assert_eq!(ErrorCode::NoToolResult.as_str(), "NO_TOOL_RESULT");
        /// assert!(ErrorCode::ALL.contains(&ErrorCode::DuplicateTool));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order they are documented.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The TypeScript declaration of the codes (`export type ErrorCode = | "…"`),
            /// which the wasm binding emits into the package's `.d.ts`.
            pub const TYPESCRIPT: &'static str = concat!(
                "/** Stable codes of `OffloadError`. */\nexport type ErrorCode =",
                $("\n  | \"", $code, "\"",)*
                ";\n"
            );

            /// The code as published to users, e.g. `"WRITE_FAILED"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }
        }
    };
}

error_codes! {
    /// The message holds no `tool_result` block, is not a `role: "tool"` message and
    /// not a `function_call_output` item.
    NoToolResult => "NO_TOOL_RESULT",
    /// Direct offload: every tool result of the message already is a placeholder.
    AlreadyOffloaded => "ALREADY_OFFLOADED",
    /// A tool-call id or session id is missing, not a string, or not a safe file name.
    InvalidId => "INVALID_ID",
    /// The message is not shaped like an Anthropic or OpenAI message.
    InvalidMessage => "INVALID_MESSAGE",
    /// Another argument (output directory, working directory, writer) is unusable.
    InvalidArgument => "INVALID_ARGUMENT",
    /// The injected writer failed.
    WriteFailed => "WRITE_FAILED",
    /// A tool name the API refuses (not `^[a-zA-Z0-9_-]{1,64}$`).
    InvalidToolName => "INVALID_TOOL_NAME",
    /// A tool with this name is already registered.
    DuplicateTool => "DUPLICATE_TOOL",
    /// A tool definition is not `{ name, description, input_schema }` with a schema object.
    InvalidToolDefinition => "INVALID_TOOL_DEFINITION",
    /// A ref names another conversation, or a path outside this conversation's artifacts,
    /// or is malformed (a `%` that starts no valid escape).
    RefOutOfScope => "REF_OUT_OF_SCOPE",
    /// A ref is in scope but no artifact exists there.
    RefNotFound => "REF_NOT_FOUND",
    /// The injected reader failed.
    ReadFailed => "READ_FAILED",
    /// A search pattern is not a valid regular expression.
    InvalidPattern => "INVALID_PATTERN",
    /// A conversation bundle is malformed, fails its SHA-256 check, or names a path
    /// outside the conversation's artifacts.
    InvalidBundle => "INVALID_BUNDLE",
    /// Importing would overwrite a different artifact already on disk.
    ArtifactExists => "ARTIFACT_EXISTS",
    /// The caller cancelled the operation (JavaScript: its `AbortSignal` fired); nothing
    /// is reported as done.
    Aborted => "ABORTED",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything that can go wrong while offloading. Input errors are always reported
/// before anything is written.
///
/// ```
/// use tool_offload_core::OffloadError;
/// let err = OffloadError::InvalidId {
///     field: "tool_use_id".into(),
///     value: Some("../etc".into()),
///     reason: "contains \"/\"",
/// };
/// assert_eq!(err.code().as_str(), "INVALID_ID");
/// assert_eq!(err.to_string(), "invalid tool_use_id \"../etc\": contains \"/\"");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OffloadError {
    /// See [`ErrorCode::NoToolResult`].
    #[error(
        "message has no tool result: expected a \"tool_result\" content block (Anthropic), \
         a message with role \"tool\" (OpenAI Chat) or a \"function_call_output\" item \
         (OpenAI Responses)"
    )]
    NoToolResult,
    /// See [`ErrorCode::AlreadyOffloaded`].
    #[error(
        "message has nothing left to offload: its tool results already are offload placeholders"
    )]
    AlreadyOffloaded,
    /// See [`ErrorCode::InvalidId`]. `field` names where the id came from.
    #[error("invalid {field}{}: {reason}", value.as_ref().map(|v| format!(" {v:?}")).unwrap_or_default())]
    InvalidId {
        /// Where the id was read, e.g. `content[2].tool_use_id` or `sessionId`.
        field: String,
        /// The offending value when it was a string.
        value: Option<String>,
        /// Why it was refused.
        reason: &'static str,
    },
    /// See [`ErrorCode::InvalidMessage`].
    #[error("invalid message: {0}")]
    InvalidMessage(String),
    /// See [`ErrorCode::InvalidArgument`].
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// See [`ErrorCode::RefOutOfScope`].
    #[error("ref {0:?} is outside this conversation's artifacts")]
    RefOutOfScope(String),
    /// A string given as a ref that is no `ctx://` ref at all (after the wrapping a model
    /// adds is taken off: quotes, backticks, brackets, trailing punctuation): code
    /// [`ErrorCode::RefOutOfScope`].
    #[error("not a ctx:// ref: {0:?}")]
    NotARef(String),
    /// A ref with a `%` that starts no valid escape, or escapes that are not UTF-8:
    /// code [`ErrorCode::RefOutOfScope`] too (it names no artifact), with the reason.
    #[error("ref {reference:?} is malformed: {reason}")]
    MalformedRef {
        /// The ref as given.
        reference: String,
        /// What is wrong with it.
        reason: String,
    },
    /// See [`ErrorCode::RefNotFound`].
    #[error("no artifact for ref {0:?}")]
    RefNotFound(String),
    /// Code [`ErrorCode::RefNotFound`] too: the artifact existed and retention
    /// ([`crate::gc::gc`]) removed it.
    #[error("the artifact for ref {0:?} was removed by retention (gc): it can no longer be read")]
    RefRemoved(String),
    /// Code [`ErrorCode::RefNotFound`] too: a workspace has no knowledge artifact with
    /// this id in its namespace.
    #[error("no knowledge artifact {id:?} in namespace {namespace:?}")]
    KnowledgeNotFound {
        /// The id asked for.
        id: String,
        /// The workspace's namespace.
        namespace: String,
    },
    /// See [`ErrorCode::ReadFailed`].
    #[error("failed to read {path}: {source}")]
    ReadFailed {
        /// The file being read.
        path: String,
        /// The reader's error, message preserved.
        #[source]
        source: IoError,
    },
    /// See [`ErrorCode::InvalidPattern`].
    #[error("invalid pattern {}: {reason}", crate::pattern_limit::shown(pattern))]
    InvalidPattern {
        /// The pattern as given (the message shows the start of one over the length limit).
        pattern: String,
        /// Why: over the length limit, or the engine's explanation.
        reason: String,
    },
    /// See [`ErrorCode::InvalidBundle`].
    #[error("invalid bundle: {0}")]
    InvalidBundle(String),
    /// See [`ErrorCode::ArtifactExists`].
    #[error("refusing to overwrite {0}: a different artifact is already there")]
    ArtifactExists(String),
    /// See [`ErrorCode::Aborted`].
    #[error("the operation was aborted")]
    Aborted,
    /// See [`ErrorCode::WriteFailed`]. Carries the path and the writer's own error.
    #[error("failed to write {path}: {source}")]
    WriteFailed {
        /// The file or directory being written.
        path: String,
        /// The writer's error, message preserved.
        #[source]
        source: IoError,
    },
}

impl OffloadError {
    /// The stable code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            OffloadError::NoToolResult => ErrorCode::NoToolResult,
            OffloadError::AlreadyOffloaded => ErrorCode::AlreadyOffloaded,
            OffloadError::InvalidId { .. } => ErrorCode::InvalidId,
            OffloadError::InvalidMessage(_) => ErrorCode::InvalidMessage,
            OffloadError::InvalidArgument(_) => ErrorCode::InvalidArgument,
            OffloadError::WriteFailed { .. } => ErrorCode::WriteFailed,
            OffloadError::RefOutOfScope(_)
            | OffloadError::NotARef(_)
            | OffloadError::MalformedRef { .. } => ErrorCode::RefOutOfScope,
            OffloadError::RefNotFound(_)
            | OffloadError::RefRemoved(_)
            | OffloadError::KnowledgeNotFound { .. } => ErrorCode::RefNotFound,
            OffloadError::ReadFailed { .. } => ErrorCode::ReadFailed,
            OffloadError::InvalidPattern { .. } => ErrorCode::InvalidPattern,
            OffloadError::InvalidBundle(_) => ErrorCode::InvalidBundle,
            OffloadError::ArtifactExists(_) => ErrorCode::ArtifactExists,
            OffloadError::Aborted => ErrorCode::Aborted,
        }
    }
}
