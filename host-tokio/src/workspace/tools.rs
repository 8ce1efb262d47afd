//! The knowledge tools on a [`ToolRegistry`].

use std::sync::Arc;

use tool_offload_core::tools::{RegisterError, ToolDefinition, ToolFormat};
use tool_offload_core::workspace::{knowledge_tool_definitions, register_knowledge_tools};
use tool_offload_core::{FileWriter, Value};

use super::Workspace;
use crate::registry::{handlers_over, ToolRegistry};

/// The knowledge tools for a workspace over each IO this host offers (one body, as the
/// read tools').
macro_rules! knowledge_tools_over {
    ($io:ty) => {
        impl Workspace<$io> {
            /// Register `get_knowledge_by_id`, `get_knowledge_by_lines`, `grep_knowledge`,
            /// `query_artifacts` and `get_tool_result_offload_info` on `registry`, over this
            /// workspace (on files or in an object store). Their results are bounded and never offloaded; a bad argument or id
            /// comes back as an `is_error` result naming the problem.
            ///
            /// # Errors
            /// [`RegisterError::Duplicate`] when a name is taken (then none is registered).
            ///
            /// ```
            /// use std::sync::Arc;
            /// use tool_offload::{ToolRegistry, Workspace, WorkspaceOptions};
            /// let ws = Arc::new(Workspace::in_dir("/tmp/agent-ws").unwrap());
            /// let mut registry = ToolRegistry::new();
            /// ws.register_tools(&mut registry).unwrap();
            /// assert_eq!(registry.get_tool_definitions()[2]["name"], "grep_knowledge");
            /// ```
            pub fn register_tools<W: FileWriter + Send + Sync>(
                self: &Arc<Self>,
                registry: &mut ToolRegistry<W>,
            ) -> Result<(), RegisterError> {
                register_knowledge_tools(
                    &mut registry.tools,
                    handlers_over(self, |ws: Arc<Self>, name, input| async move {
                        ws.core.run_knowledge_tool(&name, &input, &ws.io).await
                    }),
                )
            }
        }
    };
}

knowledge_tools_over!(crate::writer::TokioFileWriter);
#[cfg(feature = "object-store")]
knowledge_tools_over!(crate::object_store_io::ObjectStoreIo);

impl<IO> Workspace<IO> {
    /// The knowledge tools' definitions as the `tools` array of `format` (for a loop that
    /// runs them itself).
    ///
    /// ```
    /// use tool_offload::tools::ToolFormat;
    /// let ws = tool_offload::Workspace::in_dir("/tmp/agent-ws").unwrap();
    /// assert_eq!(ws.get_tool_definitions_as(ToolFormat::Mcp)[2]["name"], "grep_knowledge");
    /// ```
    pub fn get_tool_definitions_as(&self, format: ToolFormat) -> Vec<Value> {
        ToolDefinition::all_as(&knowledge_tool_definitions(), format)
    }
}
