//! The model's read-back tools on a [`ToolRegistry`]: `context_read`, `context_tail`,
//! `context_grep` (definitions and argument checks from core).

use std::sync::Arc;

use tool_offload_core::materialize::{
    read_tool_definitions, summary_ref, Materialized, ToolOutputRef,
};
use tool_offload_core::tools::{RegisterError, ToolOutput, ToolResult};
use tool_offload_core::{FileWriter, OffloadError, Value};

use crate::{Handler, Materializer, ToolRegistry};

impl Materializer {
    /// Register `context_read`, `context_tail` and `context_grep` on `registry`, reading
    /// this materializer's artifacts. Their results are never offloaded or materialized;
    /// a bad argument or ref comes back as an `is_error` result the model can act on.
    ///
    /// # Errors
    /// [`RegisterError::Duplicate`] when a name is taken (then none is registered).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_offload::{Materializer, MaterializerOptions, ToolRegistry};
    /// let materializer = Arc::new(Materializer::new(MaterializerOptions::new("/tmp/agent", "c1")).unwrap());
    /// let mut registry = ToolRegistry::new();
    /// materializer.register_tools(&mut registry).unwrap();
    /// let names: Vec<_> = registry.get_tool_definitions().iter().map(|d| d["name"].clone()).collect();
    /// assert_eq!(names, ["context_read", "context_tail", "context_grep"]);
    /// ```
    pub fn register_tools<W: FileWriter + Send + Sync>(
        self: &Arc<Self>,
        registry: &mut ToolRegistry<W>,
    ) -> Result<(), RegisterError> {
        let definitions = read_tool_definitions();
        if let Some(taken) = definitions
            .iter()
            .find(|d| registry.get_tool(&d.name).is_some())
        {
            return Err(RegisterError::Duplicate(taken.name.clone()));
        }
        for definition in definitions {
            let (materializer, name) = (self.clone(), definition.name.clone());
            let handler: Handler = Arc::new(move |params: Value| {
                let (materializer, name) = (materializer.clone(), name.clone());
                Box::pin(async move { Ok(materializer.run_read_call(&name, &params).await) })
            });
            registry.register_passthrough(definition, handler)?;
        }
        Ok(())
    }

    /// Run one read-back call; every failure is an error result for the model.
    async fn run_read_call(&self, name: &str, params: &Value) -> ToolOutput {
        self.core().run_read_tool(name, params, self.io()).await
    }

    /// The registry middleware: `result` as is when within the limits (or already a
    /// summary), else written out and replaced by its summary, keeping `is_error`.
    pub(crate) async fn materialize_result(
        &self,
        result: ToolResult,
        tool_name: &str,
    ) -> Result<ToolResult, OffloadError> {
        if summary_ref(&result.content).is_some() {
            return Ok(result);
        }
        let output = ToolOutputRef {
            tool_call_id: &result.tool_use_id,
            tool_name,
            server_name: None,
            text: &result.content,
            was_value: false,
        };
        let done = self.core().materialize(&output, self.io()).await?;
        crate::materializer::trace(&done);
        Ok(match done {
            Materialized::Inline => result,
            Materialized::Artifact { summary, .. } => ToolResult {
                content: summary,
                ..result
            },
        })
    }
}
