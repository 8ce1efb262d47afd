//! The tokio host's `tracing` events, one per materialization. In a test binary of its
//! own: a callsite first hit by a parallel test without a subscriber may cache "no
//! interest" and drop events from a thread-local subscriber.

#[path = "common/recorder.rs"]
mod recorder;

use recorder::{field, Recorder};
use serde_json::json;
use tool_offload::{Materialized, Materializer};

fn log(lines: usize, marker: &str) -> String {
    (1..=lines)
        .map(|i| format!("{marker} line {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "current_thread")]
async fn every_materialization_is_a_tracing_event_with_id_sizes_and_path() {
    let recorder = Recorder::new("tool_offload::materialize");
    let _guard = tracing::subscriber::set_default(recorder.clone());
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv").unwrap();
    m.materialize_terminal("small", "ok").await.unwrap();
    let Materialized::Artifact { path, .. } =
        m.materialize_terminal("t1", &log(700, "$")).await.unwrap()
    else {
        panic!("expected an artifact")
    };
    let messages = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": log(800, "make")}]}),
        json!({"role": "tool", "tool_call_id": "call_2", "content": log(600, "row")}),
    ];
    m.materialize_messages(&messages).await.unwrap();

    let events = recorder.events.lock().unwrap().clone();
    assert_eq!(events.len(), 3, "one per artifact, none for inline output");
    assert_eq!(field(&events[0], "tool_call_id"), "t1");
    assert_eq!(field(&events[0], "path"), path);
    assert_eq!(field(&events[0], "lines"), "700");
    assert_eq!(field(&events[0], "chars"), log(700, "$").len().to_string());
    assert_eq!(field(&events[0], "reference"), "ctx://conv/terminal/t1.log");
    assert_eq!(
        [
            field(&events[1], "tool_call_id"),
            field(&events[2], "tool_call_id")
        ],
        ["toolu_1", "call_2"]
    );
}
