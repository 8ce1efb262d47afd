//! The knowledge tools on a [`ToolRegistry`].

use std::sync::Arc;

use tool_offload_core::tools::{RegisterError, ToolFormat};
use tool_offload_core::workspace::{knowledge_tool_definitions, register_knowledge_tools};
use tool_offload_core::{FileWriter, Value};

use super::Workspace;
use crate::{registry::Handler, registry::ToolRegistry};

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
                let ws = self.clone();
                register_knowledge_tools(&mut registry.tools, |name| {
                    let (ws, name) = (ws.clone(), name.to_owned());
                    let handler: Handler = Arc::new(move |params: Value| {
                        let (ws, name) = (ws.clone(), name.clone());
                        Box::pin(async move {
                            Ok(ws.core.run_knowledge_tool(&name, &params, &ws.io).await)
                        })
                    });
                    handler
                })
            }

            /// The knowledge tools' definitions as the `tools` array of `format`.
            pub fn get_tool_definitions_as(&self, format: ToolFormat) -> Vec<Value> {
                knowledge_tool_definitions()
                    .iter()
                    .map(|definition| definition.to_format(format))
                    .collect()
            }
        }
    };
}

knowledge_tools_over!(crate::writer::TokioFileWriter);
#[cfg(feature = "object-store")]
knowledge_tools_over!(crate::object_store_io::ObjectStoreIo);
