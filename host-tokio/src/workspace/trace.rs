//! The Workspace's `tracing` events (target `tool_offload::workspace`).

use tool_offload_core::workspace::{self as core_ws, Decision, ToolResultOffload};

/// A `tracing` event per decision and per store (target `tool_offload::workspace`).
pub(super) fn offloaded(call: &str, done: &ToolResultOffload) {
    let context_type = core_ws::TOOL_RESULT_CONTEXT_TYPE;
    match &done.decision {
        None => tracing::debug!(
            target: "tool_offload::workspace",
            context_type, biz_id = call, "already a knowledge list: left as is"
        ),
        Some(Decision {
            offload,
            reason,
            tokens,
        }) => tracing::info!(
            target: "tool_offload::workspace",
            context_type, biz_id = call, offload, reason = reason.as_str(), tokens,
            "offload decision"
        ),
    }
    if let Some(stored) = &done.stored {
        tracing::info!(
            target: "tool_offload::workspace",
            context_type, biz_id = call, id = %stored.record.id, path = %stored.path,
            reused = stored.reused, replaced = done.replacement.is_some(),
            "stored tool result"
        );
    }
}

/// A `warn` per record file a walk left out because it holds no record.
pub(super) fn skipped(skipped: &[(String, String)]) {
    for (id, reason) in skipped {
        tracing::warn!(target: "tool_offload::workspace", id, reason, "record skipped");
    }
}
