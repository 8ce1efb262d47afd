//! Tools for an agent loop: a registry that executes them, and the TodoWrite/TodoRead
//! pair. This module is teaching material too, so the concepts are spelled out.
//!
//! **How tool use works.** The loop sends the model a list of tool *definitions*
//! (`name`, `description`, `input_schema`). When the model wants a tool it answers with
//! a `tool_use` block `{ id, name, input }`. The loop runs the tool and sends back a
//! `tool_result` block `{ tool_use_id, content, is_error? }` whose `tool_use_id` repeats
//! the `id`: that is how the model pairs each result with its request.
//!
//! **Schema.** `input_schema` is a JSON Schema object. The model uses it to shape its
//! `input`; it is advice, not enforcement, so handlers still validate what they get.
//!
//! **Registration.** [`ToolRegistry::register`] pairs a definition with a *handler*,
//! the host's async function that does the work. Hosts choose the handler type `H`: a
//! JavaScript function in the npm package, an async closure in Rust.
//!
//! **Async execution.** Tools do IO, so handlers are async; [`ToolRegistry::execute`]
//! awaits them and turns every outcome (success, reported error, thrown error) into a
//! `tool_result`, so one failing tool never stops the loop.

mod definition;
mod offload;
mod policy;
mod registry;
mod todo;
pub use definition::{ToolDefinition, ToolFormat};
pub use offload::{ResultOffload, DEFAULT_THRESHOLD_CHARS};
pub use policy::{NoMaterializer, ResultMaterializer, ResultPolicy};
pub use todo::{register_todo_tools, Todo, TodoList, TodoStatus, TODO_READ, TODO_WRITE};

pub use registry::{
    valid_tool_name, Finished, RegisterError, ToolOutput, ToolRegistry, ToolResult,
};
