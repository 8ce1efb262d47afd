//! The Materializer's limits relative to the conversation, for `materialize_messages`:
//! `message_budget_chars` and `context_window`, by the rules of
//! [`crate::limits::message_budget`].

use super::materializer::Materializer;
use crate::json::view::{JsonView, Text};
use crate::limits::message_budget::pick_largest;
use crate::limits::tool_limits::MaterializeWhen;
use crate::message::{plan_tool_results, Planned};
use crate::text::measure::Measure;
use crate::tokens::over_limit;
use crate::{error::OffloadError, text::utf16_len, tokens::estimate_tokens, tokens::TokenCounter};

impl Materializer {
    /// What to materialize in `messages` under the message budget and the context window:
    /// the results over their limits (as without them) or over their share of the window,
    /// and in each message the largest fresh ones (the first of equals first) until the
    /// fresh ones left inline total at most the budget. Results of tools that are never
    /// materialized, what already stands for stored content ([`crate::forms::stored_form::stored_form`]) and
    /// results whose id cannot name a file are never picked for the budget.
    ///
    /// # Errors
    /// As [`Materializer::materialize_messages`]: `INVALID_MESSAGE`, `INVALID_ID` (for a
    /// result over its limits).
    pub(super) fn plan_fresh<V: JsonView>(
        &self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Vec<Planned>, OffloadError> {
        let budget = self.options().message_budget_chars.unwrap_or(usize::MAX);
        let fresh =
            plan_tool_results(messages, &mut Vec::new(), true, &|_| true, &|text, tool| {
                Ok(self.limits_for(tool).when != Some(MaterializeWhen::Never)
                    && crate::forms::stored_form::stored_form(text).is_none())
            })?;
        let over = self.over_limit_or_window(messages, &fresh, count_tokens)?;
        let message: Vec<usize> = fresh.iter().map(|p| p.message).collect();
        let chars: Vec<usize> = fresh.iter().map(|p| utf16_len(&p.text)).collect();
        let picked = pick_largest(&message, &chars, over, budget);
        Ok(fresh
            .into_iter()
            .zip(picked)
            .filter_map(|(p, picked)| picked.then_some(p))
            .collect())
    }

    /// For each of `fresh`, whether it is over its tool's limits or over its share of the
    /// window, which the messages before it leave free. Tokens by the host's counter
    /// when given, else the estimate; a message that cannot be serialised counts for
    /// nothing.
    fn over_limit_or_window<V: JsonView>(
        &self,
        messages: &[V],
        fresh: &[Planned],
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Vec<bool>, OffloadError> {
        let tokens = |text: &str| match count_tokens {
            Some(count) => count(text),
            None => Ok(estimate_tokens(text)),
        };
        let mut room = Vec::new();
        if let Some(window) = self.options().context_window {
            let mut before = 0;
            for m in messages {
                room.push(window.limit_after(before));
                before += match m.text() {
                    Ok(text) => tokens(&text.to_str())?,
                    Err(_) => 0,
                };
            }
        }
        let mut over = Vec::with_capacity(fresh.len());
        for p in fresh {
            let measure = Measure::of(&p.text);
            let limits = self.counted_exceeds(&measure, &p.text, &p.tool_name, count_tokens)?;
            over.push(
                limits
                    || match room.get(p.message) {
                        Some(&room) => over_limit(&p.text, room, count_tokens)?,
                        None => false,
                    },
            );
        }
        Ok(over)
    }
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;
    use serde_json::{json, Value};

    use crate::materialize::{
        MaterializeWhen, Materializer, MaterializerOptions, MessagesMaterialized, ToolLimits,
    };
    use crate::{memory::MemoryWriter, message::apply_edits};

    fn result(id: &str, chars: usize) -> Value {
        let text: String = (0..chars / 10).map(|i| format!("line {i:04}\n")).collect();
        json!({"type": "tool_result", "tool_use_id": id, "content": text})
    }

    fn turn(results: Vec<Value>) -> Vec<Value> {
        let calls: Vec<Value> = results
            .iter()
            .map(|r| json!({"type": "tool_use", "id": r["tool_use_id"], "name": "bash", "input": {}}))
            .collect();
        vec![
            json!({"role": "assistant", "content": calls}),
            json!({"role": "user", "content": results}),
        ]
    }

    fn run(m: &Materializer, messages: &[Value]) -> (MessagesMaterialized, Vec<Value>) {
        let views: Vec<&Value> = messages.iter().collect();
        let done = block_on(m.materialize_messages(&views, &MemoryWriter::new())).unwrap();
        let mut out = messages.to_vec();
        for (index, edits) in done.changed.clone() {
            apply_edits(&mut out[index], edits);
        }
        (done, out)
    }

    fn ids(done: &MessagesMaterialized) -> Vec<String> {
        done.refs
            .iter()
            .map(|r| r.hint.tool_call_id.clone())
            .collect()
    }

    fn materializer(budget: Option<usize>) -> Materializer {
        let mut options = MaterializerOptions::new("/d", "c1", "/");
        options.message_budget_chars = budget;
        Materializer::new(options).unwrap()
    }

    #[test]
    fn the_largest_fresh_results_go_until_the_rest_fit() {
        // Five results under the 4,000 limit: 3,500 + 3,000 + 3,500 + 1,000 + 2,000 = 13,000.
        let messages = turn(vec![
            result("a", 3500),
            result("b", 3000),
            result("c", 3500),
            result("d", 1000),
            result("e", 2000),
        ]);
        let (done, _) = run(&materializer(None), &messages);
        assert!(done.refs.is_empty(), "off by default");
        // Budget 6,000: a (3,500, the first of equals), then c: 6,000 left fit.
        let m = materializer(Some(6000));
        let (done, out) = run(&m, &messages);
        assert_eq!(ids(&done), ["a", "c"]);
        // Budget 5,999: b (3,000) too, and the refs come in walk order.
        let (done, _) = run(&materializer(Some(5999)), &messages);
        assert_eq!(ids(&done), ["a", "b", "c"]);
        // Idempotent: the rest fit, the summaries are not fresh.
        let (again, _) = run(&m, &out);
        assert!(again.refs.is_empty() && again.changed.is_empty());
        // Exactly at the budget: nothing.
        let (done, _) = run(&materializer(Some(13_000)), &messages);
        assert!(done.refs.is_empty());
        let (done, _) = run(&materializer(Some(12_999)), &messages);
        assert_eq!(ids(&done), ["a"]);
    }

    #[test]
    fn each_message_has_its_own_budget() {
        let mut messages = turn(vec![result("a", 3500), result("b", 3000)]);
        messages.extend(turn(vec![result("c", 3000), result("d", 3500)]));
        let (done, _) = run(&materializer(Some(5000)), &messages);
        assert_eq!(ids(&done), ["a", "d"]);
    }

    #[test]
    fn results_over_their_limits_go_anyway_and_count_for_nothing() {
        let messages = turn(vec![
            result("big", 9000),
            result("x", 3000),
            result("y", 3000),
        ]);
        let (done, _) = run(&materializer(Some(5000)), &messages);
        assert_eq!(ids(&done), ["big", "x"]);
    }

    #[test]
    fn never_materialized_tools_and_other_messages_are_left_alone() {
        let mut options = MaterializerOptions::new("/d", "c1", "/");
        options.message_budget_chars = Some(4000);
        options.tools = vec![(
            "bash".into(),
            ToolLimits {
                materialize: Some(MaterializeWhen::Never),
                ..ToolLimits::default()
            },
        )];
        let m = Materializer::new(options).unwrap();
        let messages = turn(vec![result("a", 3500), result("b", 3500)]);
        let (done, _) = run(&m, &messages);
        assert!(done.refs.is_empty());
        // Per message: two messages of 3,500 each stay under a 4,000 budget.
        let mut two = turn(vec![result("a", 3500)]);
        two.extend(turn(vec![result("b", 3500)]));
        let (done, _) = run(&materializer(Some(4000)), &two);
        assert!(done.refs.is_empty());
    }

    #[test]
    fn an_unusable_id_under_the_limits_stays_inline() {
        let messages = turn(vec![result("../x", 3500), result("ok", 3500)]);
        let (done, _) = run(&materializer(Some(1000)), &messages);
        assert_eq!(ids(&done), ["ok"]);
        // Over its limits it is refused, as without a budget.
        let bad = turn(vec![result("../x", 9000)]);
        let views: Vec<&Value> = bad.iter().collect();
        let err =
            block_on(materializer(Some(1000)).materialize_messages(&views, &MemoryWriter::new()))
                .unwrap_err();
        assert_eq!(err.code().as_str(), "INVALID_ID");
    }

    #[test]
    fn a_result_may_take_a_share_of_the_window_the_history_before_it_leaves() {
        use crate::materialize::ContextWindow;
        let mut options = MaterializerOptions::new("/d", "c1", "/");
        options.max_inline_chars = 1_000_000;
        options.max_inline_bytes = 4_000_000;
        options.context_window = Some(ContextWindow::new(20_000));
        let m = Materializer::new(options.clone()).unwrap();
        // 20,000 characters: 12,000 estimated tokens, over a quarter of the window.
        let mut messages = turn(vec![result("big", 20_000)]);
        // 1,000 characters after it: 600 tokens, within a quarter of what is left (~2,000).
        messages.extend(turn(vec![result("small", 1_000)]));
        // 12,000 characters: 7,200 tokens, over a quarter of what the two before left.
        messages.extend(turn(vec![result("late", 12_000)]));
        let (done, out) = run(&m, &messages);
        assert_eq!(ids(&done), ["big", "late"]);
        let (again, _) = run(&m, &out);
        assert!(
            again.refs.is_empty(),
            "stable: the history before a result never grows"
        );
        // Without the window, all stay inline at these limits.
        options.context_window = None;
        let (done, _) = run(&Materializer::new(options.clone()).unwrap(), &messages);
        assert!(done.refs.is_empty());
        for share in [0.0, -0.5, 1.5, f64::NAN] {
            options.context_window = Some(ContextWindow {
                tokens: 10,
                result_share: share,
            });
            let err = Materializer::new(options.clone()).unwrap_err();
            assert_eq!(err.code().as_str(), "INVALID_ARGUMENT", "{share}");
        }
    }

    /// With a host's counter, the window's shares come from its counts: of the history
    /// and of each result. Its error fails the call before anything is written.
    #[test]
    fn the_window_counts_by_the_hosts_counter_when_given() {
        use crate::error::OffloadError;
        use crate::materialize::ContextWindow;
        let mut options = MaterializerOptions::new("/d", "c1", "/");
        options.max_inline_chars = 1_000_000;
        options.max_inline_bytes = 4_000_000;
        options.context_window = Some(ContextWindow::new(20_000));
        let m = Materializer::new(options).unwrap();
        let mut messages = turn(vec![result("big", 20_000)]);
        messages.extend(turn(vec![result("late", 12_000)]));
        let views: Vec<&Value> = messages.iter().collect();
        let fs = MemoryWriter::new();
        let counted = |count: &crate::tokens::TokenCounter<'_>| {
            block_on(m.materialize_messages_counted(&views, Some(count), &fs))
        };
        // Ten bytes a token: 2,000 and 1,200 tokens, within a quarter of the window.
        let tenths = |text: &str| Ok(text.len() / 10);
        assert!(counted(&tenths).unwrap().refs.is_empty());
        // A byte a token: 20,000 is over 5,000; 12,000 over a quarter of what is left.
        let bytes = |text: &str| Ok(text.len());
        assert_eq!(ids(&counted(&bytes).unwrap()), ["big", "late"]);
        // Four bytes a token: the first 12,000-byte result (3,000) is within 5,000; the
        // 18,000-byte one after it (4,500) is over what the first left (~4,230), though
        // within a quarter of the whole window.
        let mut messages = turn(vec![result("first", 12_000)]);
        messages.extend(turn(vec![result("second", 18_000)]));
        let views: Vec<&Value> = messages.iter().collect();
        let quarters = |text: &str| Ok(text.len() / 4);
        let done = block_on(m.materialize_messages_counted(&views, Some(&quarters), &fs));
        assert_eq!(ids(&done.unwrap()), ["second"]);
        // Exactly a quarter of the window stays (only results counted here).
        let messages = turn(vec![result("exact", 20_000)]);
        let views: Vec<&Value> = messages.iter().collect();
        let results_only = |text: &str| {
            Ok(if text.starts_with("line") {
                text.len() / 4
            } else {
                0
            })
        };
        let done = block_on(m.materialize_messages_counted(&views, Some(&results_only), &fs));
        assert!(done.unwrap().refs.is_empty());
        let fails = |_: &str| Err(OffloadError::InvalidArgument("no count".into()));
        let untouched = MemoryWriter::new();
        let err = block_on(m.materialize_messages_counted(&views, Some(&fails), &untouched));
        assert_eq!(err.unwrap_err().code().as_str(), "INVALID_ARGUMENT");
        assert!(untouched.files().is_empty());
    }

    /// A result over its token limit by the counter is counted once, not again when
    /// stored; with `redact` it is decided again on the text that is written.
    #[test]
    fn a_counted_result_is_counted_once_unless_redacted() {
        let mut options = MaterializerOptions::new("/d", "c1", "/");
        let limits = ToolLimits {
            max_inline_tokens: Some(100),
            ..ToolLimits::default()
        };
        options.tools = vec![("*".into(), limits)];
        let messages = turn(vec![result("r", 3000)]);
        let views: Vec<&Value> = messages.iter().collect();
        for (redact, calls) in [(false, 1), (true, 2)] {
            options.redact = redact.into();
            let m = Materializer::new(options.clone()).unwrap();
            let asked = std::cell::Cell::new(0);
            let words = |text: &str| {
                asked.set(asked.get() + 1);
                Ok(text.split(' ').count())
            };
            let fs = MemoryWriter::new();
            let done = block_on(m.materialize_messages_counted(&views, Some(&words), &fs));
            assert_eq!(ids(&done.unwrap()), ["r"]);
            assert_eq!(asked.get(), calls, "redact: {redact}");
        }
    }
}
