//! A tool result found in a message: its slot, its id read when asked, and where the
//! message stands in its list.

use super::slot::Slot;
use crate::error::OffloadError;
use crate::json::view::{JsonView, Text};
use crate::path::{unsafe_component, LONE_SURROGATE};

/// One tool result found in a message.
pub(crate) struct Found<V: JsonView> {
    pub slot: Slot,
    /// The tool-call id's value, checked only when asked for ([`Found::id`]).
    pub(super) id_value: Option<V>,
    pub(super) at: At,
    pub(super) name_bytes: usize,
    /// The content to write: a string as is, an array as its `JSON.stringify`.
    pub text: V::Text,
    /// Whether the content is an array of blocks or another JSON value (so `text` is
    /// JSON).
    pub is_array: bool,
    /// The tool's name when the result itself says it (AI SDK `toolName`, Agents SDK
    /// `name`).
    pub tool_name: Option<String>,
    /// The content as found (for an AI SDK part, its output's `value`), when there is one.
    pub content: Option<V>,
}

impl<V: JsonView> Found<V> {
    /// The content's size in UTF-16 code units.
    pub fn chars(&self) -> usize {
        self.text.utf16_len()
    }

    /// The tool-call id, or why it cannot name a file (missing, not a string, unsafe).
    /// Callers decide whether that matters: only offloaded results need a usable id, so
    /// it is checked (and its error path formatted) only for those.
    pub fn id(&self) -> Result<String, OffloadError> {
        checked_id(
            self.id_value.as_ref(),
            || id_path(self.at, self.slot),
            self.name_bytes,
        )
    }
}

/// Where a message sits, for error messages: alone (direct offload) or in a batch.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At {
    Alone,
    Index(usize),
}

/// Where the id of the tool result at `slot` is read, for error messages:
/// `content[0].tool_use_id`, `messages[3].tool_call_id`, `messages[5].kwargs.tool_call_id`.
pub(crate) fn id_path(at: At, slot: Slot) -> String {
    at.path(&slot_path(slot, slot.id))
}

/// `key` inside the holder of `slot`: `content[2].output`, `kwargs.content`, `call_id`.
pub(super) fn slot_path(slot: Slot, key: &str) -> String {
    let mut path = String::new();
    if let Some(i) = slot.block {
        path = format!("content[{i}].");
    }
    if let Some(holder) = slot.holder {
        path.push_str(holder);
        path.push('.');
    }
    path.push_str(key);
    path
}

impl At {
    /// The message itself: `message` or `messages[3]`.
    pub(crate) fn whole(self) -> String {
        match self {
            At::Alone => "message".to_owned(),
            At::Index(i) => format!("messages[{i}]"),
        }
    }

    /// `rest` located in this message: `content[0].tool_use_id` or `messages[3].content[0].tool_use_id`.
    pub(super) fn path(self, rest: &str) -> String {
        match self {
            At::Alone => rest.to_owned(),
            At::Index(i) => format!("messages[{i}].{rest}"),
        }
    }
}

pub(super) fn checked_id<V: JsonView>(
    value: Option<&V>,
    field: impl FnOnce() -> String,
    name_bytes: usize,
) -> Result<String, OffloadError> {
    let Some(value) = value else {
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: "is missing",
        });
    };
    if value.has_lone_surrogate() {
        // Checked before the id becomes a Rust String, which would hold U+FFFD instead.
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: LONE_SURROGATE,
        });
    }
    let Some(id) = value.to_owned_string() else {
        return Err(OffloadError::InvalidId {
            field: field(),
            value: None,
            reason: "must be a string",
        });
    };
    match unsafe_component(&id, name_bytes) {
        None => Ok(id),
        Some(reason) => Err(OffloadError::InvalidId {
            field: field(),
            value: Some(id),
            reason,
        }),
    }
}
