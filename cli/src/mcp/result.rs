//! A `tools/call` result over the limits, materialized: its text becomes the
//! Materializer's summary plus a `resource_link` to the artifact; `isError`, `_meta`,
//! unknown fields and non-text content (images, audio, embedded resources) stay as they
//! are; an oversized `structuredContent` is stored too (as `<id>-structured`) and
//! replaced by a note. `tool-offload/mcp`'s `materializeCallToolResult` does the same in
//! the npm package (a test holds the two to the same result).

use serde_json::{json, Map, Value};
use tool_offload::core::materialize::{ContextRef, Materialized};
use tool_offload::{Materializer, OffloadError, ToolOutputInput};

use super::context::mime_type;
use super::ids::call_id;

/// Materialize `result` (a `CallToolResult`) of `tool` in place when its text or its
/// `structuredContent` is over the materializer's limits; `server` names the upstream
/// in summaries. A result that is not an object is left alone.
///
/// # Errors
/// `WRITE_FAILED` when an artifact cannot be written (the result is then unchanged).
pub async fn materialize_result(
    materializer: &Materializer,
    result: &mut Value,
    tool: &str,
    server: Option<&str>,
) -> Result<(), OffloadError> {
    let Some(object) = result.as_object_mut() else {
        return Ok(());
    };
    let text = joined_text(object);
    let id = call_id(tool, text.as_deref().unwrap_or_default());
    let structured = match object.get("structuredContent") {
        Some(value) => {
            store(
                materializer,
                value,
                &format!("{id}-structured"),
                tool,
                server,
            )
            .await?
        }
        None => None,
    };
    let text = match text {
        Some(text) => store(materializer, &Value::String(text), &id, tool, server).await?,
        None => None,
    };
    if let Some((summary, reference)) = text {
        replace_texts(object, &summary, &reference);
    }
    if let Some((_, reference)) = structured {
        object.remove("structuredContent");
        let note = format!(
            "[structuredContent of {tool} ({} bytes) stored as {} and left out of this result: read it with context_read, context_tail or context_grep.]",
            tool_offload::core::materialize::thousands(reference.hint.bytes),
            reference.id
        );
        let content = content_mut(object);
        content.push(json!({ "type": "text", "text": note }));
        content.push(resource_link(&reference, tool));
    }
    Ok(())
}

/// Write `output` when it is over the limits: its summary and ref, else `None`.
async fn store(
    materializer: &Materializer,
    output: &Value,
    id: &str,
    tool: &str,
    server: Option<&str>,
) -> Result<Option<(String, ContextRef)>, OffloadError> {
    let input = ToolOutputInput {
        tool_call_id: id,
        tool_name: tool,
        server_name: server,
        output,
    };
    Ok(match materializer.materialize(&input).await? {
        Materialized::Inline => None,
        Materialized::Artifact {
            summary, reference, ..
        } => Some((summary, reference)),
    })
}

/// The texts of the result's text blocks joined with newlines (as the Materializer
/// joins text parts), or `None` when there is none.
fn joined_text(object: &Map<String, Value>) -> Option<String> {
    let texts: Vec<&str> = object
        .get("content")?
        .as_array()?
        .iter()
        .filter_map(text_of)
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// The text of a `{ "type": "text", "text": … }` block.
fn text_of(block: &Value) -> Option<&str> {
    (block.get("type")? == "text")
        .then(|| block.get("text")?.as_str())
        .flatten()
}

/// The first text block becomes the summary followed by the link; the other text
/// blocks go (they are in the artifact); every other block stays in its place.
fn replace_texts(object: &mut Map<String, Value>, summary: &str, reference: &ContextRef) {
    let tool = reference.hint.tool_name.clone();
    let content = content_mut(object);
    let mut out = Vec::with_capacity(content.len() + 1);
    let mut replaced = false;
    for block in content.drain(..) {
        if text_of(&block).is_none() {
            out.push(block);
        } else if !replaced {
            replaced = true;
            out.push(json!({ "type": "text", "text": summary }));
            out.push(resource_link(reference, &tool));
        }
    }
    *content = out;
}

/// The result's `content` array, created when missing or not an array.
fn content_mut(object: &mut Map<String, Value>) -> &mut Vec<Value> {
    let content = object
        .entry("content")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !content.is_array() {
        *content = Value::Array(Vec::new());
    }
    content.as_array_mut().expect("made an array above")
}

/// A `resource_link` content block to the artifact, readable with `resources/read`.
fn resource_link(reference: &ContextRef, tool: &str) -> Value {
    let name = reference.id.rsplit('/').next().unwrap_or(&reference.id);
    json!({
        "type": "resource_link",
        "uri": reference.id,
        "name": name,
        "description": format!("Full output of {tool}"),
        "mimeType": mime_type(&reference.id),
        "size": reference.hint.bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tool_offload::MaterializerOptions;

    fn materializer(dir: &std::path::Path) -> Materializer {
        let mut options = MaterializerOptions::new(dir, "c");
        options.max_inline_chars = 1000;
        Materializer::new(options).unwrap()
    }

    fn artifact(dir: &std::path::Path, uri: &str) -> String {
        let file = uri.strip_prefix("ctx://c/tool/").unwrap();
        std::fs::read_to_string(dir.join("context/c/artifacts/tool").join(file)).unwrap()
    }

    #[tokio::test]
    async fn results_within_the_limits_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let m = materializer(dir.path());
        for original in [
            json!({ "content": [{ "type": "text", "text": "short" }], "structuredContent": { "n": 1 } }),
            json!("not an object"),
            json!({ "content": "not an array" }),
            json!({}),
        ] {
            let mut result = original.clone();
            materialize_result(&m, &mut result, "t", None)
                .await
                .unwrap();
            assert_eq!(result, original);
        }
    }

    #[tokio::test]
    async fn big_text_becomes_summary_and_link_and_the_rest_stays() {
        let dir = tempfile::tempdir().unwrap();
        let m = materializer(dir.path());
        let image = json!({ "type": "image", "data": "AAAA", "mimeType": "image/png" });
        let mut result = json!({
            "content": [
                { "type": "text", "text": "a".repeat(600) },
                image,
                { "type": "text", "text": "b".repeat(600) },
            ],
            "isError": true,
            "_meta": { "trace": 7 },
            "vendor": "kept",
        });
        materialize_result(&m, &mut result, "build", Some("ci"))
            .await
            .unwrap();
        let content = result["content"].as_array().unwrap();
        assert_eq!(content.len(), 3);
        let text = format!("{}\n{}", "a".repeat(600), "b".repeat(600));
        let id = call_id("build", &text);
        let uri = format!("ctx://c/tool/{id}.txt");
        assert!(content[0]["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("[Output of ci/build (call {id}) stored as {uri}")));
        assert_eq!(
            content[1],
            json!({ "type": "resource_link", "uri": uri, "name": format!("{id}.txt"),
                "description": "Full output of build", "mimeType": "text/plain", "size": 1201 })
        );
        assert_eq!(content[2], image);
        assert_eq!(result["isError"], true);
        assert_eq!(result["_meta"], json!({ "trace": 7 }));
        assert_eq!(result["vendor"], "kept");
        assert_eq!(artifact(dir.path(), &uri), text);
    }

    #[tokio::test]
    async fn big_structured_content_is_stored_and_noted() {
        let dir = tempfile::tempdir().unwrap();
        let m = materializer(dir.path());
        let rows: Vec<Value> = (0..200).map(|i| json!({ "id": i })).collect();
        let mut result = json!({ "content": [{ "type": "text", "text": "100 rows" }], "structuredContent": { "rows": rows } });
        materialize_result(&m, &mut result, "rows", None)
            .await
            .unwrap();
        assert!(result.get("structuredContent").is_none());
        let id = format!("{}-structured", call_id("rows", "100 rows"));
        let uri = format!("ctx://c/tool/{id}.json");
        let content = result["content"].as_array().unwrap();
        assert_eq!(content[0], json!({ "type": "text", "text": "100 rows" }));
        assert_eq!(
            content[1]["text"],
            format!("[structuredContent of rows (2,100 bytes) stored as {uri} and left out of this result: read it with context_read, context_tail or context_grep.]")
        );
        assert_eq!(content[2]["uri"], uri);
        assert_eq!(content[2]["mimeType"], "application/json");
        assert_eq!(
            artifact(dir.path(), &uri),
            json!({ "rows": rows }).to_string()
        );
    }

    #[tokio::test]
    async fn a_taken_name_is_never_overwritten_and_a_repeat_reuses_its_artifact() {
        let dir = tempfile::tempdir().unwrap();
        let m = materializer(dir.path());
        let text = "x".repeat(2000);
        let id = call_id("t", &text);
        let tool_dir = dir.path().join("context/c/artifacts/tool");
        std::fs::create_dir_all(&tool_dir).unwrap();
        std::fs::write(tool_dir.join(format!("{id}.txt")), "someone else's").unwrap();
        let call = || json!({ "content": [{ "type": "text", "text": text }] });
        let (mut first, mut second) = (call(), call());
        materialize_result(&m, &mut first, "t", None).await.unwrap();
        materialize_result(&m, &mut second, "t", None)
            .await
            .unwrap();
        let uri = format!("ctx://c/tool/{id}-1.txt");
        assert_eq!(first["content"][1]["uri"], uri);
        assert_eq!(second, first);
        assert_eq!(artifact(dir.path(), &uri), text);
        let other = std::fs::read_to_string(tool_dir.join(format!("{id}.txt"))).unwrap();
        assert_eq!(other, "someone else's");
    }
}
