//! The Materializer's budget: the rule of [`crate::limits::budget`], with the results that
//! were inline stored as the Materializer stores them.

use super::materializer::Materializer;
use super::types::Materialized;
use crate::error::OffloadError;
use crate::io::{FileReader, FileWriter};
use crate::json::view::JsonView;
use crate::limits::budget::{BudgetOptions, Budgeted, Choice};

impl Materializer {
    /// Clear old tool results when the history is over budget. `message_tokens` are the
    /// tokens of each message as the host counts them (`JSON.stringify` of it, counted
    /// by [`estimate_tokens`](crate::tokens::estimate_tokens) or the caller's tokenizer).
    /// When their sum exceeds `trigger_tokens`, the tool results before the last
    /// `keep_last` (not of `exclude_tools`, nothing that already stands for stored content
    /// but a summary or a page the read tools returned:
    /// [`crate::forms::stored_form::stored_form`]) are cleared oldest first until the history is at most half the trigger — if that saves at least
    /// `clear_at_least_tokens`; otherwise nothing changes. A result is cleared into
    /// [`cleared_pointer`](crate::forms::pointer::cleared_pointer) naming its ref: a
    /// summary's own, or a new artifact's for a result that was inline (written first,
    /// whatever its size); a page into
    /// [`cleared_page_pointer`](crate::forms::pointer::cleared_page_pointer), naming the
    /// call (tool and input) that returns it again.
    /// A page whose call is no longer in the history stays.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID`, `WRITE_FAILED`; `INVALID_ARGUMENT` when
    /// `message_tokens` is not one count per message.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{BudgetOptions, Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap();
    /// let result = |id: &str| json!({"role": "tool", "tool_call_id": id, "content": "ok\n".repeat(900)});
    /// let messages = [result("a"), result("b"), result("c"), result("d")];
    /// let views: Vec<_> = messages.iter().collect();
    /// let fs = MemoryWriter::new();
    /// let options = BudgetOptions { keep_last: 2, ..BudgetOptions::new(2_000) };
    /// let done = futures_executor::block_on(m.budget(&views, &[2_200; 4], &options, &fs)).unwrap();
    /// // 8,800 tokens, over 2,000: the two oldest go, the last two stay.
    /// assert_eq!(done.cleared.len(), 2);
    /// assert_eq!(done.rewritten_from_message, Some(0));
    /// assert!(done.changed[0].1[0].1.starts_with("[Earlier output of tool (call a, 2,700 chars) cleared"));
    /// assert_eq!(fs.read("/data/context/c1/artifacts/tool/a.txt").unwrap(), "ok\n".repeat(900));
    /// ```
    pub async fn budget<V: JsonView, IO: FileWriter + FileReader + ?Sized>(
        &self,
        messages: &[V],
        message_tokens: &[usize],
        options: &BudgetOptions,
        io: &IO,
    ) -> Result<Budgeted, OffloadError> {
        let choice = Choice::of(messages, message_tokens, options)?;
        let stored = self.store_planned(&choice.inline(), true, None, io).await?;
        Ok(choice.finish(stored.into_iter().map(|m| match m {
            Materialized::Artifact {
                reference, path, ..
            } => Some((reference, path)),
            _ => None,
        })))
    }
}

#[cfg(test)]
#[path = "budget_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "budget_pages_tests.rs"]
mod pages_tests;
