//! [`ToolRegistry`]: core's registry with async Rust handlers, panics caught, and
//! optional offloading of large results.

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tool_offload_core::tools::{
    self, RegisterError, ResultOffload, ResultPolicy, TodoList, ToolDefinition, ToolFormat,
    ToolOutput, ToolResult,
};
use tool_offload_core::{FileWriter, OffloadError, Value};

use crate::{materializer::Materializer, writer::TokioFileWriter};

use crate::paths::fill_cwd;

/// What a handler returns: an output (which may itself report `is_error`), or an error
/// whose message becomes an error result.
pub type HandlerResult = Result<ToolOutput, Box<dyn std::error::Error + Send + Sync>>;

/// A registered handler: called with the tool's `input`, never with the `tool_use_id`.
pub type Handler =
    Arc<dyn Fn(Value) -> Pin<Box<dyn Future<Output = HandlerResult> + Send>> + Send + Sync>;

/// The handler maker a product's `register_*_tools` takes: for each tool name, a handler
/// running `run(product, name, input)` (a Materializer's read tools, a Workspace's
/// knowledge tools). Generic, so the `Send` of `run`'s future is shown where the product's
/// IO is concrete.
pub(crate) fn handlers_over<P, F, Fut>(product: &Arc<P>, run: F) -> impl FnMut(&str) -> Handler + '_
where
    P: Send + Sync + 'static,
    F: Fn(Arc<P>, String, Value) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = ToolOutput> + Send + 'static,
{
    move |name: &str| {
        let (product, name, run) = (product.clone(), name.to_owned(), run.clone());
        Arc::new(move |input: Value| {
            let output = run(product.clone(), name.clone(), input);
            Box::pin(async move { Ok(output.await) })
        })
    }
}

/// Tools by name with async handlers; [`execute_tool`](ToolRegistry::execute_tool) turns
/// every outcome — output, returned error, panic, unknown tool — into a `tool_result`.
///
/// ```
/// use serde_json::json;
/// use tool_offload::tools::{ToolDefinition, ToolOutput};
/// use tool_offload::ToolRegistry;
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let mut registry = ToolRegistry::new();
/// let echo = ToolDefinition::new("echo", "Repeat the text.", json!({"type": "object"}));
/// registry.register(echo, |params| async move { Ok(ToolOutput::ok(params["text"].to_string())) }).unwrap();
/// let result = registry.execute_tool("toolu_1", "echo", json!({"text": "hi"})).await.unwrap();
/// assert_eq!(result.content, "\"hi\"");
/// # }
/// ```
pub struct ToolRegistry<W = TokioFileWriter> {
    pub(crate) tools: tools::ToolRegistry<Handler>,
    policy: ResultPolicy<W, Arc<Materializer>>,
}

impl ToolRegistry {
    /// An empty registry without offloading.
    pub fn new() -> Self {
        ToolRegistry {
            tools: tools::ToolRegistry::new(),
            policy: ResultPolicy::Inline,
        }
    }

    /// An empty registry whose results over the materializer's limits are materialized:
    /// the loop gets the summary, the artifact holds the whole output. Results of the
    /// read-back tools ([`Materializer::register_tools`]) are never materialized.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use tool_offload::{Materializer, MaterializerOptions, ToolRegistry};
    /// # fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// let materializer = Arc::new(Materializer::in_dir("/var/lib/agent", "conv-1")?);
    /// let mut registry = ToolRegistry::with_materializer(materializer.clone());
    /// materializer.register_tools(&mut registry)?;
    /// # Ok(()) }
    /// ```
    pub fn with_materializer(materializer: Arc<Materializer>) -> Self {
        ToolRegistry {
            tools: tools::ToolRegistry::new(),
            policy: ResultPolicy::Materialize(materializer),
        }
    }

    /// An empty registry that offloads large results with a [`TokioFileWriter`].
    ///
    /// # Errors
    /// `INVALID_ID` for an unusable session id, `INVALID_ARGUMENT` when a relative
    /// `output_dir` meets an unreadable working directory.
    pub fn with_offload(options: ResultOffload) -> Result<Self, OffloadError> {
        Self::with_offload_writer(options, TokioFileWriter::new())
    }
}

impl Default for ToolRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl<W: FileWriter + Send + Sync> ToolRegistry<W> {
    /// An empty registry that offloads large results through `writer`.
    ///
    /// # Errors
    /// As [`ToolRegistry::with_offload`].
    pub fn with_offload_writer(
        mut options: ResultOffload,
        writer: W,
    ) -> Result<Self, OffloadError> {
        fill_cwd(&mut options.cwd, &options.output_dir)?;
        options.validate()?;
        Ok(ToolRegistry {
            tools: tools::ToolRegistry::new(),
            policy: ResultPolicy::Offload(options, writer),
        })
    }

    /// Register a tool with an async handler.
    ///
    /// # Errors
    /// [`RegisterError`] for a name the API refuses, a duplicate, or a non-object schema.
    pub fn register<F, Fut>(
        &mut self,
        definition: ToolDefinition,
        handler: F,
    ) -> Result<(), RegisterError>
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult> + Send + 'static,
    {
        self.tools.register(
            definition,
            Arc::new(move |params| Box::pin(handler(params))),
        )
    }

    /// The definition and handler of the tool called `name`.
    pub fn get_tool(&self, name: &str) -> Option<(&ToolDefinition, &Handler)> {
        self.tools.get(name)
    }

    /// Every definition, in registration order, as the Anthropic API's `tools` array.
    pub fn get_tool_definitions(&self) -> Vec<Value> {
        self.get_tool_definitions_as(ToolFormat::Anthropic)
    }

    /// Every definition, in registration order, as `format`'s `tools` array.
    ///
    /// ```
    /// use tool_offload::tools::ToolFormat;
    /// let mut registry = tool_offload::ToolRegistry::new();
    /// tool_offload::register_todo_tools(&mut registry).unwrap();
    /// let tools = registry.get_tool_definitions_as(ToolFormat::OpenAiChat);
    /// assert_eq!(tools[0]["function"]["name"], "TodoWrite");
    /// ```
    pub fn get_tool_definitions_as(&self, format: ToolFormat) -> Vec<Value> {
        self.tools
            .definitions()
            .map(|definition| definition.to_format(format))
            .collect()
    }

    /// Run tool `name` with `params` for the `tool_use` `tool_use_id`. Every handler
    /// outcome becomes a result carrying `tool_use_id`; with offloading, a result of at
    /// least the threshold comes back as `[Tool result offloaded to file: …]`; with a
    /// materializer, a result over its limits comes back as its summary.
    ///
    /// # Errors
    /// Only from offloading or materializing: `WRITE_FAILED` (the result is never
    /// silently inlined) or `INVALID_ID` for a `tool_use_id` that cannot name a file.
    pub async fn execute_tool(
        &self,
        tool_use_id: &str,
        name: &str,
        params: Value,
    ) -> Result<ToolResult, OffloadError> {
        let result = self
            .tools
            .execute(tool_use_id, name, |handler| {
                run_handler(handler.clone(), params)
            })
            .await;
        let passthrough = self.tools.is_passthrough(name);
        let finished = self.policy.apply(result, name, passthrough).await?;
        Ok(finished.result)
    }
}

/// Register TodoWrite and TodoRead on `registry`, both over one new in-memory list.
///
/// # Errors
/// [`RegisterError::Duplicate`] when either name is taken (then neither is registered).
pub fn register_todo_tools<W: FileWriter + Send + Sync>(
    registry: &mut ToolRegistry<W>,
) -> Result<(), RegisterError> {
    let list = Arc::new(Mutex::new(TodoList::default()));
    let (writes, reads) = (list.clone(), list);
    let write: Handler = Arc::new(move |params: Value| {
        let output = lock(&writes).write(&&params);
        Box::pin(async move { Ok(output) })
    });
    let read: Handler = Arc::new(move |_| {
        let output = lock(&reads).read();
        Box::pin(async move { Ok(output) })
    });
    tools::register_todo_tools(&mut registry.tools, write, read)
}

fn lock(list: &Mutex<TodoList>) -> std::sync::MutexGuard<'_, TodoList> {
    // TodoList operations never panic midway, so a poisoned list is still consistent.
    list.lock().unwrap_or_else(|e| e.into_inner())
}

/// Call a handler; its error or panic becomes `Err(message)`.
async fn run_handler(handler: Handler, params: Value) -> Result<ToolOutput, String> {
    let future = catch_unwind(AssertUnwindSafe(|| handler(params))).map_err(panic_message)?;
    match CatchUnwind(future).await {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(error)) => Err(error.to_string()),
        Err(panic) => Err(panic_message(panic)),
    }
}

fn panic_message(panic: Box<dyn Any + Send>) -> String {
    match panic.downcast::<String>() {
        Ok(message) => *message,
        Err(panic) => panic
            .downcast_ref::<&str>()
            .map_or_else(|| "tool handler panicked".to_owned(), |s| (*s).to_owned()),
    }
}

/// A future that reports a panic while polling as `Err` instead of unwinding.
struct CatchUnwind<F: ?Sized>(Pin<Box<F>>);

impl<F: Future + ?Sized> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}
