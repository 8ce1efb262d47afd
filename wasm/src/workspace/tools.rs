//! `registerTools`: the knowledge tools on a JS `ToolRegistry`, run by core.

use std::rc::Rc;

use js_sys::Promise;
use tool_offload_core::tools::{RegisterError, ToolOutput};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use super::reading;
use crate::convert::{to_js, to_value};
use crate::promise::spawn;
use crate::registry::ToolRegistry;

/// Register the five knowledge tools, all or none.
pub(crate) fn register(inner: &Rc<Inner>, registry: &ToolRegistry) -> Result<(), RegisterError> {
    let handler = |name: &str| -> js_sys::Function {
        let (inner, name) = (inner.clone(), name.to_owned());
        let handler = Closure::<dyn Fn(JsValue) -> Promise>::new(move |params: JsValue| {
            let (inner, name) = (inner.clone(), name.clone());
            spawn(async move { Ok(run(&inner, &name, &params).await) })
        });
        // The closure lives as long as the JS function the registry holds.
        handler.into_js_value().unchecked_into()
    };
    registry.register_with(|tools| {
        tool_offload_core::workspace::register_knowledge_tools(tools, handler)
    })
}

/// One call, as the `{ content, is_error? }` a registry handler returns.
async fn run(inner: &Inner, name: &str, params: &JsValue) -> JsValue {
    let output = match (to_value(params, "input"), reading(inner)) {
        (Err(error), _) | (_, Err(error)) => ToolOutput::error(error.message()),
        (Ok(input), Ok(io)) => inner.core.run_knowledge_tool(name, &input, &io).await,
    };
    let mut result = serde_json::Map::new();
    result.insert("content".into(), output.content.into());
    if output.is_error {
        result.insert("is_error".into(), true.into());
    }
    to_js(&serde_json::Value::Object(result))
}
