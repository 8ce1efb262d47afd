//! `registerTools`: the read-back tools on a JS `ToolRegistry`, run by core.

use std::rc::Rc;

use tool_offload_core::tools::{RegisterError, ToolOutput};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::convert::to_value;
use crate::keys::field;
use crate::registry::{tool_handler, ToolRegistry};
use crate::view::has_lone_surrogate;

/// Register `context_read`, `context_tail` and `context_grep`, all or none.
pub(crate) fn register(inner: &Rc<Inner>, registry: &ToolRegistry) -> Result<(), RegisterError> {
    let handler = |name: &str| {
        let (inner, name) = (inner.clone(), name.to_owned());
        tool_handler(move |params| {
            let (inner, name) = (inner.clone(), name.clone());
            Box::pin(async move { run(&inner, &name, &params).await })
        })
    };
    registry
        .register_with(|tools| tool_offload_core::materialize::register_read_tools(tools, handler))
}

/// One call of a read-back tool.
async fn run(inner: &Inner, name: &str, params: &JsValue) -> ToolOutput {
    let reference = field(params, "ref");
    match (to_value(params, "input"), inner.host.reader.as_ref()) {
        (Err(error), _) => ToolOutput::error(error.message()),
        // No artifact has such a name; as a Rust String (U+FFFD) it could name another's.
        (Ok(input), _) if has_lone_surrogate(&reference) => {
            let lossy = input
                .get("ref")
                .and_then(|r| r.as_str())
                .unwrap_or_default()
                .to_owned();
            ToolOutput::error(OffloadError::RefNotFound(lossy).to_string())
        }
        (_, None) => ToolOutput::error("this Materializer cannot read its artifacts"),
        (Ok(input), Some(_)) => {
            let io = inner.host.io(None);
            inner.core.run_read_tool(name, &input, &io).await
        }
    }
}
