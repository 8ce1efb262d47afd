//! The model's read-back tools on a [`ToolRegistry`]: `context_read`, `context_tail`,
//! `context_grep` (definitions and argument checks from core).

use std::sync::Arc;

use tool_offload_core::materialize::{read_tool_definitions, register_read_tools, ToolOutputRef};
use tool_offload_core::tools::{RegisterError, ResultMaterializer, ToolDefinition, ToolFormat};
use tool_offload_core::{FileReader, FileWriter, OffloadError, Value};

use crate::materializer::Materializer;
use crate::registry::{handlers_over, ToolRegistry};

/// The read tools for a materializer over each IO this host offers (one body: the
/// registry's handlers must be `Send`, which only a concrete IO's futures can show).
macro_rules! read_tools_over {
    ($io:ty) => {
        impl Materializer<$io> {
            /// Register `context_read`, `context_tail` and `context_grep` on `registry`, reading
            /// this materializer's artifacts (on files or in an object store). Their results are never offloaded or materialized;
            /// a bad argument or ref comes back as an `is_error` result the model can act on.
            ///
            /// # Errors
            /// [`RegisterError::Duplicate`] when a name is taken (then none is registered).
            ///
            /// ```
            /// use std::sync::Arc;
            /// use tool_offload::{Materializer, MaterializerOptions, ToolRegistry};
            /// let materializer = Arc::new(Materializer::in_dir("/tmp/agent", "c1").unwrap());
            /// let mut registry = ToolRegistry::new();
            /// materializer.register_tools(&mut registry).unwrap();
            /// let names: Vec<_> = registry.get_tool_definitions().iter().map(|d| d["name"].clone()).collect();
            /// assert_eq!(names, ["context_read", "context_tail", "context_grep"]);
            /// ```
            pub fn register_tools<W: FileWriter + Send + Sync>(
                self: &Arc<Self>,
                registry: &mut ToolRegistry<W>,
            ) -> Result<(), RegisterError> {
                register_read_tools(
                    &mut registry.tools,
                    handlers_over(self, |m: Arc<Self>, name, input| async move {
                        m.core().run_read_tool(&name, &input, m.io()).await
                    }),
                )
            }
        }
    };
}

read_tools_over!(crate::writer::TokioFileWriter);
#[cfg(feature = "object-store")]
read_tools_over!(crate::object_store_io::ObjectStoreIo);

impl<IO> Materializer<IO> {
    /// The definitions of `context_read`, `context_tail` and `context_grep`, as the
    /// `tools` array of `format` (for a loop that runs them itself).
    ///
    /// ```
    /// use tool_offload::tools::ToolFormat;
    /// use tool_offload::{Materializer, MaterializerOptions};
    /// let materializer = Materializer::in_dir("/tmp/agent", "c1").unwrap();
    /// let tools = materializer.get_tool_definitions_as(ToolFormat::Mcp);
    /// assert_eq!(tools[2]["name"], "context_grep");
    /// assert!(tools[2]["inputSchema"].is_object());
    /// ```
    pub fn get_tool_definitions_as(&self, format: ToolFormat) -> Vec<Value> {
        ToolDefinition::all_as(&read_tool_definitions(), format)
    }
}

/// The registry's materialize policy: core decides what to materialize, this writes it
/// with the host's IO and traces the outcome.
impl<IO: FileWriter + FileReader + Send + Sync> ResultMaterializer for Materializer<IO> {
    async fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> Result<Option<String>, OffloadError> {
        // The counter is dropped before the await: the future stays `Send`.
        let stored = {
            let counter = self.counter();
            self.core()
                .materialize_counted(output, None, counter.as_deref(), self.io())
        };
        let done = stored.await?;
        crate::materializer::trace(&done);
        Ok(done.into_content())
    }
}
