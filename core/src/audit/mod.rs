//! Where the model never read what it was pointed to: for each tool output a session
//! showed the model only in part (a preview, a pointer, a truncated text), whether a later
//! tool call of the agent read it, and after how many turns. No IO: the host reads the
//! session log and lists the files beside it. `tool-offload audit` is the host that
//! prints it.
//!
//! - Claude Code logs ([`claude_code`]): results persisted under the session's
//!   `tool-results/` (shown as a `<persisted-output>` preview or pointer), read when a later
//!   main-chain tool call names the file.
//! - Codex rollouts ([`codex()`]): outputs Codex truncated (its `…N tokens truncated…`,
//!   `Total output lines:`, `[... omitted N of M lines ...]` markers), read when the agent
//!   re-ran a narrower command.
//! - Message arrays ([`ours()`]): results our offload or Materializer replaced by a
//!   placeholder or a summary naming a ref, read when a later tool call names it;
//!   [`read_stats`], [`unread_refs`] and [`remind_unread`] give the same to a loop, turn
//!   by turn.

mod claude;
mod codex;
mod ours;
mod shown;
mod text;
mod unread;

pub use claude::claude_code;
pub use codex::codex;
pub use ours::ours;
pub use unread::{
    read_stats, remind_unread, reminder_edit, unread_refs, unread_reminder, Reminded, ShownRef,
    REMINDER_PREFIX,
};

/// One output shown in part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The tool call's id.
    pub call_id: String,
    /// The tool's name (empty when the log does not say).
    pub tool: String,
    /// The full output's length in UTF-16 code units (what was recorded, when the full
    /// output was not kept).
    pub chars: usize,
    /// Whether a later tool call read it.
    pub read: bool,
    /// Assistant turns from the output to the call that read it (that turn included).
    pub turns_until_read: Option<usize>,
    /// The first text the assistant wrote after the output, up to 200 characters: what the
    /// model went on to say.
    pub first_text_after: Option<String>,
}

/// One session's items, in the order the outputs came.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    /// The outputs shown in part.
    pub items: Vec<Item>,
}

impl Session {
    /// Outputs shown in part.
    pub fn partial(&self) -> usize {
        self.items.len()
    }

    /// Of those, read later.
    pub fn read(&self) -> usize {
        self.items.iter().filter(|i| i.read).count()
    }

    /// Of those, never read.
    pub fn unread(&self) -> usize {
        self.partial() - self.read()
    }
}
