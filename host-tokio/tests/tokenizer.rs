//! Exact token counts (feature `tokenizer`): the o200k_base and cl100k_base counts of
//! tiktoken, and a Workspace deciding by them.

use serde_json::json;
use tool_offload::{token_counter, ToolResultCall, Vocabulary, Workspace, WorkspaceOptions};

/// (text, o200k_base tokens): the calibration's vectors (core's `tokens.rs`), counted by
/// `gpt-tokenizer` and `js-tiktoken`.
const O200K: &[(&str, usize)] = &[
    ("", 0),
    (" ", 1),
    ("hello world", 2),
    ("Hello, world!", 4),
    ("fooBarBaz", 3),
    ("HTTPServer", 2),
    ("internationalization", 2),
    ("/Users/gray/Projects/x.md", 8),
    ("src/main.rs:42:    let x = 1;", 13),
    ("{\"a\":1,\"b\":[true,null]}", 10),
];

#[test]
fn counts_are_tiktokens() {
    let count = token_counter(Vocabulary::O200kBase);
    for (text, tokens) in O200K {
        assert_eq!(count(text), *tokens, "{text:?}");
    }
    // cl100k_base splits digits in threes too, but knows fewer words.
    let cl100k = token_counter(Vocabulary::Cl100kBase);
    assert_eq!(cl100k("hello world"), 2);
    assert_eq!(cl100k("1234567"), 3);
}

#[tokio::test]
async fn a_workspace_decides_by_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    let options = WorkspaceOptions {
        token_threshold: 100,
        ..WorkspaceOptions::at(dir.path().to_str().unwrap())
    };
    let ws = Workspace::new(options)
        .unwrap()
        .with_token_counter(token_counter(Vocabulary::O200kBase));
    // 400 letters in words of 4: 100 tokens by o200k_base, about 100 by the estimate too;
    // "word " repeated is 1 token a word.
    let under = json!("word ".repeat(100).trim_end());
    let over = json!("word ".repeat(101).trim_end());
    let call = |id, content| ToolResultCall {
        tool_call_id: id,
        tool_name: "cat",
        action_name: None,
        content,
        metadata: None,
    };
    let kept = ws.offload_tool_result(&call("a", &under)).await.unwrap();
    let stored = ws.offload_tool_result(&call("b", &over)).await.unwrap();
    assert_eq!(kept.decision.as_ref().unwrap().tokens, Some(100));
    assert!(!kept.offloaded);
    assert_eq!(stored.decision.as_ref().unwrap().tokens, Some(101));
    assert!(stored.offloaded);
}

/// A Materializer decides a tool's `max_inline_tokens` by the exact count, and its
/// futures stay `Send` with a counter (spawned on the runtime).
#[tokio::test]
async fn a_materializer_decides_by_the_exact_count() {
    use tool_offload::core::materialize::ToolLimits;
    use tool_offload::{Materializer, MaterializerOptions, ToolOutputInput};
    let dir = tempfile::tempdir().unwrap();
    let mut options = MaterializerOptions::at(dir.path().to_str().unwrap(), "c1");
    let limit = ToolLimits {
        max_inline_tokens: Some(100),
        ..ToolLimits::default()
    };
    options.tools = vec![("cat".into(), limit)];
    let m = std::sync::Arc::new(
        Materializer::new(options)
            .unwrap()
            .with_token_counter(token_counter(Vocabulary::O200kBase)),
    );
    // 100 and 101 tokens by o200k_base; about as many by the estimate, which is why
    // the exact count matters at the edge.
    let under = json!("word ".repeat(100).trim_end());
    let over = json!("word ".repeat(101).trim_end());
    let spawned = |id: &'static str, output: serde_json::Value| {
        let m = m.clone();
        tokio::spawn(async move {
            let out = ToolOutputInput {
                tool_call_id: id,
                tool_name: "cat",
                server_name: None,
                output: &output,
            };
            m.materialize(&out).await.unwrap()
        })
    };
    let kept = spawned("a", under.clone()).await.unwrap();
    let stored = spawned("b", over.clone()).await.unwrap();
    assert!(matches!(kept, tool_offload::Materialized::Inline));
    assert!(matches!(
        stored,
        tool_offload::Materialized::Artifact { .. }
    ));
    let messages = vec![
        json!({"role": "assistant", "tool_calls": [{"id": "x", "type": "function", "function": {"name": "cat", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "x", "content": over}),
    ];
    let done = tokio::spawn(async move {
        let refs = m.materialize_messages(&messages).await.unwrap().refs;
        refs.into_iter().map(|r| r.id).collect::<Vec<_>>()
    });
    assert_eq!(done.await.unwrap(), ["ctx://c1/tool/x.txt"]);
}
