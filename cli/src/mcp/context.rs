//! What the proxy and `mcp serve` answer themselves: the read-back tools
//! (`context_read`, `context_tail`, `context_grep`, definitions and behaviour from core)
//! and the artifacts as `ctx://` resources.

use std::sync::Arc;

use rmcp::model::ErrorData;
use serde_json::{json, Value};
use tool_offload::core::materialize::CONTEXT_GREP;
use tool_offload::core::materialize::{
    mime_type, CONTEXT_READ, CONTEXT_TAIL, RESOURCE_DESCRIPTION, RESOURCE_NAME, RESOURCE_TEMPLATE,
    RESOURCE_TITLE,
};
use tool_offload::core::FileReader;
use tool_offload::tools::ToolFormat;
use tool_offload::{Materializer, OffloadError};

use crate::location::LocationIo;

/// `resources/read` returns an artifact whole up to this many bytes by default; a
/// larger one comes back as its first numbered page, which says how to read on.
pub const DEFAULT_MAX_RESOURCE_BYTES: u64 = 1 << 20;

/// Resources listed per `resources/list` page.
pub const RESOURCES_PAGE: usize = 100;

/// Lines asked for on the first page of a large resource (the page stops earlier at
/// the materializer's inline limit).
const FIRST_PAGE_LINES: usize = 200;

/// The read-back tools and resources over one conversation's artifacts.
pub struct ContextTools {
    /// The conversation's materializer: writes (in the proxy) and reads back.
    pub materializer: Arc<Materializer<LocationIo>>,
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
            "name": RESOURCE_NAME,
            "title": RESOURCE_TITLE,
            "description": RESOURCE_DESCRIPTION,
            "mimeType": "text/plain",
        })
    }

    /// `resources/list`: this conversation's artifacts, newest first, [`RESOURCES_PAGE`]
    /// a page; `cursor` is where the page starts (the `nextCursor` of the one before).
    ///
    /// # Errors
    /// Invalid params for a cursor this side did not give.
    pub async fn list_resources(&self, cursor: Option<&str>) -> Result<Value, ErrorData> {
        let from = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params(format!("unknown cursor {c:?}"), None))?,
        };
        let refs = self
            .materializer
            .core()
            .artifact_refs(self.materializer.io())
            .await;
        let page: Vec<Value> = refs
            .iter()
            .skip(from)
            .take(RESOURCES_PAGE)
            .map(|uri| {
                let name = uri.rsplit('/').next().unwrap_or(uri);
                json!({ "uri": uri, "name": name, "mimeType": mime_type(uri) })
            })
            .collect();
        let mut result = json!({ "resources": page });
        if from + RESOURCES_PAGE < refs.len() {
            result["nextCursor"] = json!((from + RESOURCES_PAGE).to_string());
        }
        Ok(result)
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
        // Binary data has no text: core's read-back says what it is.
        let binary = mime_type(uri) == "application/octet-stream";
        let text = if size <= self.max_resource_bytes && !binary {
            io.read_file(&path)
                .await
                .map_err(failed)?
                .ok_or_else(missing)?
        } else {
            self.materializer
                .read(uri, 0, FIRST_PAGE_LINES)
                .await
                .map_err(|err| match err {
                    OffloadError::InvalidArgument(_) => {
                        ErrorData::invalid_params(err.to_string(), Some(json!({ "uri": uri })))
                    }
                    err => ErrorData::internal_error(err.to_string(), None),
                })?
        };
        Ok(json!({
            "contents": [{ "uri": uri, "mimeType": mime_type(uri), "text": text }],
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ErrorCode;
    use tool_offload::MaterializerOptions;

    fn tools(dir: &std::path::Path, max_resource_bytes: u64) -> ContextTools {
        let tool_dir = dir.join("context/c/artifacts/tool");
        std::fs::create_dir_all(&tool_dir).unwrap();
        let log: Vec<String> = (1..=300).map(|i| format!("line {i}")).collect();
        std::fs::write(tool_dir.join("log.txt"), log.join("\n")).unwrap();
        std::fs::write(tool_dir.join("rows.json"), "[1,2]").unwrap();
        ContextTools {
            materializer: Arc::new(
                Materializer::with_io(
                    MaterializerOptions::at(dir.to_str().unwrap(), "c"),
                    LocationIo::Files(tool_offload::TokioFileWriter::new()),
                )
                .unwrap(),
            ),
            max_resource_bytes,
        }
    }

    #[test]
    fn the_template_names_every_ref() {
        let dir = tempfile::tempdir().unwrap();
        let template = tools(dir.path(), 0).resource_template();
        assert_eq!(
            template["uriTemplate"],
            "ctx://{conversation}/{kind}/{file}"
        );
        assert_eq!(template["name"], "tool-offload-artifacts");
        assert_eq!(template["mimeType"], "text/plain");
        assert!(ContextTools::owns_uri("ctx://c/tool/a.txt"));
        assert!(!ContextTools::owns_uri("file:///ctx://"));
    }

    #[tokio::test]
    async fn small_artifacts_read_whole_with_their_mime_type() {
        let dir = tempfile::tempdir().unwrap();
        let context = tools(dir.path(), DEFAULT_MAX_RESOURCE_BYTES);
        let read = context
            .read_resource("ctx://c/tool/rows.json")
            .await
            .unwrap();
        assert_eq!(
            read,
            json!({ "contents": [{ "uri": "ctx://c/tool/rows.json", "mimeType": "application/json", "text": "[1,2]" }] })
        );
        let log = context.read_resource("ctx://c/tool/log.txt").await.unwrap();
        assert!(log["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("line 1\nline 2\n"));
        assert_eq!(log["contents"][0]["mimeType"], "text/plain");
    }

    #[tokio::test]
    async fn large_artifacts_read_as_their_first_page() {
        let dir = tempfile::tempdir().unwrap();
        tools(dir.path(), 0);
        let log = dir.path().join("context/c/artifacts/tool/log.txt");
        let size = std::fs::metadata(log).unwrap().len();
        let context = tools(dir.path(), size);
        let whole = context.read_resource("ctx://c/tool/log.txt").await.unwrap();
        let whole = whole["contents"][0]["text"].as_str().unwrap();
        assert!(whole.starts_with("line 1\nline 2\n"), "{whole}");
        assert!(whole.ends_with("\nline 300"), "{whole}");
        let context = tools(dir.path(), size - 1);
        let page = context.read_resource("ctx://c/tool/log.txt").await.unwrap();
        let text = page["contents"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("[ctx://c/tool/log.txt: lines 1-200 of 300. More: context_read(\"ctx://c/tool/log.txt\", 200)]\n1| line 1\n"), "{text}");
    }

    #[tokio::test]
    async fn missing_and_foreign_refs_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let context = tools(dir.path(), DEFAULT_MAX_RESOURCE_BYTES);
        let missing = context
            .read_resource("ctx://c/tool/nope.txt")
            .await
            .unwrap_err();
        assert_eq!(missing.code, ErrorCode::RESOURCE_NOT_FOUND);
        assert_eq!(missing.message, "no artifact at ctx://c/tool/nope.txt");
        let foreign = context
            .read_resource("ctx://d/tool/log.txt")
            .await
            .unwrap_err();
        assert_eq!(foreign.code, ErrorCode::INVALID_PARAMS);
        let escape = context
            .read_resource("ctx://c/tool/%2E%2E")
            .await
            .unwrap_err();
        assert_eq!(escape.code, ErrorCode::INVALID_PARAMS);
    }

    #[tokio::test]
    async fn read_back_tools_answer_with_pages_or_errors_for_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let context = tools(dir.path(), DEFAULT_MAX_RESOURCE_BYTES);
        let tail = context
            .call_tool(
                "context_tail",
                &json!({ "ref": "ctx://c/tool/log.txt", "lines": 1 }),
            )
            .await;
        assert_eq!(tail["isError"], false);
        assert!(tail["content"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("300| line 300"));
        let bad = context.call_tool("context_read", &json!({})).await;
        assert_eq!(bad["isError"], true);
        assert!(ContextTools::is_context_tool("context_grep"));
        assert!(!ContextTools::is_context_tool("read_file"));
        let names: Vec<Value> = context
            .tool_definitions()
            .iter()
            .map(|t| t["name"].clone())
            .collect();
        assert_eq!(names, ["context_read", "context_tail", "context_grep"]);
    }
}
