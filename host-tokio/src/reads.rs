//! What the model read back, for Rust users: [`Materializer::read_stats`],
//! [`Materializer::unread_refs`], and the reminder
//! [`Materializer::materialize_messages_with`] adds (core's `audit::unread`).

use std::borrow::Cow;

use tool_offload_core::audit::{self, Reminded};
use tool_offload_core::{FileReader, FileWriter, Value};

use crate::Materializer;

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// Every result of `messages` shown by reference (a summary's `ctx://` ref, a budget
    /// pointer, an offload placeholder's file), in order, with the later tool calls that
    /// read it back ([`audit::read_stats`]).
    ///
    /// ```
    /// # use tool_offload::{Materializer, MaterializerOptions};
    /// # let m = Materializer::new(MaterializerOptions::new("/tmp/x", "c1")).unwrap();
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

/// Options of [`Materializer::materialize_messages_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MaterializeMessagesOptions {
    /// Name the unread results that reported errors at the end of the last user turn.
    pub remind_unread: bool,
}

impl MaterializeMessagesOptions {
    /// The options with the unread reminder on.
    ///
    /// ```
    /// assert!(tool_offload::MaterializeMessagesOptions::reminding().remind_unread);
    /// ```
    pub fn reminding() -> Self {
        MaterializeMessagesOptions {
            remind_unread: true,
        }
    }
}

/// `out` with the unread reminder at the end of the last user turn: the last message
/// replaced by a copy with it, or a user message added; nothing else copied.
pub(crate) fn remind(out: &mut Vec<Cow<'_, Value>>) {
    let views: Vec<&Value> = out.iter().map(AsRef::as_ref).collect();
    let Some(line) = audit::unread_reminder(&views) else {
        return;
    };
    match audit::reminder_edit(out.last().map(AsRef::as_ref), &line) {
        Some(Reminded::Replace(last)) => {
            if let Some(slot) = out.last_mut() {
                *slot = Cow::Owned(last);
            }
        }
        Some(Reminded::Push(message)) => out.push(Cow::Owned(message)),
        None => {}
    }
}
