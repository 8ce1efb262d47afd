//! `redact` on the tokio host's direct and batch offload: the files on disk hold the
//! markers, never the secret.

use serde_json::json;
use tool_offload::{
    offload_tool_result_redacted, offload_tool_results, BatchOptions, TokioFileWriter,
};

#[tokio::test]
async fn redacted_offloads_never_write_the_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let content = format!("token {secret}\n{}", "ok\n".repeat(100));
    let message = json!({"role": "tool", "tool_call_id": "call_1", "content": content});
    let writer = TokioFileWriter::new();
    let done = offload_tool_result_redacted(&message, "s1", &root, &writer)
        .await
        .unwrap();
    let written = std::fs::read_to_string(&done.file).unwrap();
    assert!(
        written.starts_with("token [REDACTED:github-token]\n"),
        "{written}"
    );
    let batch_dir = root.join("batch");
    let options = BatchOptions {
        redact: true.into(),
        ..BatchOptions::at(batch_dir.to_str().unwrap())
    };
    let messages = [message];
    let batch = offload_tool_results(&messages, &options, &writer)
        .await
        .unwrap();
    let written = std::fs::read_to_string(&batch.files[0]).unwrap();
    assert!(!written.contains(secret) && written.contains("[REDACTED:github-token]"));
}
