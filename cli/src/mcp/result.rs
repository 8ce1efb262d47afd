//! A `tools/call` result over the limits, materialized by core
//! (`Materializer::materialize_call_tool_result`, which `tool-offload/mcp` runs too)
//! under a call id minted from its text (see `ids.rs`).

use serde_json::Value;
use tool_offload::core::materialize::call_tool_result_text;
use tool_offload::{Materializer, OffloadError};

use crate::location::LocationIo;

use super::ids::call_id;

/// `result` (a `CallToolResult`) of `tool` materialized when its text or its
/// `structuredContent` is over the materializer's limits (core's
/// `materialize_call_tool_result`, under the id minted from its text); `server` names
/// the upstream in summaries. `None` when nothing is over the limits, or `result` is not
/// an object: then it goes on as it came.
///
/// # Errors
/// `WRITE_FAILED` when an artifact cannot be written.
pub async fn materialize_result(
    materializer: &Materializer<LocationIo>,
    result: &Value,
    tool: &str,
    server: Option<&str>,
) -> Result<Option<Value>, OffloadError> {
    let text = call_tool_result_text(result);
    let id = call_id(tool, text.as_deref().unwrap_or_default());
    // The counter is dropped before the await: the future stays `Send`.
    let stored = {
        let counter = materializer.counter();
        materializer.core().materialize_call_tool_result(
            result,
            tool,
            server,
            &id,
            counter.as_deref(),
            materializer.io(),
        )
    };
    stored.await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_offload::MaterializerOptions;

    fn materializer(dir: &std::path::Path) -> Materializer<LocationIo> {
        let mut options = MaterializerOptions::at(dir.to_str().unwrap(), "c");
        options.max_inline_chars = 1000;
        let io = LocationIo::Files(tool_offload::TokioFileWriter::new());
        Materializer::with_io(options, io).unwrap()
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
            let done = materialize_result(&m, &original, "t", None).await.unwrap();
            assert_eq!(done, None);
        }
    }

    #[tokio::test]
    async fn big_text_becomes_summary_and_link_and_the_rest_stays() {
        let dir = tempfile::tempdir().unwrap();
        let m = materializer(dir.path());
        let image = json!({ "type": "image", "data": "AAAA", "mimeType": "image/png" });
        let result = json!({
            "content": [
                { "type": "text", "text": "a".repeat(600) },
                image,
                { "type": "text", "text": "b".repeat(600) },
            ],
            "isError": true,
            "_meta": { "trace": 7 },
            "vendor": "kept",
        });
        let result = materialize_result(&m, &result, "build", Some("ci"))
            .await
            .unwrap()
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
        let result = json!({ "content": [{ "type": "text", "text": "100 rows" }], "structuredContent": { "rows": rows } });
        let result = materialize_result(&m, &result, "rows", None)
            .await
            .unwrap()
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
        let first = materialize_result(&m, &call(), "t", None).await.unwrap();
        let second = materialize_result(&m, &call(), "t", None).await.unwrap();
        let (first, second) = (first.unwrap(), second.unwrap());
        let uri = format!("ctx://c/tool/{id}-1.txt");
        assert_eq!(first["content"][1]["uri"], uri);
        assert_eq!(second, first);
        assert_eq!(artifact(dir.path(), &uri), text);
        let other = std::fs::read_to_string(tool_dir.join(format!("{id}.txt"))).unwrap();
        assert_eq!(other, "someone else's");
    }

    #[test]
    fn a_result_nested_as_deep_as_the_proxy_reads_is_stored_on_a_quarter_stack() {
        use crate::mcp::line::{parse, MAX_DEPTH};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_owned();
        // Top level, result and structuredContent: 3 levels before the arrays.
        let n = MAX_DEPTH - 3;
        let deep = format!("{}\"x\"{}", "[".repeat(n), "]".repeat(n));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"ok"}}],"structuredContent":{{"deep":{deep}}}}}}}"#
        );
        let run = move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let m = materializer(&path);
                let mut message = parse(&line).unwrap();
                let result = &message.value["result"];
                let done = materialize_result(&m, result, "deep", None).await.unwrap();
                message.value["result"] = done.unwrap();
                let sent = message.to_line();
                assert!(sent.contains("structuredContent of deep"), "{sent}");
                let stored = format!("{}-structured", call_id("deep", "ok"));
                let file = path.join(format!("context/c/artifacts/tool/{stored}.json"));
                let text = std::fs::read_to_string(file).unwrap();
                assert_eq!(text, format!(r#"{{"deep":{deep}}}"#));
            });
        };
        std::thread::Builder::new()
            .stack_size(super::super::THREAD_STACK / 4)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }
}
