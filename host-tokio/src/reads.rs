//! What the model read back, for Rust users: [`Materializer::read_stats`] and
//! [`Materializer::unread_refs`] (core's `audit::unread`).

use tool_offload_core::audit;
use tool_offload_core::{FileReader, FileWriter, Value};

use crate::materializer::Materializer;

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// Every result of `messages` shown by reference (a summary's `ctx://` ref, a budget
    /// pointer, an offload placeholder's file), in order, with the later tool calls that
    /// read it back ([`audit::read_stats`]).
    ///
    /// ```
    /// # use tool_offload::{Materializer, MaterializerOptions};
    /// # let m = Materializer::in_dir("/tmp/x", "c1").unwrap();
    /// let messages = [serde_json::json!({"role": "tool", "tool_call_id": "c1",
    ///     "content": "[Content offloaded to: ./tool-result-c1.md]"})];
    /// assert_eq!(m.read_stats(&messages)[0].reads, 0);
    /// assert_eq!(m.unread_refs(&messages), ["tool-result-c1.md"]);
    /// ```
    pub fn read_stats(&self, messages: &[Value]) -> Vec<audit::ShownRef> {
        audit::read_stats(&messages.iter().collect::<Vec<_>>())
    }

    /// The refs of `messages` no later tool call read, in the order they were shown.
    pub fn unread_refs(&self, messages: &[Value]) -> Vec<String> {
        audit::unread_refs(&messages.iter().collect::<Vec<_>>())
    }
}
