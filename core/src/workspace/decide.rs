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
    /// then, so a costly tokenizer runs only when it matters).
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
/// `token_threshold`). `tokens` is called at most once, and not at all when a host's
/// count could not reach the threshold.
///
/// # Errors
/// Whatever `tokens` returns (a host's token counter that failed).
pub(crate) fn need_offload<E>(
    options: &WorkspaceOptions,
    tool_name: &str,
    flag: Option<bool>,
    result: ResultText<'_>,
    tokens: impl FnOnce() -> Result<usize, E>,
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
            if result.counted && result.text.len() <= threshold {
                return Ok(decided(false, DecisionReason::UnderThreshold));
            }
            let tokens = tokens()?;
            let over = tokens > threshold;
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
        .surely_inline()
    };
    let mut most = entry(&ToolLimits::default());
    for (_, limits) in &options.tools {
        most = most.min(entry(limits));
    }
    most
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: ResultText<'static> = ResultText {
        text: "output",
        chars: None,
        counted: false,
    };

    fn decide(flag: Option<bool>, tool: &str, tokens: usize) -> Decision {
        let mut options = WorkspaceOptions::new("/r", "/");
        options.offload_tools = vec!["web_fetch".into()];
        options.token_threshold = 100;
        need_offload::<()>(&options, tool, flag, TEXT, || Ok(tokens)).unwrap()
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
        assert!(need_offload(&options, "ls", Some(true), TEXT, failing).is_ok());
        assert_eq!(
            need_offload(&options, "ls", None, TEXT, failing),
            Err("tokenizer down")
        );
    }

    fn with_tools(tools: &[(&str, ToolLimits)]) -> WorkspaceOptions {
        let mut options = WorkspaceOptions::new("/r", "/");
        options.offload_tools = vec!["web_fetch".into()];
        options.token_threshold = 100;
        options.tools = tools
            .iter()
            .map(|(n, l)| (n.to_string(), l.clone()))
            .collect();
        options
    }

    fn decided(options: &WorkspaceOptions, tool: &str, text: &str, tokens: usize) -> Decision {
        let result = ResultText {
            text,
            chars: None,
            counted: false,
        };
        need_offload::<()>(options, tool, None, result, || Ok(tokens)).unwrap()
    }

    fn when(materialize: MaterializeWhen) -> ToolLimits {
        ToolLimits {
            materialize: Some(materialize),
            ..ToolLimits::default()
        }
    }

    #[test]
    fn a_tools_own_entry_comes_before_the_list_and_the_star_entry_after_it() {
        let options = with_tools(&[
            ("web_fetch", when(MaterializeWhen::Never)),
            ("Read", when(MaterializeWhen::Never)),
            ("*", when(MaterializeWhen::Always)),
        ]);
        let fetch = decided(&options, "web_fetch", "x", 1000);
        assert_eq!(
            (fetch.offload, fetch.reason),
            (false, DecisionReason::ToolNever)
        );
        let read = decided(&options, "Read", "x", 1000);
        assert_eq!((read.offload, read.tokens), (false, None));
        let ls = decided(&options, "ls", "x", 0);
        assert_eq!((ls.offload, ls.reason), (true, DecisionReason::ToolAlways));
        let star_never = with_tools(&[("*", when(MaterializeWhen::Never))]);
        let listed = decided(&star_never, "web_fetch", "x", 0);
        assert_eq!(
            (listed.offload, listed.reason),
            (true, DecisionReason::ListedTool)
        );
        assert!(!decided(&star_never, "ls", "x", 1000).offload);
        // The flag still wins.
        let result = ResultText {
            counted: false,
            text: "x",
            chars: None,
        };
        let flagged = need_offload::<()>(&options, "Read", Some(true), result, || Ok(0));
        assert_eq!(flagged.unwrap().reason, DecisionReason::FlagTrue);
    }

    #[test]
    fn a_tools_size_and_token_limits_replace_the_threshold() {
        let options = with_tools(&[
            (
                "bash",
                ToolLimits {
                    max_inline_tokens: Some(10),
                    ..ToolLimits::default()
                },
            ),
            (
                "grep",
                ToolLimits {
                    max_inline_chars: Some(3),
                    ..ToolLimits::default()
                },
            ),
            (
                "*",
                ToolLimits {
                    max_inline_bytes: Some(5),
                    ..ToolLimits::default()
                },
            ),
        ]);
        let bash = decided(&options, "bash", "ab", 11);
        assert_eq!((bash.offload, bash.tokens), (true, Some(11)));
        assert!(!decided(&options, "bash", "ab", 10).offload);
        let grep = decided(&options, "grep", "abcd", 0);
        assert_eq!(
            (grep.offload, grep.reason),
            (true, DecisionReason::OverToolLimit)
        );
        assert!(!decided(&options, "grep", "abc", 0).offload);
        // "é" is two bytes: 3 of them are 6 bytes, over the "*" entry's 5.
        assert!(decided(&options, "ls", "ééé", 0).offload);
        assert!(!decided(&options, "ls", "éé", 0).offload);
        assert!(
            !decided(&options, "ls", "abcde", 0).offload,
            "exactly 5 bytes"
        );
        assert!(!decided(&options, "ls", "éé", 100).offload, "threshold 100");
    }

    #[test]
    fn results_up_to_the_surely_kept_length_are_never_stored() {
        assert_eq!(surely_kept_chars(&with_tools(&[])), 50);
        let limits = with_tools(&[
            (
                "bash",
                ToolLimits {
                    max_inline_tokens: Some(10),
                    ..ToolLimits::default()
                },
            ),
            ("Read", when(MaterializeWhen::Never)),
        ]);
        assert_eq!(surely_kept_chars(&limits), 5);
        let bytes = with_tools(&[(
            "*",
            ToolLimits {
                max_inline_bytes: Some(30),
                ..ToolLimits::default()
            },
        )]);
        assert_eq!(surely_kept_chars(&bytes), 10);
        let always = with_tools(&[("x", when(MaterializeWhen::Always))]);
        assert_eq!(surely_kept_chars(&always), 0);
        // At that length no tool stores by the estimate, whatever the text.
        for tool in ["bash", "ls", "Read"] {
            for at in ["1\t1\t1", "aBcDe", "\n\t1\n\t"] {
                let tokens = crate::estimate_tokens(at);
                assert!(!decided(&limits, tool, at, tokens).offload, "{tool} {at:?}");
            }
        }
        let dense = "1\t".repeat(4);
        assert!(decided(&limits, "bash", &dense, crate::estimate_tokens(&dense)).offload);
    }

    #[test]
    fn a_hosts_count_is_asked_only_past_the_threshold_in_bytes() {
        let options = with_tools(&[]);
        let decide = |text: &str| {
            let result = ResultText {
                text,
                chars: None,
                counted: true,
            };
            let mut asked = false;
            let decision = need_offload::<()>(&options, "ls", None, result, || {
                asked = true;
                Ok(text.len())
            })
            .unwrap();
            (decision.offload, decision.tokens, asked)
        };
        // The threshold is 100 tokens.
        assert_eq!(decide(&"a".repeat(100)), (false, None, false));
        assert_eq!(decide(&"a".repeat(101)), (true, Some(101), true));
        // "é" is 2 bytes: 51 of them may hold 102 tokens.
        assert_eq!(decide(&"é".repeat(50)), (false, None, false));
        assert!(decide(&"é".repeat(51)).2);
    }

    #[test]
    fn reasons_have_stable_names() {
        let all = [
            DecisionReason::FlagFalse,
            DecisionReason::FlagTrue,
            DecisionReason::ToolNever,
            DecisionReason::ToolAlways,
            DecisionReason::ListedTool,
            DecisionReason::OverToolLimit,
            DecisionReason::OverThreshold,
            DecisionReason::UnderThreshold,
        ];
        let names: Vec<_> = all.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            names,
            [
                "flag_false",
                "flag_true",
                "tool_never",
                "tool_always",
                "listed_tool",
                "over_tool_limit",
                "over_threshold",
                "under_threshold"
            ]
        );
    }
}
