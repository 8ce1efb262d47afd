//! The Materializer's limits as flags, shared by `materialize` and `replay`.

use clap::Args;

use crate::values::{count, parse_tool_limit};

/// The Materializer's limits (`materialize`, `replay`).
#[derive(Debug, Args)]
pub struct Limits {
    /// Outputs over this many characters (UTF-16 code units) are materialized (default
    /// 4,000).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub max_inline_chars: Option<usize>,
    /// Outputs over this many UTF-8 bytes are materialized (default 16,384).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub max_inline_bytes: Option<usize>,
    /// One tool's limit, repeatable: NAME=never (always inline), NAME=always (always
    /// materialized) or NAME=N (over N characters); NAME * is every other tool. E.g.
    /// --tool Read=never --tool bash=8000.
    #[arg(long = "tool", value_name = "NAME=LIMIT", value_parser = parse_tool_limit)]
    pub tools: Vec<(String, tool_offload::ToolLimits)>,
    /// When the fresh results of one message (each within its limits) together hold more
    /// characters than this, the largest are materialized first until the rest fit
    /// (default: off; Claude Code uses 200,000).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub message_budget_chars: Option<usize>,
}

impl Limits {
    /// These limits set on `options` (the defaults where not given).
    pub fn apply(&self, options: &mut tool_offload::MaterializerOptions) {
        options.max_inline_chars = self.max_inline_chars.unwrap_or(options.max_inline_chars);
        options.max_inline_bytes = self.max_inline_bytes.unwrap_or(options.max_inline_bytes);
        options.tools = self.tools.clone();
        options.message_budget_chars = self.message_budget_chars;
    }
}
