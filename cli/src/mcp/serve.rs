//! `tool-offload mcp serve`: an rmcp server on stdio offering only the read-back tools
//! and the `ctx://` resources over a conversation's existing artifacts.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourceTemplatesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::context::ContextTools;
use crate::error::CliError;

/// The read-back side as an rmcp [`ServerHandler`].
struct ReadBackServer {
    context: Arc<ContextTools>,
}

/// A JSON value built by [`ContextTools`] as an rmcp model type.
fn typed<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|err| ErrorData::internal_error(err.to_string(), None))
}

impl ServerHandler for ReadBackServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities =
            serde_json::from_value(json!({ "tools": {}, "resources": {} })).unwrap_or_default();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(
                "tool-offload",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Reads tool outputs stored by tool-offload: pass a ctx:// ref to context_read, \
                 context_tail or context_grep, or read it as a resource.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        typed(json!({ "tools": self.context.tool_definitions() }))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !ContextTools::is_context_tool(&request.name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        }
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let result = self.context.call_tool(&request.name, &arguments).await;
        Ok(CallToolResponse::Complete(typed(result)?))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        typed(json!({ "resourceTemplates": [self.context.resource_template()] }))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let result = self.context.read_resource(&request.uri).await?;
        Ok(ReadResourceResponse::Complete(typed(result)?))
    }
}

/// Serve `context` on stdin/stdout until the client closes its end.
pub async fn serve(context: Arc<ContextTools>) -> Result<(), CliError> {
    let running = ReadBackServer { context }
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|err| CliError::failure(format!("mcp serve: {err}")))?;
    running
        .waiting()
        .await
        .map_err(|err| CliError::failure(format!("mcp serve: {err}")))?;
    Ok(())
}
