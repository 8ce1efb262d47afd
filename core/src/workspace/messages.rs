//! `offload_messages`: [`Workspace::offload_tool_result`] over a whole conversation.

use super::decide::{surely_kept_chars, Decision};
use super::io_types::{TokenCounter, ToolResultInput, ToolResultOffload};
use super::store::Workspace;
use crate::json::view::{JsonView, Text};
use crate::message::{plan_tool_results, Planned};
use crate::{error::OffloadError, io::FileReader, io::FileWriter, message::Slot};
use serde_json::Map;

/// What [`Workspace::offload_messages`] did, as edits for the host to apply to its own
/// copies of the messages.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MessagesOffloaded {
    /// For each changed message, by index: slot → `<knowledge_list>` edits.
    pub changed: Vec<(usize, Vec<(Slot, String)>)>,
    /// Each tool result considered, in walk order: its message index and outcome.
    pub results: Vec<(usize, ToolResultOffload)>,
    /// Paths of the items that look like tool results but are of no shape we know.
    pub unrecognized: Vec<String>,
}

impl Workspace {
    /// Offload every tool result of a conversation (Anthropic `tool_result`, OpenAI
    /// `role: "tool"`, Responses `function_call_output`, and the other shapes
    /// [`crate::message::Slot`] knows), each as [`Workspace::offload_tool_result`] would, the
    /// tool name from the result or its matching call. Results that already stand for
    /// stored content (a `<knowledge_list>`: [`crate::forms::stored_form::stored_form`]) are left alone, so
    /// running this on every turn only stores what is new; every message is checked
    /// before anything is written.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID` (before anything is written), the token counter's
    /// error, and as [`Workspace::offload_tool_result`].
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::workspace::{Workspace, WorkspaceOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let ws = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
    /// let messages = [
    ///     json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]}),
    ///     json!({"role": "tool", "tool_call_id": "call_1", "content": "x\n".repeat(30_000)}),
    /// ];
    /// let views: Vec<_> = messages.iter().collect();
    /// let done = futures_executor::block_on(ws.offload_messages(&views, None, 0.0, &MemoryWriter::new())).unwrap();
    /// assert_eq!(done.changed[0].0, 1);
    /// assert!(done.changed[0].1[0].1.starts_with("<knowledge_list>\n<knowledge id=\"tool_result_call_1\""));
    /// ```
    pub fn offload_messages<'a, V: JsonView, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
        now_ms: f64,
        io: &'a IO,
    ) -> impl std::future::Future<Output = Result<MessagesOffloaded, OffloadError>> + 'a {
        // Everything but the stores runs now, the token counter included: the future
        // holds neither it nor the messages (see `offload_tool_result`).
        let planned = self.plan(messages, count_tokens);
        async move {
            let (planned, unrecognized) = planned?;
            let mut done = MessagesOffloaded {
                unrecognized,
                ..MessagesOffloaded::default()
            };
            for (p, decision) in planned {
                let outcome = self.carry_out(&input(&p), decision, now_ms, io).await?;
                if let Some(list) = &outcome.replacement {
                    match done.changed.last_mut() {
                        Some((index, edits)) if *index == p.message => {
                            edits.push((p.slot, list.clone()))
                        }
                        _ => done.changed.push((p.message, vec![(p.slot, list.clone())])),
                    }
                }
                done.results.push((p.message, outcome));
            }
            Ok(done)
        }
    }

    /// The tool results of `messages` worth considering, each with its decision, and
    /// the paths of items of no shape we know.
    #[allow(clippy::type_complexity)]
    fn plan<V: JsonView>(
        &self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<(Vec<(Planned, Option<Decision>)>, Vec<String>), OffloadError> {
        let options = &self.options;
        // Without a counter or listed tools, only results over the thresholds' estimate
        // (or a tool's size limits) can be stored: the rest are not copied out of the host.
        // With `redact`, every result is looked at: what stays inline is redacted too.
        let by_estimate =
            count_tokens.is_none() && options.offload_tools.is_empty() && !options.redact.is_on();
        let most_chars = surely_kept_chars(options);
        let mut unrecognized = Vec::new();
        let planned = plan_tool_results(
            messages,
            &mut unrecognized,
            false,
            &|text| !(by_estimate && text.utf16_len_at_most(most_chars)),
            &|text, _| Ok(crate::forms::stored_form::stored_form(text).is_none()),
        )?;
        let mut decided = Vec::with_capacity(planned.len());
        for p in planned {
            let decision = self.decide(&input(&p), count_tokens)?;
            decided.push((p, decision));
        }
        Ok((decided, unrecognized))
    }
}

/// A planned tool result as [`Workspace::offload_tool_result`] takes it.
fn input(p: &Planned) -> ToolResultInput<'_> {
    ToolResultInput {
        tool_call_id: &p.id,
        tool_name: &p.tool_name,
        action_name: None,
        text: &p.text,
        is_json: p.was_value,
        metadata: Map::new(),
        known: Default::default(),
    }
}
