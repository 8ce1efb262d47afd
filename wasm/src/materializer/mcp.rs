//! `materializeCallToolResult`: an MCP `CallToolResult` through core's rewrite, for
//! `tool-offload/mcp`.

use js_sys::{Object, Promise};
use tool_offload_core::materialize::{
    mime_type, RESOURCE_DESCRIPTION, RESOURCE_NAME, RESOURCE_TEMPLATE, RESOURCE_TITLE,
};
use wasm_bindgen::prelude::*;

use super::options::Inner;
use crate::args::{expect_object, id_arg, optional_string, string_arg};
use crate::convert::{to_js, to_value};
use crate::error::set;
use crate::keys::field;
use crate::promise::spawn_with;

/// The artifacts' MCP resource template, `{ uriTemplate, name, title, description,
/// mimeType }`, as the CLI's MCP proxy advertises it.
#[wasm_bindgen(js_name = mcpResourceTemplate, unchecked_return_type = "McpResourceTemplate")]
pub fn mcp_resource_template() -> JsValue {
    let template: JsValue = Object::new().into();
    for (key, value) in [
        ("uriTemplate", RESOURCE_TEMPLATE),
        ("name", RESOURCE_NAME),
        ("title", RESOURCE_TITLE),
        ("description", RESOURCE_DESCRIPTION),
        ("mimeType", "text/plain"),
    ] {
        set(&template, key, &JsValue::from_str(value));
    }
    template
}

/// The MIME type of the artifact `reference` names: `application/json` for `.json`, else
/// `text/plain`.
#[wasm_bindgen(js_name = mimeType)]
pub fn mime_type_of(reference: &str) -> String {
    mime_type(reference).into()
}

/// `result` with its text and `structuredContent` materialized where over the limits (a
/// new object), or `result` itself when nothing was.
pub(crate) fn materialize_call_tool_result(
    inner: std::rc::Rc<Inner>,
    result: JsValue,
    options: JsValue,
) -> Promise {
    let parsed = (|| {
        expect_object(
            &options,
            "options must be { toolName, callId, serverName? }",
        )?;
        let tool = string_arg(&field(&options, "toolName"), "toolName")?;
        let call_id = id_arg(&field(&options, "callId"), "callId")?;
        let server = optional_string(&options, "serverName", "serverName")?;
        Ok((to_value(&result, "result")?, tool, call_id, server))
    })();
    spawn_with(parsed, |(value, tool, call_id, server)| async move {
        let io = inner.host.io(None);
        let counter = inner.host.counter();
        let count = counter.as_ref().map(crate::count_tokens::JsCounter::boxed);
        let (server, count) = (server.as_deref(), count.as_deref());
        let done = inner
            .core
            .materialize_call_tool_result(&value, &tool, server, &call_id, count, &io)
            .await
            .map_err(|e| {
                JsValue::from(crate::count_tokens::caused(counter.as_ref(), io.error(e)))
            })?;
        Ok(done.map_or(result, |done| to_js(&done)))
    })
}
