//! The tool results of a conversation as text to store, each with its id and its tool's
//! name: what the Materializer materializes and the Workspace offloads, found once.

use super::calls::tool_names;
use super::find::tool_results;
use super::found::At;
use super::slot::Slot;
use super::text::{joined_texts, text_parts};
use crate::error::OffloadError;
use crate::json::view::{JsonView, Kind, Text};

/// One tool result to materialize (or, in a workspace, to offload).
pub(crate) struct Planned {
    /// The message's index.
    pub(crate) message: usize,
    /// Where its content is.
    pub(crate) slot: Slot,
    /// The tool-call id.
    pub(crate) id: String,
    /// The tool's name (`tool` when unknown).
    pub(crate) tool_name: String,
    /// The content as text: a string, text parts joined, else `JSON.stringify`.
    pub(crate) text: String,
    /// Whether `text` is the JSON of a value.
    pub(crate) was_value: bool,
    /// Where its end repeats an earlier planned output's (see
    /// [`SummaryInput::repeated_end`](crate::summary::SummaryInput::repeated_end)).
    pub(crate) repeated_end: Option<usize>,
}

/// Every tool result of `messages` whose content `may_keep` (cheaply, before it is
/// copied out of the host) and `keep` (as text, with the tool's name) — checked, its tool
/// name found; nothing written. Items of no shape we know go to `unrecognized`. With
/// `skip_bad_ids`, a kept result whose id cannot name a file is left out instead of
/// failing the call.
///
/// # Errors
/// `INVALID_MESSAGE`, `INVALID_ID`.
pub(crate) fn plan_tool_results<V: JsonView>(
    messages: &[V],
    unrecognized: &mut Vec<String>,
    skip_bad_ids: bool,
    may_keep: &dyn Fn(&V::Text) -> bool,
    keep: &dyn Fn(&str, &str) -> Result<bool, OffloadError>,
) -> Result<Vec<Planned>, OffloadError> {
    // Built only when something is kept: a turn with nothing new skips it.
    let mut names = None;
    let mut planned = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        for found in tool_results(message, At::Index(index), ".json".len(), unrecognized)? {
            if !may_keep(&found.text) {
                continue;
            }
            // Text parts are stored as the text they hold (`.txt`, real lines to read
            // back), anything else in an array as its JSON.
            // Other parts (images, files) stay in the message beside the summary, and
            // are never turned into text: content of such parts only stays as it is.
            let parts = match &found.content {
                // One text part alone (the Agents SDK's `{ type: "text", text }` output):
                // its text, so its lines read back as lines.
                Some(content) if content.kind() == Kind::Object => {
                    joined_texts(content).map(|text| (text, false))
                }
                Some(content) if found.is_array => text_parts(content),
                _ => None,
            };
            let mut slot = found.slot;
            let joined = parts.map(|(joined, others)| {
                if others {
                    slot.form = slot.form.keeping_parts();
                }
                joined
            });
            let was_value = found.is_array && joined.is_none();
            let text = match joined {
                Some(joined) => std::borrow::Cow::Owned(joined),
                None => found.text.to_str(),
            };
            let id = found.id();
            let tool_name = match (found.tool_name, &id) {
                (Some(name), _) => name,
                (None, Ok(id)) => names
                    .get_or_insert_with(|| tool_names(messages))
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| "tool".into()),
                (None, Err(_)) => "tool".into(),
            };
            if !keep(&text, &tool_name)? {
                continue;
            }
            let id = match id {
                Err(_) if skip_bad_ids => continue,
                id => id?,
            };
            planned.push(Planned {
                message: index,
                slot,
                tool_name,
                id,
                text: text.into_owned(),
                was_value,
                repeated_end: None,
            });
        }
    }
    Ok(planned)
}
