//! Replaying a conversation turn by turn under a context policy, and measuring what the
//! model is sent: characters and tokens over all turns, what a prompt cache makes of
//! them, whether each turn only extends the one before, and whether the previews of the
//! results a policy shrank kept the identifiers the agent went on to use. No IO: the host
//! runs the policy (a Materializer, an offload) and hands each turn's history to a
//! [`Tally`]. `tool-offload replay` is the host that prints it.
//!
//! A turn is the request at an assistant message: it sends every message before it
//! ([`turns`]). Preview sufficiency pairs each shrunk result with the identifier-like
//! strings ([`identifiers`]: paths, file names, error codes, 3+ digit numbers,
//! snake/camel identifiers) that the agent used after it and that the result held; a pair
//! is visible when the identifier occurs ([`occurs`]) in what was sent for the result.

mod analysis;
mod anchors;
mod head_tail;
mod history;
mod messages;
mod needles;
mod tally;

pub use crate::identifiers::{identifiers, occurs, Kind as IdentifierKind, Words};
pub use analysis::{Analysis, Pair, ResultFacts};
pub use anchors::{
    agents_trimmed, claude_code_persisted, clear_tool_uses, tool_names, CLEARED_PLACEHOLDER,
};
pub use head_tail::{head_tail, HEAD_TAIL_KEEP, HEAD_TAIL_OVER};
pub use history::{turn, Serialised, Turn};
pub use messages::{
    assistant_text, content_at, content_text, message_text, results_in, said, tool_call_values,
    turns, ResultAt,
};
pub use needles::{
    pick_needles, recovered, Needle, LONG_LINE_PROBE, NEEDLE_MIN_CHARS, NEEDLE_PAGE_MAX,
};
pub use tally::{Figures, Sufficiency, Tally, ToolFigures, UNKNOWN_TOOL};
