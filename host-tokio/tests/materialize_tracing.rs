//! The tokio host's `tracing` events, one per materialization. In a test binary of its
//! own: a callsite first hit by a parallel test without a subscriber may cache "no
//! interest" and drop events from a thread-local subscriber.

use std::sync::Arc;

use serde_json::json;
use tool_offload::{Materialized, Materializer, MaterializerOptions};

fn log(lines: usize, marker: &str) -> String {
    (1..=lines)
        .map(|i| format!("{marker} line {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A subscriber that keeps every event's fields as text.
#[derive(Default, Clone)]
struct Recorder(Arc<std::sync::Mutex<Vec<EventFields>>>);

/// One event's fields, as (name, value) text.
type EventFields = Vec<(String, String)>;

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() == "tool_offload::materialize" {
            let mut fields = Vec::new();
            event.record(&mut Fields(&mut fields));
            self.0.lock().unwrap().push(fields);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test(flavor = "current_thread")]
async fn every_materialization_is_a_tracing_event_with_id_sizes_and_path() {
    let recorder = Recorder::default();
    let _guard = tracing::subscriber::set_default(recorder.clone());
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::new(MaterializerOptions::new(root.path(), "conv")).unwrap();
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

    let events = recorder.0.lock().unwrap().clone();
    assert_eq!(events.len(), 3, "one per artifact, none for inline output");
    let field = |event: &[(String, String)], name: &str| {
        event
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
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
