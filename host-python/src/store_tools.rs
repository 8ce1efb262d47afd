//! Registries and a materializer in an object store. host-tokio's `ToolRegistry` holds a
//! materializer on files (`with_materializer`); for one in a store, this crate
//! materializes a registry's results itself with core's `ResultPolicy` after the registry
//! ran the tool with none (host-tokio's registry applies the same policy the same way).
//! The read and knowledge tools register as on files (`register_tools`).

use std::sync::Arc;

use tool_offload::{Materializer, ObjectStoreIo, OffloadError, TokioFileWriter};

use crate::core_paths::{
    knowledge_tool_definitions, read_tool_definitions, ResultPolicy, ToolResult,
};

/// `result` of tool `name` as a registry materializing through `m` hands it back; the
/// `passthrough` tools' (read and knowledge tools) as they are.
pub(crate) async fn materialized(
    m: &Arc<Materializer<ObjectStoreIo>>,
    result: ToolResult,
    name: &str,
    passthrough: &[String],
) -> Result<ToolResult, OffloadError> {
    let policy: ResultPolicy<TokioFileWriter, _> = ResultPolicy::Materialize(m.clone());
    let skip = passthrough.iter().any(|n| n == name);
    Ok(policy.apply(result, name, skip).await?.result)
}

/// The read tools' names (passthrough in every registry).
pub(crate) fn read_tool_names() -> Vec<String> {
    read_tool_definitions()
        .into_iter()
        .map(|d| d.name)
        .collect()
}

/// The knowledge tools' names (passthrough in every registry).
pub(crate) fn knowledge_tool_names() -> Vec<String> {
    knowledge_tool_definitions()
        .into_iter()
        .map(|d| d.name)
        .collect()
}
