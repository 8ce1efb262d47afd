//! Whether a tool result is stored: `need_offload`.

use super::WorkspaceOptions;

/// The token estimate used without a `countTokens`: ⌈UTF-16 length / 4⌉.
///
/// ```
/// use tool_offload_core::workspace::estimate_tokens;
/// assert_eq!(estimate_tokens(0), 0);
/// assert_eq!(estimate_tokens(8), 2);
/// assert_eq!(estimate_tokens(9), 3);
/// ```
pub fn estimate_tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

/// Why a result is stored or not, in the order the rules are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionReason {
    /// `metadata.offload === false`: never stored.
    FlagFalse,
    /// `metadata.offload === true`.
    FlagTrue,
    /// The tool is in `offload_tools`.
    ListedTool,
    /// More tokens than `token_threshold`.
    OverThreshold,
    /// At most `token_threshold` tokens.
    UnderThreshold,
}

impl DecisionReason {
    /// The reason as logged: `"flag_false"`, `"flag_true"`, `"listed_tool"`,
    /// `"over_threshold"`, `"under_threshold"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionReason::FlagFalse => "flag_false",
            DecisionReason::FlagTrue => "flag_true",
            DecisionReason::ListedTool => "listed_tool",
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
    /// then, so a costly tokenizer runs only when it matters).
    pub tokens: Option<usize>,
}

/// Decide: `flag` false never stores; `flag` true or a listed tool always does; else
/// more than `token_threshold` tokens does. `tokens` is called at most once.
///
/// # Errors
/// Whatever `tokens` returns (a host's token counter that failed).
pub(crate) fn need_offload<E>(
    options: &WorkspaceOptions,
    tool_name: &str,
    flag: Option<bool>,
    tokens: impl FnOnce() -> Result<usize, E>,
) -> Result<Decision, E> {
    let decided = |offload, reason| Decision {
        offload,
        reason,
        tokens: None,
    };
    Ok(match flag {
        Some(false) => decided(false, DecisionReason::FlagFalse),
        Some(true) => decided(true, DecisionReason::FlagTrue),
        None if options.offload_tools.iter().any(|t| t == tool_name) => {
            decided(true, DecisionReason::ListedTool)
        }
        None => {
            let tokens = tokens()?;
            let over = tokens > options.token_threshold;
            Decision {
                offload: over,
                reason: if over {
                    DecisionReason::OverThreshold
                } else {
                    DecisionReason::UnderThreshold
                },
                tokens: Some(tokens),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(flag: Option<bool>, tool: &str, tokens: usize) -> Decision {
        let mut options = WorkspaceOptions::new("/r", "/");
        options.offload_tools = vec!["web_fetch".into()];
        options.token_threshold = 100;
        need_offload::<()>(&options, tool, flag, || Ok(tokens)).unwrap()
    }

    #[test]
    fn the_flag_wins_then_the_list_then_the_threshold() {
        assert_eq!(
            decide(Some(false), "web_fetch", 1000).reason,
            DecisionReason::FlagFalse
        );
        assert!(!decide(Some(false), "web_fetch", 1000).offload);
        assert_eq!(decide(Some(true), "ls", 0).reason, DecisionReason::FlagTrue);
        assert!(decide(Some(true), "ls", 0).offload);
        let listed = decide(None, "web_fetch", 0);
        assert_eq!((listed.offload, listed.tokens), (true, None));
        assert_eq!(listed.reason, DecisionReason::ListedTool);
    }

    #[test]
    fn the_threshold_is_exclusive() {
        let at = decide(None, "ls", 100);
        assert_eq!(
            (at.offload, at.reason, at.tokens),
            (false, DecisionReason::UnderThreshold, Some(100))
        );
        let over = decide(None, "ls", 101);
        assert_eq!(
            (over.offload, over.reason),
            (true, DecisionReason::OverThreshold)
        );
    }

    #[test]
    fn tokens_are_counted_only_when_the_threshold_decides() {
        let options = WorkspaceOptions::new("/r", "/");
        let failing = || Err("tokenizer down");
        assert!(need_offload(&options, "ls", Some(true), failing).is_ok());
        assert_eq!(
            need_offload(&options, "ls", None, failing),
            Err("tokenizer down")
        );
    }

    #[test]
    fn reasons_have_stable_names() {
        let all = [
            DecisionReason::FlagFalse,
            DecisionReason::FlagTrue,
            DecisionReason::ListedTool,
            DecisionReason::OverThreshold,
            DecisionReason::UnderThreshold,
        ];
        let names: Vec<_> = all.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            names,
            [
                "flag_false",
                "flag_true",
                "listed_tool",
                "over_threshold",
                "under_threshold"
            ]
        );
    }
}
