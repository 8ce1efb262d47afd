//! The arguments of `tool-offload replay`, as clap derives them.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use tool_offload::DEFAULT_THRESHOLD;

use crate::limits::Limits;
use crate::read::From;
use crate::values::{count, price};

/// A context policy to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
pub enum Policy {
    /// The raw history: every tool result as it was (the baseline).
    None,
    /// Batch offload: results of at least --threshold characters become
    /// `[Content offloaded to: ./tool-result-<id>.md]`.
    Offload,
    /// The Materializer at --max-inline-chars/--max-inline-bytes and the --tool limits:
    /// results over them become summaries naming a ref.
    Materialize,
    /// The Materializer, then the budget: past --trigger-tokens, old results are
    /// cleared into pointers to their artifacts (restorably), down to half the trigger.
    Budget,
    /// Anthropic's server-side clearing at its defaults (`clear_tool_uses_20250919`): past
    /// 100,000 tokens, every tool result but the last 3 becomes `[cleared]` (for
    /// comparison; nothing can read them back).
    ClearToolUses,
    /// Claude Code's persistence (2.1): a result over 30,000 characters (Bash) or 50,000
    /// (other tools) is shown as a `<persisted-output>` block with its first 2,000.
    ClaudeCode,
    /// No artifact: a result over 10,240 characters becomes its first and last 5,120
    /// (the plain head+tail cut many agents use), for comparison.
    Headtail,
    /// The OpenAI Agents SDK's `ToolOutputTrimmer` at its defaults, before every model
    /// call: results older than the last 2 user turns over 500 characters become a
    /// `[Trimmed: …]` line and their first 200 (for comparison; nothing can read them back).
    AgentsTrimmer,
}

impl Policy {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Policy::None => "none",
            Policy::Offload => "offload",
            Policy::Materialize => "materialize",
            Policy::Budget => "budget",
            Policy::ClearToolUses => "clear-tool-uses",
            Policy::ClaudeCode => "claude-code",
            Policy::Headtail => "headtail",
            Policy::AgentsTrimmer => "agents-trimmer",
        }
    }
}

/// Arguments of `tool-offload replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Conversations: JSON arrays of messages, Claude Code session logs, Codex rollouts;
    /// a directory means every *.json and *.jsonl in it (and below it, with -r).
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// Read directories recursively.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// A policy to replay, repeatable; `none` (the baseline) is always replayed.
    /// Default: none and materialize.
    #[arg(long = "policy", value_enum, value_name = "POLICY")]
    pub policies: Vec<Policy>,
    /// materialize: the Materializer's limits.
    #[command(flatten)]
    pub limits: Limits,
    /// budget: clear old results when the history holds more tokens than this.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TRIGGER_TOKENS, value_parser = count, allow_negative_numbers = true)]
    pub trigger_tokens: usize,
    /// budget: the most recent tool results never cleared.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = count, allow_negative_numbers = true)]
    pub keep_last: usize,
    /// budget: clear only when that saves at least this many tokens (default: a tenth of
    /// --trigger-tokens).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub clear_at_least_tokens: Option<usize>,
    /// offload: offload results of at least this many characters.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_THRESHOLD, value_parser = count, allow_negative_numbers = true)]
    pub threshold: usize,
    /// The price of a cached input token read, in base input tokens.
    #[arg(long, value_name = "X", default_value_t = 0.1, value_parser = price, allow_negative_numbers = true)]
    pub cache_read: f64,
    /// The price of an input token written to the cache, in base input tokens.
    #[arg(long, value_name = "X", default_value_t = 1.25, value_parser = price, allow_negative_numbers = true)]
    pub cache_write: f64,
    /// materialize: lines of each artifact looked for again with one context_grep
    /// (needle recovery); 0 to skip.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = count, allow_negative_numbers = true)]
    pub needles: usize,
    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also draw the characters sent per turn, raw against each policy, as an SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Where the artifacts go (default: a temporary directory, removed at the end).
    #[arg(long, value_name = "DIR")]
    pub user_data: Option<PathBuf>,
    /// Keep the temporary directory of artifacts, and say where it is.
    #[arg(long)]
    pub keep: bool,
    /// What the inputs hold; `auto` tells from the content.
    #[arg(long, value_enum, default_value_t = From::Auto)]
    pub from: From,
    /// Keep a Claude Code log's side-chain (sub-agent) events in the conversation.
    #[arg(long)]
    pub include_sidechains: bool,
    /// Read bytes that are not UTF-8 as U+FFFD instead of refusing the input.
    #[arg(long)]
    pub lossy: bool,
}

/// `--trigger-tokens` by default.
pub const DEFAULT_TRIGGER_TOKENS: usize = 40_000;

impl ReplayArgs {
    /// The budget's options.
    pub fn budget(&self) -> tool_offload::BudgetOptions {
        let mut options = tool_offload::BudgetOptions::new(self.trigger_tokens);
        options.keep_last = self.keep_last;
        if let Some(n) = self.clear_at_least_tokens {
            options.clear_at_least_tokens = n;
        }
        options
    }

    /// The policies to replay, `none` first, each once, in the order given.
    pub fn policies(&self) -> Vec<Policy> {
        let asked: &[Policy] = if self.policies.is_empty() {
            &[Policy::Materialize]
        } else {
            &self.policies
        };
        let mut out = vec![Policy::None];
        for &p in asked {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
}
