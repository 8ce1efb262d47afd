//! Whether a tool result is stored: `need_offload`.

use super::WorkspaceOptions;
use crate::materialize::{Limits, MaterializeWhen, ToolEntries, ToolLimits};

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
    /// More tokens than `token_threshold`.
    OverThreshold,
    /// At most `token_threshold` tokens.
    UnderThreshold,
}

impl DecisionReason {
    /// The reason as logged: `"flag_false"`, `"flag_true"`, `"tool_never"`,
    /// `"tool_always"`, `"listed_tool"`, `"over_tool_limit"`, `"over_threshold"`,
    /// `"under_threshold"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionReason::FlagFalse => "flag_false",
            DecisionReason::FlagTrue => "flag_true",
            DecisionReason::ToolNever => "tool_never",
            DecisionReason::ToolAlways => "tool_always",
            DecisionReason::ListedTool => "listed_tool",
            DecisionReason::OverToolLimit => "over_tool_limit",
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
/// then the `"*"` entry's `never` or `always`; then more UTF-16 units or bytes than the
/// entries allow are stored; else more tokens than their `max_inline_tokens` (else
/// `token_threshold`). `tokens` is called at most once, with the threshold, and not at
/// all when a host's count could not reach it; it returns the count, or `None` for
/// "over it" without the count.
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
    let over_size = || {
        entries
            .pick(|l| l.max_inline_bytes)
            .is_some_and(|b| result.text.len() > b)
            || entries.pick(|l| l.max_inline_chars).is_some_and(|c| {
                result
                    .chars
                    .unwrap_or_else(|| crate::utf16_len(result.text))
                    > c
            })
    };
    let by_entry = |when| match when {
        MaterializeWhen::Never => decided(false, DecisionReason::ToolNever),
        MaterializeWhen::Always => decided(true, DecisionReason::ToolAlways),
    };
    let listed = options.offload_tools.iter().any(|t| t == tool_name);
    Ok(match (flag, entries.own_when(), listed, entries.when()) {
        (Some(false), ..) => decided(false, DecisionReason::FlagFalse),
        (Some(true), ..) => decided(true, DecisionReason::FlagTrue),
        // The tool's own entry, then the list, then the "*" entry.
        (None, Some(when), ..) => by_entry(when),
        (None, None, true, _) => decided(true, DecisionReason::ListedTool),
        (None, None, false, Some(when)) => by_entry(when),
        (None, None, false, None) if over_size() => decided(true, DecisionReason::OverToolLimit),
        (None, None, false, None) => {
            let threshold = entries
                .pick(|l| l.max_inline_tokens)
                .unwrap_or(options.token_threshold);
            if result.counted && crate::tokens::counted_within_by_bytes(result.text, threshold) {
                return Ok(decided(false, DecisionReason::UnderThreshold));
            }
            let tokens = tokens(threshold)?;
            let over = tokens.is_none_or(|t| t > threshold);
            Decision {
                offload: over,
                reason: if over {
                    DecisionReason::OverThreshold
                } else {
                    DecisionReason::UnderThreshold
                },
                tokens,
            }
        }
    })
}

/// A length in UTF-16 units up to which no result is stored by the estimate and the
/// `tools` entries, whatever its tool (without a token counter and listed tools): shorter
/// results need not be copied out of a host to be decided. Each entry, and the defaults,
/// bound it as the Materializer's limits do ([`Limits::surely_inline`]); every tool's
/// limits are made of theirs, so the least of them never says more than is sure; 0 when
/// some tool stores any.
pub(crate) fn surely_kept_chars(options: &WorkspaceOptions) -> usize {
    let threshold = options.token_threshold;
    let entry = |l: &ToolLimits| {
        Limits {
            chars: l.max_inline_chars.unwrap_or(usize::MAX),
            bytes: l.max_inline_bytes.unwrap_or(usize::MAX),
            tokens: Some(l.max_inline_tokens.unwrap_or(threshold)),
            when: l.materialize,
        }
        .surely_inline(false)
    };
    let mut most = entry(&ToolLimits::default());
    for (_, limits) in &options.tools {
        most = most.min(entry(limits));
    }
    most
}

#[cfg(test)]
#[path = "decide_tests.rs"]
mod tests;
