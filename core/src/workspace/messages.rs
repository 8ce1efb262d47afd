//! `offload_messages`: [`Workspace::offload_tool_result`] over a whole conversation.

use super::knowledge_list::is_knowledge_list;
use super::store::{TokenCounter, ToolResultInput, ToolResultOffload, Workspace};
use crate::materialize::plan_tool_results;
use crate::view::{JsonView, Text};
use crate::{FileReader, FileWriter, Map, OffloadError, Slot};

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
    /// [`crate::Slot`] knows), each as [`Workspace::offload_tool_result`] would, the
    /// tool name from the result or its matching call. Results that already are a
    /// `<knowledge_list>` are left alone, so running this on every turn only stores
    /// what is new; every message is checked before anything is written.
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
    pub async fn offload_messages<V: JsonView, IO: FileWriter + FileReader + ?Sized>(
        &self,
        messages: &[V],
        count_tokens: Option<&TokenCounter<'_>>,
        now_ms: f64,
        io: &IO,
    ) -> Result<MessagesOffloaded, OffloadError> {
        let options = &self.options;
        // Without a counter or listed tools, only results over the threshold's
        // estimate can be stored: the rest are not copied out of the host.
        let by_estimate = count_tokens.is_none() && options.offload_tools.is_empty();
        let most_chars = options.token_threshold.saturating_mul(4);
        let mut done = MessagesOffloaded::default();
        let planned = plan_tool_results(
            messages,
            &mut done.unrecognized,
            |text| !(by_estimate && text.utf16_len_at_most(most_chars)),
            |text| !is_knowledge_list(text),
        )?;
        for p in &planned {
            let input = ToolResultInput {
                tool_call_id: &p.id,
                tool_name: &p.tool_name,
                action_name: None,
                text: &p.text,
                is_json: p.was_value,
                metadata: Map::new(),
            };
            let outcome = self
                .offload_tool_result(&input, count_tokens, now_ms, io)
                .await?;
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
