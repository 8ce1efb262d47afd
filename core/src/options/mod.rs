//! Options objects from untyped callers (JavaScript, JSON): every product's options
//! read in one place from a [`Given`] value, each wrong value refused in the same
//! words on every host, and shown back as callers gave them.

mod calls;
mod given;
mod leaves;
mod materializer;
mod redaction;
mod tools;
mod workspace;

pub use calls::{
    budget_options, call_options, flag, gc_options, grep_args, page, read_args, result_offload,
    GrepArgs, ReadArgs,
};
pub use given::Given;
pub use leaves::{count, counts, id, optional_count, optional_string, string, working_dir};
pub use materializer::{materializer_options, materializer_options_shown};
pub use redaction::{redaction, redaction_shown};
pub use tools::{tool_limits, tool_limits_shown};
pub use workspace::workspace_options;

#[cfg(test)]
mod tests;
