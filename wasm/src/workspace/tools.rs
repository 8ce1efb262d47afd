//! `registerTools`: the knowledge tools on a JS `ToolRegistry`, run by core.

use std::rc::Rc;

use tool_offload_core::tools::{RegisterError, ToolOutput};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use super::reading;
use crate::convert::to_value;
use crate::registry::{tool_handler, ToolRegistry};

/// Register the five knowledge tools, all or none.
pub(crate) fn register(inner: &Rc<Inner>, registry: &ToolRegistry) -> Result<(), RegisterError> {
    let handler = |name: &str| {
        let (inner, name) = (inner.clone(), name.to_owned());
        tool_handler(move |params| {
            let (inner, name) = (inner.clone(), name.clone());
            Box::pin(async move { run(&inner, &name, &params).await })
        })
    };
    registry.register_with(|tools| {
        tool_offload_core::workspace::register_knowledge_tools(tools, handler)
    })
}

/// One call of a knowledge tool.
async fn run(inner: &Inner, name: &str, params: &JsValue) -> ToolOutput {
    match (to_value(params, "input"), reading(inner)) {
        (Err(error), _) | (_, Err(error)) => ToolOutput::error(error.message()),
        (Ok(input), Ok(io)) => inner.core.run_knowledge_tool(name, &input, &io).await,
    }
}
