//! What goes into a [`Workspace`](super::store::Workspace) and what comes out: knowledge and
//! tool results to store, what a host already knows of them, and what was stored.

use super::decide::Decision;
use super::record::{KnowledgeRecord, KnowledgeType};
use crate::sha256::sha256_hex;
use crate::text::measure::Measure;
use serde_json::{Map, Value};

pub use crate::tokens::TokenCounter;

/// Any knowledge to [`Workspace::add`](super::store::Workspace::add).
#[derive(Debug, Clone)]
pub struct KnowledgeInput<'a> {
    /// The artifact id (a safe file name).
    pub id: &'a str,
    /// The content: text as is, or the `JSON.stringify` of a JSON value (`kind` Json).
    pub text: &'a str,
    /// Text or JSON.
    pub kind: KnowledgeType,
    /// Its metadata; `context_type` (a string) says what it is.
    pub metadata: Map<String, Value>,
    /// What the host already knows of `text`.
    pub known: Known,
}

/// What a host already knows of a content, so that the store does not compute it again:
/// a JavaScript string's length is free, and a host may hash faster than core can
/// (Node's `crypto` hashes ~35× faster than SHA-256 compiled to wasm). Trusted as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    /// The length in UTF-16 code units.
    pub chars: Option<usize>,
    /// The SHA-256 of its UTF-8 bytes, lowercase hex.
    pub sha256: Option<String>,
}

/// One tool result to [`Workspace::offload_tool_result`](super::store::Workspace::offload_tool_result).
#[derive(Debug, Clone)]
pub struct ToolResultInput<'a> {
    /// The call's id: the artifact is `tool_result_<tool_call_id>` (`-1`, `-2`… after it
    /// when that id holds another output).
    pub tool_call_id: &'a str,
    /// The tool.
    pub tool_name: &'a str,
    /// The tool's action, for tools with several.
    pub action_name: Option<&'a str>,
    /// The content: a string as is, or the `JSON.stringify` of a non-string (`is_json`).
    pub text: &'a str,
    /// Whether the content was a JSON value rather than a string.
    pub is_json: bool,
    /// More metadata; `offload: true|false` forces the decision and is not stored.
    pub metadata: Map<String, Value>,
    /// What the host already knows of `text`.
    pub known: Known,
}

impl<'a> ToolResultInput<'a> {
    /// A string result with no action and no metadata.
    pub fn text(tool_call_id: &'a str, tool_name: &'a str, text: &'a str) -> Self {
        ToolResultInput {
            tool_call_id,
            tool_name,
            action_name: None,
            text,
            is_json: false,
            metadata: Map::new(),
            known: Known::default(),
        }
    }
}

/// One tool result as a Rust host holds it: a JSON value, its text made by
/// [`output_text`](crate::message::output_text). Hosts that hold the text already
/// (wasm) build a [`ToolResultInput`].
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::output_text;
/// use tool_offload_core::workspace::ToolResultCall;
/// let log = json!("build ok");
/// let call = ToolResultCall { tool_call_id: "c1", tool_name: "bash", action_name: None, content: &log, metadata: None };
/// let (text, is_json) = output_text(call.content);
/// let input = call.with_text(&text, is_json);
/// assert_eq!((input.tool_call_id, input.text, input.is_json), ("c1", "build ok", false));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolResultCall<'a> {
    /// The artifact is `tool_result_<tool_call_id>` (`-1`, `-2`… after it when that id
    /// holds another output).
    pub tool_call_id: &'a str,
    /// Which tool answered.
    pub tool_name: &'a str,
    /// The tool's action, for tools with several.
    pub action_name: Option<&'a str>,
    /// The result.
    pub content: &'a Value,
    /// More metadata (`offload: true|false` forces the decision), or `None`.
    pub metadata: Option<&'a Map<String, Value>>,
}

impl ToolResultCall<'_> {
    /// This result as core reads it: `text` and `is_json` from
    /// [`output_text`](crate::message::output_text), nothing known of it yet.
    pub fn with_text<'t>(&'t self, text: &'t str, is_json: bool) -> ToolResultInput<'t> {
        ToolResultInput {
            tool_call_id: self.tool_call_id,
            tool_name: self.tool_name,
            action_name: self.action_name,
            text,
            is_json,
            metadata: self.metadata.cloned().unwrap_or_default(),
            known: Known::default(),
        }
    }
}

/// A stored knowledge artifact.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// Its record, as on disk.
    pub record: KnowledgeRecord,
    /// The content's absolute path.
    pub path: String,
    /// Whether it was already stored with the same content (nothing was written).
    pub reused: bool,
}

/// What [`Workspace::offload_tool_result`](super::store::Workspace::offload_tool_result) did.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResultOffload {
    /// Whether the result is stored.
    pub offloaded: bool,
    /// The `<knowledge_list>` the model sees instead, when the content is at least
    /// `inline_limit` long; with `redact`, the content with its secrets replaced when it
    /// is shown whole and held any; `None`: the content stays as it is.
    pub replacement: Option<String>,
    /// The artifact id, when stored.
    pub artifact_id: Option<String>,
    /// How it was decided; `None` when the content already was a `<knowledge_list>`.
    pub decision: Option<Decision>,
    /// The store, when one happened.
    pub stored: Option<Stored>,
}

impl ToolResultOffload {
    /// The content the model sees: the replacement, or `original` unchanged.
    pub fn content<'a>(&'a self, original: &'a str) -> &'a str {
        self.replacement.as_deref().unwrap_or(original)
    }
}

/// A knowledge artifact read back whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Knowledge {
    /// Its record.
    pub record: KnowledgeRecord,
    /// Its content.
    pub content: String,
}

/// A content to store, measured and hashed once (by the host when it knows how).
pub(super) struct Content<'a> {
    pub text: &'a str,
    pub kind: KnowledgeType,
    pub measure: Measure,
    pub sha256: String,
}

impl<'a> Content<'a> {
    pub(super) fn new(text: &'a str, kind: KnowledgeType, known: &Known) -> Self {
        Content {
            text,
            kind,
            measure: match known.chars {
                Some(chars) => Measure::with_chars(text, chars),
                None => Measure::of(text),
            },
            sha256: known.sha256.clone().unwrap_or_else(|| sha256_hex(text)),
        }
    }
}
