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
mod session;
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

pub use session::{Item, Session};
