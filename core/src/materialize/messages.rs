//! Native function-calling mode: every oversize tool result in a conversation gets its
//! summary as content.

use super::materializer::Materializer;
use super::types::Materialized;
use crate::forms::context_ref::ContextRef;
use crate::json::view::{JsonView, Text};
use crate::message::{plan_tool_results, Planned};
use crate::summary::ToolOutputRef;
use crate::text::measure::Measure;
use crate::{
    error::OffloadError, io::FileReader, io::FileWriter, message::Slot, tokens::TokenCounter,
};

/// What [`Materializer::materialize_messages`] did, as edits for the host to apply to
/// its own copies of the messages.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MessagesMaterialized {
    /// For each changed message, by index: slot → summary edits.
    pub changed: Vec<(usize, Vec<(Slot, String)>)>,
    /// The refs of the artifacts written, in walk order.
    pub refs: Vec<ContextRef>,
    /// Their absolute paths, in the same order.
    pub paths: Vec<String>,
    /// Paths of the items that look like tool results but are of no shape we know
    /// (`messages[3]`, `messages[2].content[1]`): reported, never silently skipped.
    pub unrecognized: Vec<String>,
}

impl Materializer {
    /// Materialize every tool result over the limits in a conversation: Anthropic
    /// `tool_result` blocks, OpenAI Chat `role: "tool"` messages, OpenAI Responses
    /// `function_call_output` items, and the AI SDK's, Agents SDK's and LangChain's
    /// tool results (see [`crate::message::Slot`]). A string content is measured as is; an array
    /// of text parts (`{ type: "text", text }`) as its texts joined with newlines (a
    /// `.txt` artifact, with real lines to read back); any other array or value as its
    /// `JSON.stringify` (a `.json` artifact). The tool's name comes from the result
    /// itself (AI SDK `toolName`, Agents SDK `name`), else from the call that asked for it
    /// (`tool_use`, `tool_calls`, `function_call`), `tool` when there is none.
    ///
    /// Content that already is a summary is left alone, so running this on every turn
    /// only materializes what is new. A result whose id already names a different
    /// artifact (the same id twice, or an id reused on a later turn) gets `<id>-1`,
    /// `<id>-2`…: no artifact is ever overwritten. Every message is
    /// checked before anything is written. Only materialized results count in
    /// [`Materializer::stats`].
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID` (before anything is written), `WRITE_FAILED`.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/data", "c1", "/")).unwrap();
    /// let messages = [
    ///     json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]}),
    ///     json!({"role": "tool", "tool_call_id": "call_1", "content": "x\n".repeat(5000)}),
    /// ];
    /// let views: Vec<_> = messages.iter().collect();
    /// let fs = MemoryWriter::new();
    /// let done = futures_executor::block_on(m.materialize_messages(&views, &fs)).unwrap();
    /// assert_eq!(done.refs[0].id, "ctx://c1/tool/call_1.txt");
    /// assert_eq!(done.changed[0].0, 1);
    /// assert!(done.changed[0].1[0].1.starts_with("[Output of bash (call call_1) stored as ctx://c1/tool/call_1.txt"));
    /// ```
    pub async fn materialize_messages<V: JsonView, IO: FileWriter + FileReader + ?Sized>(
        &self,
        messages: &[V],
        io: &IO,
    ) -> Result<MessagesMaterialized, OffloadError> {
        self.materialize_messages_counted(messages, None, io).await
    }

    /// [`Materializer::materialize_messages`] with tokens (`maxInlineTokens`, the context
    /// window) counted by `count_tokens` when given: the host's tokenizer, asked only
    /// about text longer in UTF-8 bytes than the limit it is checked against.
    ///
    /// # Errors
    /// As [`Materializer::materialize_messages`], and the counter's own (nothing is then
    /// written).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions, ToolLimits};
    /// use tool_offload_core::{MemoryWriter, OffloadError};
    /// let mut options = MaterializerOptions::new("/data", "c1", "/");
    /// options.tools = vec![("*".into(), ToolLimits { max_inline_tokens: Some(100), ..ToolLimits::default() })];
    /// let m = Materializer::new(options).unwrap();
    /// let result = |text: &str| [
    ///     json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]}),
    ///     json!({"role": "tool", "tool_call_id": "call_1", "content": text}),
    /// ];
    /// let words = |text: &str| Ok::<_, OffloadError>(text.split(' ').count());
    /// let fs = MemoryWriter::new();
    /// // 150 words, 600 bytes: over 100 tokens by the counter.
    /// let messages = result(&["word"; 150].join(" "));
    /// let views: Vec<_> = messages.iter().collect();
    /// let done = futures_executor::block_on(m.materialize_messages_counted(&views, Some(&words), &fs)).unwrap();
    /// assert_eq!(done.refs.len(), 1);
    /// // 90 words: within, though the estimate says more.
    /// let messages = result(&["alphabetical"; 90].join(" "));
    /// let views: Vec<_> = messages.iter().collect();
    /// let done = futures_executor::block_on(m.materialize_messages_counted(&views, Some(&words), &fs)).unwrap();
    /// assert!(done.refs.is_empty());
    /// ```
    pub fn materialize_messages_counted<'a, V: JsonView, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
        io: &'a IO,
    ) -> impl std::future::Future<Output = Result<MessagesMaterialized, OffloadError>> + 'a {
        // Everything but the writes runs now, the counter included: the future holds
        // neither it nor the messages (see `store`).
        let decided = self.plan_and_decide(messages, count_tokens);
        async move {
            let (mut done, planned, always, stores) = decided?;
            let all: Vec<&Planned> = planned.iter().collect();
            let stored = self
                .store_planned(&all, always, stores.as_deref(), io)
                .await?;
            for (p, stored) in planned.iter().zip(stored) {
                let content = match stored {
                    Materialized::Inline => continue,
                    // Within the limits, its secrets replaced.
                    Materialized::Redacted { content } => content,
                    Materialized::Artifact {
                        summary,
                        reference,
                        path,
                    } => {
                        done.refs.push(reference);
                        done.paths.push(path);
                        summary
                    }
                };
                match done.changed.last_mut() {
                    Some((index, edits)) if *index == p.message => edits.push((p.slot, content)),
                    _ => done.changed.push((p.message, vec![(p.slot, content)])),
                }
            }
            Ok(done)
        }
    }

    /// The results of `messages` to consider, whether each is stored whatever its size
    /// and, with a counter, whether each is stored (decided now, as the counter must be).
    #[allow(clippy::type_complexity)]
    fn plan_and_decide<V: JsonView>(
        &self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<(MessagesMaterialized, Vec<Planned>, bool, Option<Vec<bool>>), OffloadError> {
        let mut done = MessagesMaterialized::default();
        let mut planned = self.plan(messages, &mut done.unrecognized, count_tokens)?;
        // What an output shares with the outputs before it, named instead of shown:
        // decided on earlier outputs only, so a summary never changes as turns are added.
        let texts: Vec<&str> = planned.iter().map(|p| p.text.as_str()).collect();
        let ends = crate::summary::repeated_ends(&texts);
        for (p, end) in planned.iter_mut().zip(ends) {
            p.repeated_end = end;
        }
        // Under a message budget or a window some are planned though within their
        // limits: stored whatever their size.
        let o = self.options();
        let always = o.message_budget_chars.is_some() || o.context_window.is_some();
        let all: Vec<&Planned> = planned.iter().collect();
        let (always, stores) = match count_tokens {
            None => (always, None),
            // Planned on the text that is stored: each is stored, counted once.
            Some(_) if !o.redact.is_on() => (true, None),
            // Redacted, a text is decided again as it will be written.
            Some(_) => (
                always,
                Some(self.decide_planned(&all, always, count_tokens)?),
            ),
        };
        Ok((done, planned, always, stores))
    }

    /// Every tool result that will be materialized, checked; nothing written.
    fn plan<V: JsonView>(
        &self,
        messages: &[V],
        unrecognized: &mut Vec<String>,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Vec<Planned>, OffloadError> {
        // Always walked first: it reports unrecognized items and refuses a result over
        // its limits whose id cannot name a file, which the walk of fresh results (ids
        // unchecked there) must not let through.
        let over = self.plan_over_limits(messages, unrecognized, count_tokens)?;
        let o = self.options();
        if o.message_budget_chars.is_none() && o.context_window.is_none() {
            return Ok(over);
        }
        self.plan_fresh(messages, count_tokens)
    }

    /// The results over their tool's limits.
    fn plan_over_limits<V: JsonView>(
        &self,
        messages: &[V],
        unrecognized: &mut Vec<String>,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Vec<Planned>, OffloadError> {
        // Small text stays inline, whatever the tool, without being copied out of the
        // host to be measured — unless `redact` must look at every result, whatever its
        // size, since what the model is given inline is redacted too.
        let redact = self.options().redact.is_on();
        let inline = self.surely_inline_any(count_tokens.is_some());
        plan_tool_results(
            messages,
            unrecognized,
            false,
            &|text| redact || !text.utf16_len_at_most(inline),
            &|text, tool| {
                // What stands for stored content first: it is never counted.
                if crate::forms::stored_form::stored_form(text).is_some() {
                    return Ok(false);
                }
                Ok(
                    self.counted_exceeds(&Measure::of(text), text, tool, count_tokens)?
                        || redact
                            && matches!(
                                self.options().redact.apply(text).text,
                                std::borrow::Cow::Owned(_)
                            ),
                )
            },
        )
    }
}

/// A planned tool result as an output to store.
pub(super) fn output_of(p: &Planned) -> ToolOutputRef<'_> {
    ToolOutputRef {
        tool_call_id: &p.id,
        tool_name: &p.tool_name,
        server_name: None,
        text: &p.text,
        was_value: p.was_value,
    }
}
