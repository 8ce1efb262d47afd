//! MCP `CallToolResult`s over the limits, materialized: the text becomes the summary plus
//! a `resource_link` to the artifact; `isError`, `_meta`, unknown fields and non-text
//! content (images, audio, embedded resources) stay as they are; an oversized
//! `structuredContent` is stored too (as `<callId>-structured`) and replaced by a note and
//! a link. One implementation for the CLI's MCP proxy and the npm package's
//! `tool-offload/mcp`.

use serde_json::{Map, Value};

use super::types::Materialized;
use crate::forms::context_ref::ContextRef;
use crate::message::output_text;

use crate::summary::ToolOutputRef;

use super::materializer::Materializer;
use crate::forms::reference::ArtifactKind;
use crate::{error::OffloadError, io::FileReader, io::FileWriter, tokens::TokenCounter};

/// The MCP resource template artifacts are advertised under, by the CLI's MCP proxy and
/// the npm package's `tool-offload/mcp` alike (with [`RESOURCE_NAME`],
/// [`RESOURCE_TITLE`] and [`RESOURCE_DESCRIPTION`]).
pub const RESOURCE_TEMPLATE: &str = "ctx://{conversation}/{kind}/{file}";
/// The name of the artifacts' resource template.
pub const RESOURCE_NAME: &str = "tool-offload-artifacts";
/// The title of the artifacts' resource template.
pub const RESOURCE_TITLE: &str = "Stored tool outputs";
/// The description of the artifacts' resource template.
pub const RESOURCE_DESCRIPTION: &str =
    "Full tool outputs stored by tool-offload, named by the ctx:// refs in summaries.";

/// The MIME type of an artifact, by its ref's extension: `application/json` for `.json`,
/// `application/octet-stream` for binary data (`.bin`), else `text/plain`.
///
/// ```
/// use tool_offload_core::materialize::mime_type;
/// assert_eq!(mime_type("ctx://c/tool/x.json"), "application/json");
/// assert_eq!(mime_type("ctx://c/tool/shot.bin"), "application/octet-stream");
/// assert_eq!(mime_type("ctx://c/terminal/t.log"), "text/plain");
/// ```
pub fn mime_type(reference: &str) -> &'static str {
    if reference.ends_with(".json") {
        "application/json"
    } else if crate::read::artifacts::is_binary_path(reference) {
        "application/octet-stream"
    } else {
        "text/plain"
    }
}

/// The text of a `CallToolResult`: its `text` content blocks joined with newlines, or
/// `None` when it has none (or is not an object with a `content` array).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::call_tool_result_text;
/// let result = json!({"content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]});
/// assert_eq!(call_tool_result_text(&result).as_deref(), Some("a\nb"));
/// ```
pub fn call_tool_result_text(result: &Value) -> Option<String> {
    let texts: Vec<&str> = result
        .get("content")?
        .as_array()?
        .iter()
        .filter_map(text_of)
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

impl Materializer {
    /// `result` (a `CallToolResult` of `tool`, from `server` when given) with its text and
    /// its `structuredContent` materialized where over the limits, as artifacts `call_id`
    /// and `<call_id>-structured`; `None` when nothing was (the result stays as it is).
    /// Tokens are counted by `count_tokens` when given (as in
    /// [`Materializer::materialize_counted`]).
    ///
    /// # Errors
    /// `INVALID_ID`; `WRITE_FAILED` (nothing is then reported as done).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let result = json!({"content": [{"type": "text", "text": "x\n".repeat(5000)}], "isError": true});
    /// let out = futures_executor::block_on(m.materialize_call_tool_result(&result, "bash", None, "call-1", None, &MemoryWriter::new())).unwrap().unwrap();
    /// assert_eq!(out["content"][1]["uri"], "ctx://c/tool/call-1.txt");
    /// assert_eq!(out["isError"], true);
    /// ```
    pub fn materialize_call_tool_result<'a, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        result: &'a Value,
        tool: &'a str,
        server: Option<&'a str>,
        call_id: &str,
        count_tokens: Option<&TokenCounter<'_>>,
        io: &'a IO,
    ) -> impl std::future::Future<Output = Result<Option<Value>, OffloadError>> + 'a {
        // Both parts decided now, the counter with them: the future does not hold it.
        let structured = result.get("structuredContent").map(|value| {
            let (text, was_value) = output_text(value);
            let id = format!("{call_id}-structured");
            Part(id, text.into_owned(), was_value)
        });
        let text = call_tool_result_text(result).map(|text| Part(call_id.into(), text, false));
        let decide = |part: &Option<Part>| match part {
            Some(part) => self.store_part(tool, server, part, count_tokens),
            None => Ok(false),
        };
        let stores = decide(&structured).and_then(|s| Ok((s, decide(&text)?)));
        async move {
            let Some(object) = result.as_object() else {
                return Ok(None);
            };
            let (stores_structured, stores_text) = stores?;
            let store = |part: Option<Part>, stores: bool| async move {
                let Some(Part(id, text, was_value)) = part.filter(|_| stores) else {
                    return Ok::<_, OffloadError>(None);
                };
                let out = ToolOutputRef {
                    tool_call_id: &id,
                    tool_name: tool,
                    server_name: server,
                    text: &text,
                    was_value,
                };
                let ends = (None, None);
                let stored = self.store_as((ArtifactKind::Tool, &id), &out, ends, true, None, io);
                Ok(match stored.await? {
                    Materialized::Inline | Materialized::Redacted { .. } => None,
                    Materialized::Artifact {
                        summary, reference, ..
                    } => Some((summary, reference)),
                })
            };
            let structured = store(structured, stores_structured).await?;
            let text = store(text, stores_text).await?;
            Ok(finish(object, tool, text, structured))
        }
    }

    /// Whether one part of a `CallToolResult` is stored.
    fn store_part(
        &self,
        tool: &str,
        server: Option<&str>,
        Part(id, text, was_value): &Part,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<bool, OffloadError> {
        let out = ToolOutputRef {
            tool_call_id: id,
            tool_name: tool,
            server_name: server,
            text,
            was_value: *was_value,
        };
        let to_store = self.decide_store(
            ArtifactKind::Tool,
            id,
            &out,
            (None, None),
            false,
            count_tokens,
        )?;
        Ok(matches!(to_store, super::store::Decision::Store(_)))
    }
}

/// One part of a `CallToolResult` to store: its id, its text, whether that is the JSON
/// of a value.
struct Part(String, String, bool);

/// `object` with its stored text replaced and its stored `structuredContent` named;
/// `None` when neither was stored.
fn finish(
    object: &Map<String, Value>,
    tool: &str,
    text: Option<(String, ContextRef)>,
    structured: Option<(String, ContextRef)>,
) -> Option<Value> {
    if text.is_none() && structured.is_none() {
        return None;
    }
    let mut object = object.clone();
    if let Some((summary, reference)) = text {
        replace_texts(&mut object, &summary, &reference, tool);
    }
    if let Some((_, reference)) = structured {
        object.remove("structuredContent");
        let note = format!(
                "[structuredContent of {tool} ({} bytes) stored as {} and left out of this result: read it with context_read, context_tail or context_grep.]",
                crate::text::thousands(reference.hint.bytes),
                reference.id
            );
        let mut content = content_of(&object);
        content.push(text_block(&note));
        content.push(resource_link(&reference, tool));
        object.insert("content".into(), Value::Array(content));
    }
    Some(Value::Object(object))
}

fn text_of(block: &Value) -> Option<&str> {
    (block.get("type")? == "text")
        .then(|| block.get("text")?.as_str())
        .flatten()
}

/// The text blocks replaced by the summary and a link, where the first one was.
fn replace_texts(
    object: &mut Map<String, Value>,
    summary: &str,
    reference: &ContextRef,
    tool: &str,
) {
    let content = content_of(object);
    let mut out = Vec::with_capacity(content.len() + 1);
    let mut replaced = false;
    for block in content {
        if text_of(&block).is_none() {
            out.push(block);
        } else if !replaced {
            replaced = true;
            out.push(text_block(summary));
            out.push(resource_link(reference, tool));
        }
    }
    // Inserted where `content` was (a map keeps a replaced key's place).
    object.insert("content".into(), Value::Array(out));
}

/// The `content` blocks, none when it is missing or not an array.
fn content_of(object: &Map<String, Value>) -> Vec<Value> {
    match object.get("content") {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    }
}

fn text_block(text: &str) -> Value {
    let mut block = Map::new();
    block.insert("type".into(), "text".into());
    block.insert("text".into(), text.into());
    Value::Object(block)
}

fn resource_link(reference: &ContextRef, tool: &str) -> Value {
    let name = crate::search::after_last_slash(&reference.id);
    let mut link = Map::new();
    link.insert("type".into(), "resource_link".into());
    link.insert("uri".into(), reference.id.clone().into());
    link.insert("name".into(), name.into());
    link.insert(
        "description".into(),
        format!("Full output of {tool}").into(),
    );
    link.insert("mimeType".into(), mime_type(&reference.id).into());
    link.insert("size".into(), reference.hint.bytes.into());
    Value::Object(link)
}
