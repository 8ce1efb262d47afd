//! The summary the model reads instead of a materialized output: the pointer, sizes,
//! the failure first (the likely root cause and the other error lines, with context),
//! then head and tail, and a `context_grep` hint that finds what was detected.

mod binary;
mod body;
mod compose;
mod definitions;
pub mod detect;
#[cfg(test)]
mod document_tests;
mod format;
#[cfg(test)]
mod format_tests;
mod input;
mod layout;
mod lines;
mod names;
mod outline;
mod plan;
mod repeats;
#[cfg(test)]
mod tests;
mod trailer;
pub(crate) use binary::binary_summary;
pub use binary::binary_unstored;
pub(crate) use format::magic;
pub use input::ToolOutputRef;
pub use layout::{MAX_EXCERPTS, MAX_OUTLINE};
pub(crate) use repeats::repeated_ends;

pub(crate) use compose::framed_summary;
pub use compose::{summary, DEFAULT_GREP_PATTERN};
pub use input::SummaryInput;
