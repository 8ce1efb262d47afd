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
    /// materialized), NAME=N (over N characters) or NAME=Nt (over N estimated tokens);
    /// NAME * is every other tool. E.g. --tool Read=never --tool bash=8000 --tool grep=1000t.
    #[arg(long = "tool", value_name = "NAME=LIMIT", value_parser = parse_tool_limit)]
    pub tools: Vec<(String, tool_offload::ToolLimits)>,
    /// When the fresh results of one message (each within its limits) together hold more
    /// characters than this, the largest are materialized first until the rest fit
    /// (default: off; Claude Code uses 200,000).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub message_budget_chars: Option<usize>,
    /// The model's context window in tokens: a result is materialized when its estimated
    /// tokens exceed --result-share of what the messages before it leave free (default:
    /// off).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub context_window_tokens: Option<usize>,
    /// With --context-window-tokens: the share of the free window one inline result may
    /// take, over 0 and at most 1.
    #[arg(long, value_name = "X", default_value_t = 0.25, value_parser = share, requires = "context_window_tokens")]
    pub result_share: f64,
}

impl Limits {
    /// These limits set on `options` (the defaults where not given).
    pub fn apply(&self, options: &mut tool_offload::MaterializerOptions) {
        options.max_inline_chars = self.max_inline_chars.unwrap_or(options.max_inline_chars);
        options.max_inline_bytes = self.max_inline_bytes.unwrap_or(options.max_inline_bytes);
        options.tools = self.tools.clone();
        options.message_budget_chars = self.message_budget_chars;
        options.context_window =
            self.context_window_tokens
                .map(|tokens| tool_offload::ContextWindow {
                    tokens,
                    result_share: self.result_share,
                });
    }
}

/// A share of a window: a number over 0 and at most 1.
fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!(
            "must be a number over 0 and at most 1, got {text:?}"
        )),
    }
}
