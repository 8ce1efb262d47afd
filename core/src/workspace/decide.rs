//! Whether a tool result is stored: `need_offload`.

use super::options::WorkspaceOptions;
use crate::limits::tool_limits::{Limits, MaterializeWhen, ToolEntries};

/// Why a result is stored or not, in the order the rules are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionReason {
    /// `metadata.offload === false`: never stored.
    FlagFalse,
    /// `metadata.offload === true`.
    FlagTrue,
    /// The tool's `tools` entry (or the `"*"` entry) says `materialize: "never"`.
    ToolNever,
    /// The tool's `tools` entry (or the `"*"` entry) says `materialize: "always"`.
    ToolAlways,
    /// The tool is in `offload_tools`.
    ListedTool,
    /// More UTF-16 units or bytes than the tool's `tools` entry allows.
    OverToolLimit,
    /// Within the UTF-16 units and bytes the tool's `tools` entry allows, which sets no
    /// token limit: it decides alone, `token_threshold` does not apply.
    WithinToolLimit,
    /// More tokens than `token_threshold` (or the tool's entry's `max_inline_tokens`).
    OverThreshold,
    /// At most `token_threshold` tokens (or the tool's entry's `max_inline_tokens`).
    UnderThreshold,
}

impl DecisionReason {
    /// The reason as logged: `"flag_false"`, `"flag_true"`, `"tool_never"`,
    /// `"tool_always"`, `"listed_tool"`, `"over_tool_limit"`, `"within_tool_limit"`,
    /// `"over_threshold"`, `"under_threshold"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionReason::FlagFalse => "flag_false",
            DecisionReason::FlagTrue => "flag_true",
            DecisionReason::ToolNever => "tool_never",
            DecisionReason::ToolAlways => "tool_always",
            DecisionReason::ListedTool => "listed_tool",
            DecisionReason::OverToolLimit => "over_tool_limit",
            DecisionReason::WithinToolLimit => "within_tool_limit",
            DecisionReason::OverThreshold => "over_threshold",
            DecisionReason::UnderThreshold => "under_threshold",
        }
    }
}

/// The outcome of `need_offload`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Whether the result is stored.
    pub offload: bool,
    /// Which rule decided.
    pub reason: DecisionReason,
    /// The token count, when the threshold rule was reached (tokens are counted only
    /// then, so a costly tokenizer runs only when it matters); `None` also when the
    /// estimate stopped counting once past the threshold.
    pub tokens: Option<usize>,
}

/// A result to decide on: its text, and its length in UTF-16 units when the host knows it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResultText<'a> {
    pub text: &'a str,
    pub chars: Option<usize>,
    /// Whether tokens come from the host's tokenizer, which never counts more tokens
    /// than UTF-8 bytes (every token is at least one byte): a text of at most the
    /// threshold in bytes is then under it without being counted.
    pub counted: bool,
}

/// Decide: `flag` false never stores and `flag` true always does; then the tool's own
/// `tools` entry saying `never` or `always`; then a tool in `offload_tools` is stored;
/// then the entry that decides for the tool (its own, else the `"*"` entry: the one
/// precedence rule of `limits::tool_limits`) — its `never` or `always`, else its
/// limits alone, each axis it sets (UTF-16 units, bytes, tokens); else, for a tool no
/// entry applies to, more tokens than `token_threshold`. `tokens` is called at most once,
/// with the limit, and not at all when a host's count could not reach it; it returns the
/// count, or `None` for "over it" without the count.
///
/// # Errors
/// Whatever `tokens` returns (a host's token counter that failed).
pub(crate) fn need_offload<E>(
    options: &WorkspaceOptions,
    tool_name: &str,
    flag: Option<bool>,
    result: ResultText<'_>,
    tokens: impl FnOnce(usize) -> Result<Option<usize>, E>,
) -> Result<Decision, E> {
    let decided = |offload, reason| Decision {
        offload,
        reason,
        tokens: None,
    };
    let entries = ToolEntries::of(&options.tools, tool_name);
    let by_entry = |when| match when {
        MaterializeWhen::Never => decided(false, DecisionReason::ToolNever),
        MaterializeWhen::Always => decided(true, DecisionReason::ToolAlways),
    };
    let listed = options.offload_tools.iter().any(|t| t == tool_name);
    let entry = entries.deciding().map(Limits::of_entry);
    let (threshold, over, under) = match (flag, entries.own_when(), listed, entry) {
        (Some(false), ..) => return Ok(decided(false, DecisionReason::FlagFalse)),
        (Some(true), ..) => return Ok(decided(true, DecisionReason::FlagTrue)),
        // The tool's own entry, then the list, then the "*" entry.
        (None, Some(when), ..) => return Ok(by_entry(when)),
        (None, None, true, _) => return Ok(decided(true, DecisionReason::ListedTool)),
        (
            None,
            None,
            false,
            Some(Limits {
                when: Some(when), ..
            }),
        ) => return Ok(by_entry(when)),
        (None, None, false, Some(limits)) => {
            let chars = || {
                result
                    .chars
                    .unwrap_or_else(|| crate::text::utf16_len(result.text))
            };
            if result.text.len() > limits.bytes || chars() > limits.chars {
                return Ok(decided(true, DecisionReason::OverToolLimit));
            }
            let Some(threshold) = limits.tokens else {
                return Ok(decided(false, DecisionReason::WithinToolLimit));
            };
            // Its token limit replaces `token_threshold`, and is said as it.
            (
                threshold,
                DecisionReason::OverThreshold,
                DecisionReason::UnderThreshold,
            )
        }
        (None, None, false, None) => (
            options.token_threshold,
            DecisionReason::OverThreshold,
            DecisionReason::UnderThreshold,
        ),
    };
    if result.counted && crate::tokens::counted_within_by_bytes(result.text, threshold) {
        return Ok(decided(false, under));
    }
    let tokens = tokens(threshold)?;
    let offload = tokens.is_none_or(|t| t > threshold);
    Ok(Decision {
        offload,
        reason: if offload { over } else { under },
        tokens,
    })
}

/// A length in UTF-16 units up to which no result is stored by the estimate and the
/// `tools` entries, whatever its tool (without a token counter and listed tools): shorter
/// results need not be copied out of a host to be decided. Each entry, and the defaults,
/// bound it as the Materializer's limits do ([`Limits::surely_inline`]); every tool's
/// limits are made of theirs, so the least of them never says more than is sure; 0 when
/// some tool stores any.
pub(crate) fn surely_kept_chars(options: &WorkspaceOptions) -> usize {
    let mut most = Limits {
        chars: usize::MAX,
        bytes: usize::MAX,
        tokens: Some(options.token_threshold),
        when: None,
    }
    .surely_inline(false);
    for (_, limits) in &options.tools {
        most = most.min(Limits::of_entry(limits).surely_inline(false));
    }
    most
}

#[cfg(test)]
#[path = "decide_tests.rs"]
mod tests;
