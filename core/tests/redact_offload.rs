//! `redact` in direct, batch and registry offload: the secrets never reach a file, the
//! messages' placeholders are as without it, and a re-run reuses the redacted files.

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::tools::{ResultOffload, ToolResult};
use tool_offload_core::{
    offload_tool_result_with, offload_tool_results, BatchOptions, DirectOptions, MemoryWriter,
};

const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
const PASSWORD: &str = "s3cr3t-pw";

/// A tool output of `len`+ characters holding two secrets.
fn output(len: usize) -> String {
    let mut text = format!(
        "export AWS_ACCESS_KEY_ID={AWS}\nDATABASE_URL=postgres://app:{PASSWORD}@db:5432/app\n"
    );
    while text.len() < len {
        text.push_str("step ok\n");
    }
    text
}

/// No file `writer` holds contains a secret, and some hold both markers.
fn assert_redacted(writer: &MemoryWriter) {
    let files = writer.files();
    assert!(!files.is_empty());
    for (path, text) in &files {
        assert!(
            !text.contains(AWS) && !text.contains(PASSWORD),
            "{path}: {text}"
        );
        assert!(text.contains("[REDACTED:aws-access-key]"), "{path}");
        assert!(text.contains("postgres://app:[REDACTED:connection-string-password]@db"));
    }
}

#[test]
fn direct_offload_writes_the_redacted_text_and_the_same_placeholder() {
    let message = json!({"role": "tool", "tool_call_id": "c1", "content": output(500)});
    let plain = MemoryWriter::new();
    let options = DirectOptions::new("s", "/o", "/");
    let without = block_on(offload_tool_result_with(
        &message, &message, &options, &plain,
    ))
    .unwrap();
    let writer = MemoryWriter::new();
    let options = DirectOptions {
        redact: true.into(),
        ..options
    };
    let with = block_on(offload_tool_result_with(
        &message, &message, &options, &writer,
    ))
    .unwrap();
    assert_redacted(&writer);
    assert_eq!(
        with, without,
        "the message and sizes do not depend on redaction"
    );
    assert!(
        plain.read("/o/s/c1.md").unwrap().contains(AWS),
        "off by default"
    );
}

#[test]
fn batch_offload_redacts_and_a_rerun_reuses_the_redacted_file() {
    let messages = vec![
        json!({"role": "tool", "tool_call_id": "c1", "content": output(300)}),
        json!({"role": "tool", "tool_call_id": "c2", "content": "no secret here ".repeat(20)}),
    ];
    let writer = MemoryWriter::new();
    let options = BatchOptions {
        redact: true.into(),
        ..BatchOptions::new("out", "/w")
    };
    let first = block_on(offload_tool_results(&messages, &options, &writer)).unwrap();
    assert_eq!(first.offloaded_count, 2);
    let c1 = writer.read("/w/out/tool-result-c1.md").unwrap();
    assert!(!c1.contains(AWS) && c1.contains("[REDACTED:aws-access-key]"));
    assert_eq!(
        writer.read("/w/out/tool-result-c2.md").unwrap(),
        "no secret here ".repeat(20),
        "text without secrets is written as it is"
    );
    // The same batch again finds its own redacted file: reused, not moved to `-1`.
    let second = block_on(offload_tool_results(&messages, &options, &writer)).unwrap();
    assert_eq!(second.files, first.files);
    assert_eq!(writer.files().len(), 2);
    // Without redaction, the planned name holds other text: the result moves on.
    let plain = block_on(offload_tool_results(
        &messages,
        &BatchOptions::new("out", "/w"),
        &writer,
    ))
    .unwrap();
    assert_eq!(plain.files[0], "/w/out/tool-result-c1-1.md");
}

#[test]
fn registry_offload_redacts_what_it_writes() {
    let mut offload = ResultOffload::new("out", "s1", "/work");
    offload.redact = true.into();
    let result = ToolResult {
        tool_use_id: "toolu_1".into(),
        content: output(1200),
        is_error: false,
    };
    let writer = MemoryWriter::new();
    let slim = block_on(offload.apply(result, &writer)).unwrap();
    assert_eq!(
        slim.content,
        "[Tool result offloaded to file: /work/out/s1/toolu_1.md]"
    );
    assert_redacted(&writer);
}
