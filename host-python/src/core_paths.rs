//! The only items this crate takes from a module path rather than a crate root.
//!
//! The tokio host (`tool_offload`) re-exports most of what a host needs at its root; these
//! it does not (yet), or only inside the `tools` and `json` modules it re-exports from
//! core, and core's modules are being moved. Naming them once, here, keeps a move to one
//! line each. Each is a request for a root re-export in host-tokio (host-python/README.md,
//! "Left").

/// JavaScript's `JSON.stringify`, and lone UTF-16 surrogates in JSON text.
pub(crate) use tool_offload::json::{stringify, LoneSurrogates, LoneView};
/// Tool definitions, formats and outputs of the registry, and its registration errors.
pub(crate) use tool_offload::tools::{RegisterError, ToolDefinition, ToolFormat, ToolOutput};

/// Refs and batch file names still in use, for `gc(keep=…)`.
pub(crate) use tool_offload::core::gc::referenced;
/// The read tools' definitions (a materializer in an object store registers them itself).
#[cfg(feature = "object-store")]
pub(crate) use tool_offload::core::materialize::read_tool_definitions;
/// `materialize(output=bytes)`: a binary output.
pub(crate) use tool_offload::core::materialize::BinaryOutputRef;
/// `read(…, char=)`: where inside a long line a page starts.
pub(crate) use tool_offload::core::materialize::Within;
/// A page's rows when the caller names none (`read`, `tail`, `get_by_lines`).
pub(crate) use tool_offload::core::materialize::DEFAULT_LINES;
/// The keys of the options objects core reads (the npm package's names).
pub(crate) use tool_offload::core::option_keys;
/// Options objects, read once in core.
pub(crate) use tool_offload::core::options::{self, Given};
/// Redaction options: `redact=True` or patterns.
pub(crate) use tool_offload::core::redact::Redaction;
/// `get_by_lines`' last line when none is named.
pub(crate) use tool_offload::core::workspace::default_end_line;
/// The knowledge tools' definitions (their names are passthrough in every registry).
pub(crate) use tool_offload::core::workspace::knowledge_tool_definitions;
/// `Workspace.query_artifacts`' filter, limit and offset.
pub(crate) use tool_offload::core::workspace::{OffloadInfo, Query};
#[cfg(feature = "object-store")]
pub(crate) use tool_offload::tools::{ResultPolicy, ToolResult};
