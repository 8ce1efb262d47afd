//! Limits: when an output is too large to stay inline. Per-tool limits and their one
//! precedence rule, for the Materializer and the Workspace alike; the budget's rule for
//! clearing old results from a history.

pub(crate) mod budget;
pub(crate) mod message_budget;
pub(crate) mod tool_limits;
