//! Batch offload: walk a whole conversation and offload every tool result at or over a
//! threshold, naming files so that nothing is ever overwritten within one batch.

mod names;
mod plan;
mod whole;
pub use whole::{
    offload_tool_results, offload_tool_results_through, BatchEdits, BatchOffload, BatchPlan,
};

pub use plan::{Batch, BatchOptions, PlannedMessage, DEFAULT_THRESHOLD};
