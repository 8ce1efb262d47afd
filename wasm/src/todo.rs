//! `registerTodoTools` for JavaScript: TodoWrite and TodoRead over one in-memory list,
//! with handlers that are ordinary JS functions (so `getTool(...).handler` works).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Function;
use tool_offload_core::tools::{TodoList, ToolOutput};
use wasm_bindgen::prelude::*;

use crate::error::JsOffloadError;
use crate::registry::ToolRegistry;
use crate::view::JsView;

/// Register TodoWrite and TodoRead on `registry`, both over one new in-memory list.
/// Throws `DUPLICATE_TOOL` (registering neither) when either name is taken.
#[wasm_bindgen(js_name = registerTodoTools)]
pub fn register_todo_tools(registry: &ToolRegistry) -> Result<(), JsValue> {
    let list = Rc::new(RefCell::new(TodoList::default()));
    let writes = list.clone();
    let write = handler(move |params| writes.borrow_mut().write(&JsView::new(params)));
    let read = handler(move |_| list.borrow().read());
    registry
        .register_with(|tools| tool_offload_core::tools::register_todo_tools(tools, write, read))
        .map_err(|e| JsOffloadError::from(e).into())
}

/// An async JS function `(params) => Promise<{ content, is_error? }>` running `run`.
fn handler(run: impl Fn(JsValue) -> ToolOutput + 'static) -> Function {
    crate::registry::tool_handler(move |params| {
        let output = run(params);
        Box::pin(async move { output })
    })
}
