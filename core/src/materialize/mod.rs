//! Tool output materialization: an output over the inline limits goes to a durable
//! artifact, and the model gets a summary with a reference and ways to read more.

mod binary;
mod budget;
pub use crate::forms::pointer::{
    cleared_page_pointer, cleared_parts, cleared_pointer, is_cleared, CLEARED_PREFIX,
};
pub use crate::limits::budget::{BudgetOptions, Budgeted, Cleared};
pub use crate::read::artifacts::BINARY_EXTENSION;
pub use binary::BinaryOutputRef;
mod bundle;
mod bundle_content;
pub use crate::sha256::sha256_hex;
pub use crate::summary::detect;
mod grep_all;
mod json_read;
mod legacy;
mod limits;
mod materializer;
mod mcp;
mod message_budget;
mod messages;
mod place;
mod read_back;
pub(crate) mod read_tools;
pub(crate) mod ref_scan;
mod registry;
mod resolve;
mod store;
pub use crate::forms::reference::{
    artifact_ref, clean_ref, ref_conversation, MAX_REF_SEGMENT_CHARS,
};
mod types;

pub use crate::forms::context_ref::{ContextRef, RefHint};
pub use crate::forms::page::is_read_back_page;
pub use crate::forms::reference::ArtifactKind;
pub use crate::forms::summary_header::{summary_parts, summary_ref, SummaryParts, POINTER_PREFIX};
pub use crate::grep::pattern::{compile_pattern, Pattern, MAX_COMPILED_BYTES};
pub use crate::limits::message_budget::ContextWindow;
pub use crate::limits::tool_limits::{MaterializeWhen, ToolLimits, ANY_TOOL};
pub use crate::message::output_text;
pub use crate::pattern_limit::MAX_PATTERN_CHARS;
pub use crate::read::artifacts::CACHED_INDEXES;
pub use crate::read::line_index::INDEX_STEP;
pub use crate::read::naming::{continuation, Continuation};
pub use crate::read::page::MIN_PAGE_CHARS;
pub use crate::read::tool_args::{DEFAULT_CONTEXT, DEFAULT_LINES, DEFAULT_MAX_MATCHES};
pub use crate::read::{grep_page, read_page, tail_page, Within};
pub use crate::summary::binary_unstored;
pub use crate::summary::ToolOutputRef;
pub use crate::summary::{summary, SummaryInput, DEFAULT_GREP_PATTERN};
pub use crate::summary::{MAX_EXCERPTS, MAX_OUTLINE};
pub use crate::text::measure::{count, cut, rows, Measure, Row, MAX_PREVIEW_CHARS, MAX_ROW_CHARS};
pub use crate::text::plain::plain;
pub use crate::text::thousands;
pub use bundle::{import_conversation, ImportedConversation, BUNDLE_FORMAT, BUNDLE_VERSION};
pub use json_read::MAX_JSON_PATH_BYTES;
pub use legacy::{format_legacy_tool_record, LegacyToolRecord};
pub use materializer::Materializer;
pub use mcp::{
    call_tool_result_text, mime_type, RESOURCE_DESCRIPTION, RESOURCE_NAME, RESOURCE_TEMPLATE,
    RESOURCE_TITLE,
};
pub use messages::MessagesMaterialized;
pub use read_tools::{
    read_tool_definitions, register_read_tools, ReadCall, CONTEXT_GREP, CONTEXT_READ, CONTEXT_TAIL,
};
pub use types::{MaterializeStats, Materialized, MaterializerOptions, ToolOutputInput};
