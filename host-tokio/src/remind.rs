//! The reminder [`materialize_messages_with`](crate::materializer::Materializer::materialize_messages_with)
//! adds when asked: the unread results that reported errors (core's `audit::unread`).

use std::borrow::Cow;

use tool_offload_core::audit::{self, Reminded};
use tool_offload_core::Value;

/// Options of [`Materializer::materialize_messages_with`](crate::materializer::Materializer::materialize_messages_with).
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
