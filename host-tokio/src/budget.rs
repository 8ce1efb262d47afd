//! [`Materializer::budget`]: clearing old tool results when a history is over budget,
//! restorably (core's `materialize::budget` decides; this counts and applies).

use std::borrow::Cow;

use tool_offload_core::json::stringify;
use tool_offload_core::materialize::{BudgetOptions, Cleared, ContextRef};
use tool_offload_core::{
    apply_edits, estimate_tokens, FileReader, FileWriter, OffloadError, Value,
};

use crate::materializer::Materializer;

/// What [`Materializer::budget`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget<'a> {
    /// The history to send: unchanged messages borrowed, rewritten ones new.
    pub messages: Vec<Cow<'a, Value>>,
    /// The results cleared, oldest first.
    pub cleared: Vec<Cleared>,
    /// The history's tokens as given, by the counter.
    pub tokens_before: usize,
    /// Its tokens as returned, by the counter.
    pub tokens_after: usize,
    /// The first message rewritten (the cached prefix ends before it), if any.
    pub rewritten_from_message: Option<usize>,
    /// Artifacts written for results that were inline, with their paths.
    pub stored: Vec<(ContextRef, String)>,
}

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// Clear old tool results from `messages` when they hold more than
    /// `options.trigger_tokens` tokens (each message counted as its `JSON.stringify`, by
    /// the materializer's [token counter](Materializer::with_token_counter), else
    /// [`estimate_tokens`]): see [`tool_offload_core::materialize::Materializer::budget`].
    /// Send what it returns, then give it that plus the new messages next turn: cleared
    /// results stay cleared, identically.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID`, `WRITE_FAILED`.
    ///
    /// ```no_run
    /// use tool_offload::{BudgetOptions, Materializer, MaterializerOptions};
    /// # async fn demo(history: Vec<serde_json::Value>) -> Result<(), tool_offload::OffloadError> {
    /// let m = Materializer::in_dir("/var/lib/agent", "conv-1")?;
    /// let done = m.budget(&history, &BudgetOptions::new(100_000)).await?;
    /// if let Some(at) = done.rewritten_from_message {
    ///     println!("cleared {} results; the cache is rewritten from message {at}", done.cleared.len());
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn budget<'a>(
        &self,
        messages: &'a [Value],
        options: &BudgetOptions,
    ) -> Result<Budget<'a>, OffloadError> {
        match self.count_tokens.clone() {
            Some(count) => {
                self.try_budget_counted(messages, options, |t| count(t))
                    .await
            }
            None => {
                self.budget_counted(messages, options, estimate_tokens)
                    .await
            }
        }
    }

    /// [`Materializer::budget`] with `count_tokens` counting each message's JSON (an exact
    /// tokenizer, say).
    ///
    /// # Errors
    /// As [`Materializer::budget`].
    pub async fn budget_counted<'a>(
        &self,
        messages: &'a [Value],
        options: &BudgetOptions,
        count_tokens: impl Fn(&str) -> usize,
    ) -> Result<Budget<'a>, OffloadError> {
        self.try_budget_counted(messages, options, |t| Ok(count_tokens(t)))
            .await
    }

    /// [`Materializer::budget_counted`] with a counter that may fail: its first error
    /// is the call's (nothing is written when counting the messages given fails).
    ///
    /// # Errors
    /// As [`Materializer::budget`], and the counter's.
    pub async fn try_budget_counted<'a>(
        &self,
        messages: &'a [Value],
        options: &BudgetOptions,
        count_tokens: impl Fn(&str) -> Result<usize, OffloadError>,
    ) -> Result<Budget<'a>, OffloadError> {
        let tokens: Vec<usize> = messages
            .iter()
            .map(|m| count_tokens(&stringify(m)))
            .collect::<Result<_, _>>()?;
        let views: Vec<&Value> = messages.iter().collect();
        let done = self
            .core()
            .budget(&views, &tokens, options, self.io())
            .await?;
        let mut out: Vec<Cow<'a, Value>> = messages.iter().map(Cow::Borrowed).collect();
        let mut tokens_after = done.tokens_before;
        for (index, edits) in done.changed {
            let mut message = messages[index].clone();
            apply_edits(&mut message, edits);
            tokens_after = tokens_after - tokens[index] + count_tokens(&stringify(&message))?;
            out[index] = Cow::Owned(message);
        }
        Ok(Budget {
            messages: out,
            cleared: done.cleared,
            tokens_before: done.tokens_before,
            tokens_after,
            rewritten_from_message: done.rewritten_from_message,
            stored: done.stored,
        })
    }
}
