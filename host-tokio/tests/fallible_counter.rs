//! A token counter that may fail (`TryCountTokens`): its first error is the call's, at
//! once — not asked again, nothing more written — for the materializer, its budget and
//! the workspace; an infallible one (`with_token_counter`) works as before.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    BudgetOptions, ErrorCode, Materializer, MaterializerOptions, OffloadError, ToolLimits,
    ToolOutputInput, ToolResultCall, TryCountTokens, Workspace, WorkspaceOptions,
};

/// A counter answering 1 until its `fail_at`-th call, which fails; the calls counted.
fn failing_at(fail_at: usize) -> (TryCountTokens, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let count: TryCountTokens =
        Arc::new(
            move |_text: &str| match seen.fetch_add(1, Ordering::SeqCst) + 1 == fail_at {
                true => Err(OffloadError::InvalidArgument("tokenizer gone".into())),
                false => Ok(1),
            },
        );
    (count, calls)
}

fn history(n: usize) -> Vec<Value> {
    (0..n)
        .flat_map(|i| {
            let id = format!("t{i}");
            [
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "bash", "input": {}}]}),
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "word ".repeat(3000)}]}),
            ]
        })
        .collect()
}

fn files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| entries.count())
}

#[tokio::test]
async fn budget_stops_at_the_counter_s_first_error() {
    let root = tempfile::tempdir().unwrap();
    let (count, calls) = failing_at(3);
    let m = Materializer::in_dir(root.path(), "c1")
        .unwrap()
        .with_fallible_token_counter(count);
    let mut options = BudgetOptions::new(1);
    options.keep_last = 0;
    let err = m.budget(&history(4), &options).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    assert_eq!(calls.load(Ordering::SeqCst), 3, "not asked again");
    assert_eq!(files(root.path()), 0, "nothing written");

    let (count, calls) = failing_at(1);
    let err = m
        .try_budget_counted(&history(4), &options, |t| count(t))
        .await
        .unwrap_err();
    assert_eq!(
        (err.code(), calls.load(Ordering::SeqCst)),
        (ErrorCode::InvalidArgument, 1)
    );
    let messages = history(4);
    let done = m
        .budget_counted(&messages, &options, |_| 1000)
        .await
        .unwrap();
    assert!(
        !done.cleared.is_empty(),
        "the infallible form clears as before"
    );
}

#[tokio::test]
async fn materialize_fails_before_writing() {
    let root = tempfile::tempdir().unwrap();
    let (count, calls) = failing_at(1);
    let mut options = MaterializerOptions::at(root.path().to_str().unwrap(), "c1");
    let limits = ToolLimits {
        max_inline_tokens: Some(5),
        ..ToolLimits::default()
    };
    options.tools = vec![("bash".into(), limits)];
    let m = Materializer::new(options)
        .unwrap()
        .with_fallible_token_counter(count);
    let log = json!("word ".repeat(3000));
    let input = ToolOutputInput {
        tool_call_id: "t1",
        tool_name: "bash",
        server_name: None,
        output: &log,
    };
    let err = m.materialize(&input).await.unwrap_err();
    assert_eq!(err.to_string(), "invalid argument: tokenizer gone");
    assert_eq!((calls.load(Ordering::SeqCst), files(root.path())), (1, 0));

    // An infallible counter over the limit still materializes.
    let m = m.with_token_counter(Arc::new(|t: &str| t.len()));
    assert!(matches!(
        m.materialize(&input).await.unwrap(),
        Materialized::Artifact { .. }
    ));
}

#[tokio::test]
async fn workspace_offload_fails_at_once() {
    let root = tempfile::tempdir().unwrap();
    let (count, calls) = failing_at(1);
    let mut options = WorkspaceOptions::at(root.path().to_str().unwrap());
    options.token_threshold = 10;
    let ws = Workspace::new(options)
        .unwrap()
        .with_fallible_token_counter(count);
    let content = json!("word ".repeat(3000));
    let call = ToolResultCall {
        tool_call_id: "c1",
        tool_name: "bash",
        action_name: None,
        content: &content,
        metadata: None,
    };
    let err = ws.offload_tool_result(&call).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
