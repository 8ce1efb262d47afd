//! The workspace knowledge store: one artifact per tool call (or any knowledge you
//! [`add`](Workspace::add)), a metadata record beside it, queries over the records, and
//! `<knowledge_list>` references in place of oversized results.
//!
//! A workspace is one namespace under a root directory, laid out as a Materializer
//! conversation (so read-back, the line index and export/import are the Materializer's):
//!
//! | file | what |
//! |---|---|
//! | `<root>/context/<namespace>/artifacts/knowledge/<id>.txt` or `.json` | the content, as given |
//! | `<root>/context/<namespace>/records/<id>.json` | the record: `{"id","type","metadata"}`, the source of truth |
//! | `<root>/context/<namespace>/index/knowledge/<id>.<ext>.lines` | the line index of a content over 1 MiB |
//!
//! The record is written last, with the exclusive create: a knowledge artifact exists
//! once its record does, so a crash between the two leaves nothing a query or a read
//! can see (the content file left behind is replaced by the next store of that id).
//!
//! ```
//! use tool_offload_core::workspace::{ToolResultInput, Workspace, WorkspaceOptions};
//! use tool_offload_core::MemoryWriter;
//! let io = MemoryWriter::new();
//! let ws = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
//! let log = "ok\n".repeat(20_000);
//! let input = ToolResultInput::text("call_1", "bash", &log);
//! let done = futures_executor::block_on(ws.offload_tool_result(&input, None, 0.0, &io)).unwrap();
//! assert!(done.offloaded);
//! assert_eq!(done.artifact_id.as_deref(), Some("tool_result_call_1"));
//! assert!(done.content(&log).starts_with("<knowledge_list>\n<knowledge id=\"tool_result_call_1\""));
//! ```

mod bundle;
mod commit;
mod decide;
mod find;
mod index;
mod io_types;
mod knowledge_list;
mod messages;
mod options;
mod query;
mod read;
mod record;
mod record_index;
mod search;
mod store;
mod time;
mod tools;

pub use crate::forms::knowledge_list::{KNOWLEDGE_LIST_CLOSE, KNOWLEDGE_LIST_OPEN};
pub use bundle::{WORKSPACE_BUNDLE_FORMAT, WORKSPACE_BUNDLE_VERSION};
pub use decide::{Decision, DecisionReason};
pub use io_types::{
    Knowledge, KnowledgeInput, Known, Stored, TokenCounter, ToolResultCall, ToolResultInput,
    ToolResultOffload,
};
pub use knowledge_list::is_knowledge_list;
pub use messages::MessagesOffloaded;
pub use options::{
    WorkspaceOptions, DEFAULT_INLINE_LIMIT, DEFAULT_NAMESPACE, DEFAULT_TOKEN_THRESHOLD,
    MIN_INLINE_LIMIT,
};
pub use query::{OffloadInfo, Query, DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT};
pub use read::default_end_line;
pub(crate) use record::add_redacted_fact;
pub use record::{
    parse_json, JsonParser, KnowledgeRecord, KnowledgeType, REDACTED_FACT,
    TOOL_RESULT_CONTEXT_TYPE, TOOL_RESULT_PREFIX,
};
pub use record_index::{IndexFuture, RecordIndex};
pub use store::Workspace;
pub use time::iso8601;
pub use tools::{
    knowledge_tool_definitions, register_knowledge_tools, GET_KNOWLEDGE_BY_ID,
    GET_KNOWLEDGE_BY_LINES, GET_TOOL_RESULT_OFFLOAD_INFO, GREP_KNOWLEDGE, QUERY_ARTIFACTS,
};

#[cfg(test)]
mod collision_tests;
#[cfg(test)]
mod corrupt_tests;
#[cfg(test)]
mod messages_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tools_tests;
