//! `registerTools`: the read-back tools on a JS `ToolRegistry`, run by core.

use std::rc::Rc;

use js_sys::Promise;
use tool_offload_core::tools::{RegisterError, ToolOutput};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::convert::field;
use crate::convert::{to_js, to_value};
use crate::promise::spawn;
use crate::registry::ToolRegistry;
use crate::view::has_lone_surrogate;

/// Register `context_read`, `context_tail` and `context_grep`, all or none.
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
    registry
        .register_with(|tools| tool_offload_core::materialize::register_read_tools(tools, handler))
}

/// One call, as the `{ content, is_error? }` a registry handler returns.
async fn run(inner: &Inner, name: &str, params: &JsValue) -> JsValue {
    let reference = field(params, "ref");
    let output = match (to_value(params, "input"), inner.reader.as_ref()) {
        (Err(error), _) => ToolOutput::error(error.message()),
        // No artifact has such a name; as a Rust String (U+FFFD) it could name another's.
        (Ok(input), _) if has_lone_surrogate(&reference) => {
            let lossy = input["ref"].as_str().unwrap_or_default().to_owned();
            ToolOutput::error(OffloadError::RefNotFound(lossy).to_string())
        }
        (_, None) => ToolOutput::error("this Materializer cannot read its artifacts"),
        (Ok(input), Some(reader)) => {
            let reader = reader.fresh();
            inner.core.run_read_tool(name, &input, &reader).await
        }
    };
    let mut result = serde_json::Map::new();
    result.insert("content".into(), output.content.into());
    if output.is_error {
        result.insert("is_error".into(), true.into());
    }
    to_js(&serde_json::Value::Object(result))
}
