//! Registries and a materializer or workspace in an object store. host-tokio's
//! `ToolRegistry` holds a materializer on files (`with_materializer`), and
//! `Materializer::register_tools`/`Workspace::register_tools` are for those on files; for
//! one in a store, this crate registers the same tools through the registry's public
//! `register` (all or none, as core's `register_all`), each run by core's
//! `run_read_tool`/`run_knowledge_tool` over the store, and materializes a registry's
//! results itself with core's `ResultPolicy` after the registry ran the tool with none
//! (host-tokio's registry applies the same policy the same way).

use std::sync::Arc;

use tool_offload::{
    FileWriter, Materializer, ObjectStoreIo, OffloadError, TokioFileWriter, ToolRegistry, Value,
    Workspace,
};

use crate::core_paths::{
    knowledge_tool_definitions, read_tool_definitions, RegisterError, ResultMaterializer,
    ResultPolicy, ToolDefinition, ToolOutput, ToolOutputRef, ToolResult,
};

/// A materializer in an object store as a registry's result policy: what host-tokio's
/// `impl ResultMaterializer for Materializer` does (its token counter, core's
/// `materialize_counted`), over the store.
pub(crate) struct StoreMaterializer<'a>(pub(crate) &'a Materializer<ObjectStoreIo>);

impl ResultMaterializer for StoreMaterializer<'_> {
    async fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> Result<Option<String>, OffloadError> {
        let m = self.0;
        let stored = {
            let counter = m.counter();
            m.core()
                .materialize_counted(output, None, counter.as_deref(), m.io())
        };
        Ok(stored.await?.into_content())
    }
}

/// `result` of tool `name` as a registry materializing through `m` hands it back; the
/// `passthrough` tools' (read and knowledge tools) as they are.
pub(crate) async fn materialized(
    m: &Materializer<ObjectStoreIo>,
    result: ToolResult,
    name: &str,
    passthrough: &[String],
) -> Result<ToolResult, OffloadError> {
    let policy: ResultPolicy<TokioFileWriter, _> = ResultPolicy::Materialize(StoreMaterializer(m));
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

/// Register `definitions` on `registry`, all or none, each run by `run(name, params)`.
fn register_all<W, F, Fut>(
    registry: &mut ToolRegistry<W>,
    definitions: impl IntoIterator<Item = ToolDefinition>,
    run: F,
) -> Result<(), RegisterError>
where
    W: FileWriter + Send + Sync,
    F: Fn(String, Value) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = ToolOutput> + Send + 'static,
{
    let definitions: Vec<_> = definitions.into_iter().collect();
    if let Some(taken) = definitions
        .iter()
        .find(|d| registry.get_tool(&d.name).is_some())
    {
        return Err(RegisterError::Duplicate(taken.name.clone()));
    }
    for definition in definitions {
        let (run, name) = (run.clone(), definition.name.clone());
        registry.register(definition, move |params: Value| {
            let output = run(name.clone(), params);
            async move { Ok(output.await) }
        })?;
    }
    Ok(())
}

/// `context_read`, `context_tail` and `context_grep` over `m` on `registry`.
pub(crate) fn read_tools<W: FileWriter + Send + Sync>(
    m: &Arc<Materializer<ObjectStoreIo>>,
    registry: &mut ToolRegistry<W>,
) -> Result<(), RegisterError> {
    let m = m.clone();
    register_all(registry, read_tool_definitions(), move |name, params| {
        let m = m.clone();
        async move { m.core().run_read_tool(&name, &params, m.io()).await }
    })
}

/// The knowledge tools over `ws` on `registry`.
pub(crate) fn knowledge_tools<W: FileWriter + Send + Sync>(
    ws: &Arc<Workspace<ObjectStoreIo>>,
    registry: &mut ToolRegistry<W>,
) -> Result<(), RegisterError> {
    let ws = ws.clone();
    register_all(
        registry,
        knowledge_tool_definitions(),
        move |name, params| {
            let ws = ws.clone();
            async move { ws.core().run_knowledge_tool(&name, &params, ws.io()).await }
        },
    )
}
