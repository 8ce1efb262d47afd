//! The command line, as clap derives it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tool_offload::DEFAULT_THRESHOLD;

const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  an I/O failure: writing the output or an artifact file, reading stdin
  2  bad input or usage: unreadable or missing INPUT, malformed JSON, a malformed
     message, a tool-call id that cannot name a file";

/// Move oversized agent tool results out of a conversation into files.
#[derive(Debug, Parser)]
#[command(name = "tool-offload", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Move large tool results of a conversation into files, leaving placeholders.
    ///
    /// Every tool result of at least --threshold characters goes to
    /// <DIR>/tool-result-<id>.md (repeated ids: -1, -2, …) and its content becomes
    /// `[Content offloaded to: ./tool-result-<id>.md]`. The conversation is printed as
    /// compact JSON, exactly as JavaScript's JSON.stringify would. Every message is
    /// checked before any file is written.
    #[command(after_help = EXIT_CODES)]
    Offload(OffloadArgs),
}

/// What an input holds (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// Told from the content, and said on stderr.
    Auto,
    /// A JSON array of messages (Anthropic, OpenAI Chat or OpenAI Responses items).
    Messages,
    /// A Claude Code session log (~/.claude/projects/<project>/<session>.jsonl).
    ClaudeCode,
    /// A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl).
    Codex,
}

/// Arguments of `tool-offload offload`.
#[derive(Debug, Args)]
pub struct OffloadArgs {
    /// Conversations: JSON arrays of messages (Anthropic, OpenAI Chat or OpenAI
    /// Responses items, in any mix), Claude Code session logs or Codex rollouts; a
    /// directory means every *.json and *.jsonl in it; `-` is stdin.
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,

    /// What the inputs hold; `auto` tells from the content and says what it saw.
    #[arg(long, value_enum, default_value_t = From::Auto)]
    pub from: From,

    /// Keep a Claude Code log's side-chain (sub-agent) events in the conversation.
    #[arg(long)]
    pub include_sidechains: bool,

    /// Directory for the offloaded files (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,

    /// Offload tool results of at least this many characters (UTF-16 code units).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: usize,

    /// Write the offloaded conversation to OUTPUT instead of stdout (`-`); the file
    /// appears only once complete. With several inputs OUTPUT is a directory (created
    /// if missing) that gets one `<input name>.json` each.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Print the summary on stderr as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,

    /// Read and write JSON Lines (one message per line), streaming: memory stays flat
    /// however long the conversation is. Blank lines are skipped.
    #[arg(long)]
    pub jsonl: bool,
}
