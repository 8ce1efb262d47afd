//! `handle_tool_call` of a materializer in an object store: `context_read`,
//! `context_tail` and `context_grep` on its private registry, registered through the
//! registry's public `register` (host-tokio's `Materializer::register_tools` is for a
//! materializer on files), each run by core's `run_read_tool` over the store.

use std::sync::Arc;

use tool_offload::{Materializer, ObjectStoreIo, ToolRegistry, Value};

use crate::core_paths::{read_tool_definitions, RegisterError};

/// Register the read tools of `m` on `registry` (a plain one: no result policy, so that
/// their being passthrough tools or not makes no difference).
pub(crate) fn read_tools(
    m: &Arc<Materializer<ObjectStoreIo>>,
    registry: &mut ToolRegistry,
) -> Result<(), RegisterError> {
    for definition in read_tool_definitions() {
        let (m, name) = (m.clone(), definition.name.clone());
        registry.register(definition, move |params: Value| {
            let (m, name) = (m.clone(), name.clone());
            async move { Ok(m.core().run_read_tool(&name, &params, m.io()).await) }
        })?;
    }
    Ok(())
}
