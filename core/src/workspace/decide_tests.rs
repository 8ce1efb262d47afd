//! Tests of the offload decision: the reasons, the limits and their bounds.

use super::*;
use crate::limits::tool_limits::ToolLimits;

const TEXT: ResultText<'static> = ResultText {
    text: "output",
    chars: None,
    counted: false,
};

fn decide(flag: Option<bool>, tool: &str, tokens: usize) -> Decision {
    let mut options = WorkspaceOptions::new("/r", "/");
    options.offload_tools = vec!["web_fetch".into()];
    options.token_threshold = 100;
    need_offload::<()>(&options, tool, flag, TEXT, |_| Ok(Some(tokens))).unwrap()
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
    let failing = |_| Err("tokenizer down");
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
    need_offload::<()>(options, tool, None, result, |_| Ok(Some(tokens))).unwrap()
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
    let flagged = need_offload::<()>(&options, "Read", Some(true), result, |_| Ok(Some(0)));
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
            let tokens = crate::tokens::estimate_tokens(at);
            assert!(!decided(&limits, tool, at, tokens).offload, "{tool} {at:?}");
        }
    }
    let dense = "1\t".repeat(4);
    assert!(
        decided(
            &limits,
            "bash",
            &dense,
            crate::tokens::estimate_tokens(&dense)
        )
        .offload
    );
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
        let decision = need_offload::<()>(&options, "ls", None, result, |_| {
            asked = true;
            Ok(Some(text.len()))
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
fn the_estimate_decides_a_large_result_without_counting_it_all() {
    let options = with_tools(&[]); // threshold 100
    let decide = |text: &str| {
        let result = ResultText {
            text,
            chars: None,
            counted: false,
        };
        let count = |threshold| Ok::<_, ()>(crate::tokens::estimate_within(text, threshold));
        let decision = need_offload(&options, "ls", None, result, count).unwrap();
        (decision.offload, decision.tokens)
    };
    let small = "word ".repeat(20);
    assert_eq!(
        decide(&small),
        (false, Some(crate::tokens::estimate_tokens(&small)))
    );
    // Over: the count stops past the threshold, and is not reported.
    assert_eq!(decide(&"word ".repeat(1_000)), (true, None));
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
