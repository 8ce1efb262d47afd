//! A `tracing` subscriber for tests: the fields of one target's events, as text. Used by
//! the tracing tests through `#[path]`, each in a test binary of its own (a callsite first
//! hit by a parallel test without a subscriber may cache "no interest").

use std::sync::Arc;

/// A subscriber that keeps the fields of every event of one target as text.
#[derive(Clone)]
pub struct Recorder {
    target: &'static str,
    /// The events seen, in order.
    pub events: Arc<std::sync::Mutex<Vec<EventFields>>>,
}

impl Recorder {
    /// A recorder of `target`'s events.
    pub fn new(target: &'static str) -> Self {
        Recorder {
            target,
            events: Arc::default(),
        }
    }
}

/// `name`'s value in `event`, or "".
pub fn field(event: &[(String, String)], name: &str) -> String {
    event
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// One event's fields, as (name, value) text.
pub type EventFields = Vec<(String, String)>;

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
        if event.metadata().target() == self.target {
            let mut fields = Vec::new();
            event.record(&mut Fields(&mut fields));
            self.events.lock().unwrap().push(fields);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}
