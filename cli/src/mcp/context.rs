//! What the proxy and `mcp serve` answer themselves: the read-back tools
//! (`context_read`, `context_tail`, `context_grep`, definitions and behaviour from core)
//! and the artifacts as `ctx://` resources.

use std::sync::Arc;

use rmcp::model::ErrorData;
use serde_json::{json, Value};
use tool_offload::core::materialize::CONTEXT_GREP;
use tool_offload::core::materialize::{CONTEXT_READ, CONTEXT_TAIL};
use tool_offload::core::FileReader;
use tool_offload::tools::ToolFormat;
use tool_offload::Materializer;

/// `resources/read` returns an artifact whole up to this many bytes by default; a
/// larger one comes back as its first numbered page, which says how to read on.
pub const DEFAULT_MAX_RESOURCE_BYTES: u64 = 1 << 20;

/// The artifacts' resource template (as `tool-offload/mcp` registers it).
pub const RESOURCE_TEMPLATE: &str = "ctx://{conversation}/{kind}/{file}";

/// Lines asked for on the first page of a large resource (the page stops earlier at
/// the materializer's inline limit).
const FIRST_PAGE_LINES: usize = 200;

/// The read-back tools and resources over one conversation's artifacts.
pub struct ContextTools {
    /// The conversation's materializer: writes (in the proxy) and reads back.
    pub materializer: Arc<Materializer>,
    /// Largest artifact `resources/read` returns whole.
    pub max_resource_bytes: u64,
}

impl ContextTools {
    /// Whether `name` is one of the read-back tools this side answers.
    pub fn is_context_tool(name: &str) -> bool {
        [CONTEXT_READ, CONTEXT_TAIL, CONTEXT_GREP].contains(&name)
    }

    /// The read-back tools as MCP `Tool` objects (core's definitions, MCP format).
    pub fn tool_definitions(&self) -> Vec<Value> {
        self.materializer.get_tool_definitions_as(ToolFormat::Mcp)
    }

    /// Run a read-back tool: a `CallToolResult` whose single text block is the page, or
    /// the problem with `isError: true` for the model to act on.
    pub async fn call_tool(&self, name: &str, arguments: &Value) -> Value {
        let output = self
            .materializer
            .core()
            .run_read_tool(name, arguments, self.materializer.io())
            .await;
        json!({
            "content": [{ "type": "text", "text": output.content }],
            "isError": output.is_error,
        })
    }

    /// Whether `uri` is a ref this side serves (any `ctx://` URI: refs of other
    /// conversations are refused with a clear error rather than sent upstream).
    pub fn owns_uri(uri: &str) -> bool {
        uri.starts_with("ctx://")
    }

    /// The resource template advertising the artifacts (refs of other conversations
    /// than this one are refused when read).
    pub fn resource_template(&self) -> Value {
        json!({
            "uriTemplate": RESOURCE_TEMPLATE,
            "name": "tool-offload-artifacts",
            "title": "Stored tool outputs",
            "description": "Full tool outputs stored by tool-offload, named by the ctx:// refs in summaries.",
            "mimeType": "text/plain",
        })
    }

    /// `resources/read` of a `ctx://` ref: the artifact's text when it is at most
    /// `max_resource_bytes`, else its first numbered page (whose header says how to
    /// continue with `context_read`).
    ///
    /// # Errors
    /// Invalid params for a ref outside this conversation or malformed; resource not
    /// found for a missing artifact; internal error when reading fails.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, ErrorData> {
        let path = self.materializer.core().resolve_ref(uri).map_err(|err| {
            ErrorData::invalid_params(err.to_string(), Some(json!({ "uri": uri })))
        })?;
        let io = self.materializer.io();
        let missing = || {
            ErrorData::resource_not_found(
                format!("no artifact at {uri}"),
                Some(json!({ "uri": uri })),
            )
        };
        let failed = |err: tool_offload::core::IoError| {
            ErrorData::internal_error(format!("reading {uri}: {}", err.message()), None)
        };
        let size = io.size(&path).await.map_err(failed)?.ok_or_else(missing)?;
        let text = if size <= self.max_resource_bytes {
            io.read_file(&path)
                .await
                .map_err(failed)?
                .ok_or_else(missing)?
        } else {
            self.materializer
                .read(uri, 0, FIRST_PAGE_LINES)
                .await
                .map_err(|err| ErrorData::internal_error(err.to_string(), None))?
        };
        Ok(json!({
            "contents": [{ "uri": uri, "mimeType": mime_type(uri), "text": text }],
        }))
    }
}

/// The MIME type of an artifact, by its ref's extension.
pub fn mime_type(reference: &str) -> &'static str {
    if reference.ends_with(".json") {
        "application/json"
    } else {
        "text/plain"
    }
}
