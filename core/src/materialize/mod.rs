//! Tool output materialization: an output over the inline limits goes to a durable
//! artifact, and the model gets a summary with a reference and ways to read more.

mod materializer;
mod read;
mod summary;
mod text;

pub use materializer::{
    ContextRef, MaterializeStats, Materialized, Materializer, MaterializerOptions, RefHint,
    ToolOutputRef,
};
pub use read::{grep_page, read_page, tail_page};
pub use summary::{summary, SummaryInput};
pub use text::{cut, rows, thousands, Measure, Row, MAX_PREVIEW_CHARS, MAX_ROW_CHARS};
