//! The `Materializer` class for JavaScript: core's materializer with a JS writer, reader
//! and logger.

mod budget;
mod class;
mod conversation;
mod mcp;
pub use mcp::{mcp_resource_template, mime_type_of};
mod options;
mod output;
mod read_back;
mod reads;
mod reminder;
mod tools;
mod types;
pub use budget::estimate_tokens_js;
pub use conversation::{format_legacy_tool_record, import_conversation};

pub use class::Materializer;
