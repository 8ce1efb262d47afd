//! The Materializer's side of per-tool limits: the limits tools declare for themselves
//! (MCP) and the checks that use them ([`crate::limits::tool_limits`] holds the rule).

use super::types::MaterializerOptions;
use crate::error::OffloadError;
use crate::limits::tool_limits::{Limits, ANY_TOOL};
use crate::text::measure::Measure;
use crate::tokens::TokenCounter;

impl MaterializerOptions {
    /// The limits for `tool` by the one precedence rule: its entry's, else the limit the
    /// tool declared itself (`declared` characters: MCP's
    /// `_meta["anthropic/maxResultSizeChars"]`; the `"*"` entry's `materialize` still
    /// applies), else the `"*"` entry's, else these options' own.
    pub(crate) fn limits_for(&self, tool: &str, declared: Option<usize>) -> Limits {
        let own = Limits {
            chars: self.max_inline_chars,
            bytes: self.max_inline_bytes,
            tokens: None,
            when: None,
        };
        Limits::for_tool(&self.tools, tool, declared, own)
    }
}

impl super::materializer::Materializer {
    /// Take `max_chars` as the limit `tool` declares for its own results (an MCP server's
    /// `_meta["anthropic/maxResultSizeChars"]` in `tools/list`): over the `"*"` entry and
    /// the defaults, under the tool's own entry in [`MaterializerOptions::tools`], which
    /// the user set.
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let text = "x".repeat(10_000);
    /// assert!(m.exceeds_limits_for("fetch", &text));
    /// m.declare_tool_limit("fetch", 50_000);
    /// assert!(!m.exceeds_limits_for("fetch", &text));
    /// ```
    pub fn declare_tool_limit(&self, tool: &str, max_chars: usize) {
        let mut declared = self.declared_limits();
        match declared.iter_mut().find(|(name, _)| name == tool) {
            Some(entry) => entry.1 = max_chars,
            None => declared.push((tool.to_owned(), max_chars)),
        }
    }

    /// The limits tools declared for themselves.
    fn declared_limits(&self) -> std::sync::MutexGuard<'_, Vec<(String, usize)>> {
        // Poisoned only if a thread panicked mid-push; the list is still valid.
        self.declared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The limits that apply to `tool`'s outputs.
    pub(crate) fn limits_for(&self, tool: &str) -> Limits {
        let declared = self
            .declared_limits()
            .iter()
            .find(|(name, _)| name == tool)
            .map(|(_, chars)| *chars);
        self.options().limits_for(tool, declared)
    }

    /// Whether an output of `text` must be materialized: over either limit.
    pub fn exceeds_limits(&self, text: &str) -> bool {
        self.exceeds_limits_for(ANY_TOOL, text)
    }

    /// Whether an output of `text` from `tool` must be materialized: the tool's limits
    /// ([`MaterializerOptions::tools`]), its tokens by [`estimate_tokens`](crate::tokens::estimate_tokens).
    pub fn exceeds_limits_for(&self, tool: &str, text: &str) -> bool {
        // Without a counter nothing can fail.
        let estimated = self.counted_exceeds(&Measure::of(text), text, tool, None);
        matches!(estimated, Ok(true))
    }

    /// [`Materializer::exceeds_limits_for`](crate::materialize::Materializer::exceeds_limits_for) with the tokens counted by `count` when given.
    ///
    /// # Errors
    /// The counter's own.
    pub(super) fn counted_exceeds(
        &self,
        m: &Measure,
        text: &str,
        tool: &str,
        count: Option<&TokenCounter<'_>>,
    ) -> Result<bool, OffloadError> {
        self.limits_for(tool).exceeded_by(m, text, count)
    }

    /// The longest output that surely stays inline, whatever the tool (`counted`: its
    /// tokens by a host's counter).
    pub(crate) fn surely_inline_any(&self, counted: bool) -> usize {
        let mut names: Vec<String> = self
            .options()
            .tools
            .iter()
            .map(|(n, _)| n.clone())
            .collect();
        names.extend(self.declared_limits().iter().map(|(n, _)| n.clone()));
        let mut least = self.limits_for(ANY_TOOL).surely_inline(counted);
        for name in &names {
            least = least.min(self.limits_for(name).surely_inline(counted));
        }
        least
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::tool_limits::{MaterializeWhen, ToolLimits};
    use crate::materialize::Materializer;
    use crate::tokens::estimate_tokens;

    /// The user's entry for a tool beats what the tool declares; what it declares beats
    /// the "*" entry and the defaults; `materialize` is the user's alone.
    #[test]
    fn a_declared_limit_sits_between_the_users_entry_and_the_rest() {
        let chars = |n| ToolLimits {
            max_inline_chars: Some(n),
            ..ToolLimits::default()
        };
        let mut options = MaterializerOptions::new("/d", "c", "/");
        options.tools = vec![
            ("own".into(), chars(100)),
            (ANY_TOOL.into(), chars(200)),
            (
                "never".into(),
                ToolLimits {
                    materialize: Some(MaterializeWhen::Never),
                    ..ToolLimits::default()
                },
            ),
        ];
        let m = Materializer::new(options).unwrap();
        for tool in ["own", "declared", "never"] {
            m.declare_tool_limit(tool, 5000);
        }
        let at = |tool: &str| m.limits_for(tool);
        assert_eq!(at("own").chars, 100);
        assert_eq!(at("declared").chars, 5000);
        assert_eq!(at("other").chars, 200);
        // A declared limit decides on every axis: no byte limit under it.
        assert_eq!(at("declared").bytes, usize::MAX);
        assert_eq!(at("other").bytes, usize::MAX, "the \"*\" entry sets none");
        assert_eq!(at("never").when, Some(MaterializeWhen::Never));
        m.declare_tool_limit("declared", 50);
        assert_eq!(at("declared").chars, 50);
        // The cheap pre-check of materializeMessages sees the smallest limit.
        assert_eq!(m.surely_inline_any(false), 50);
    }

    /// Issue 48: a tool's own entry decides on every axis. `bash: { maxInlineChars: 30000 }`
    /// kept nothing over the global 16,384 bytes inline: a 20,020-character output was
    /// materialized. An entry that sets nothing is as if absent.
    #[test]
    fn a_tools_entry_decides_alone_on_every_axis() {
        let mut options = MaterializerOptions::new("/d", "c", "/");
        options.tools = vec![
            (
                "bash".into(),
                ToolLimits {
                    max_inline_chars: Some(30_000),
                    ..ToolLimits::default()
                },
            ),
            ("empty".into(), ToolLimits::default()),
            (
                ANY_TOOL.into(),
                ToolLimits {
                    max_inline_bytes: Some(40_000),
                    ..ToolLimits::default()
                },
            ),
        ];
        let m = Materializer::new(options).unwrap();
        let output = "compiling crate_0042 … ok\n".repeat(770);
        assert_eq!(crate::text::utf16_len(&output), 20_020);
        assert!(!m.exceeds_limits_for("bash", &output));
        assert!(m.exceeds_limits_for("bash", &"x".repeat(30_001)));
        // Three bytes a unit: 60,000 bytes, over "*"'s 40,000, not bash's concern.
        assert!(!m.exceeds_limits_for("bash", &"€".repeat(20_000)));
        assert!(m.exceeds_limits_for("ls", &"€".repeat(20_000)));
        // "*" decides alone too: no character limit under it; "empty" falls to "*".
        assert!(!m.exceeds_limits_for("ls", &"x".repeat(39_000)));
        assert_eq!(m.limits_for("empty"), m.limits_for("ls"));
        // Without entries, the options' own limits.
        let plain = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
        assert!(plain.exceeds_limits_for("bash", &output));
    }

    /// A Materializer whose `bash` entry sets a token limit and nothing else.
    fn with_bash_token_limit(tokens: usize) -> Materializer {
        let mut options = MaterializerOptions::new("/d", "c", "/");
        let limits = ToolLimits {
            max_inline_tokens: Some(tokens),
            ..ToolLimits::default()
        };
        options.tools = vec![("bash".into(), limits)];
        Materializer::new(options).unwrap()
    }

    /// A tool's token limit counts by the estimate, over its character and byte limits,
    /// and lowers the length that surely stays inline to half of it.
    #[test]
    fn a_token_limit_materializes_what_the_estimate_puts_over_it() {
        let m = with_bash_token_limit(99);
        // 198 digits are 99 tokens by the estimate (12 eighths per 3), 201 are 101.
        assert_eq!(estimate_tokens(&"1".repeat(198)), 99);
        assert_eq!(estimate_tokens(&"1".repeat(201)), 101);
        assert!(!m.exceeds_limits_for("bash", &"1".repeat(198)));
        assert!(m.exceeds_limits_for("bash", &"1".repeat(201)));
        assert!(
            !m.exceeds_limits_for("ls", &"1".repeat(201)),
            "only bash's entry"
        );
        // Tabs between digits are among the costliest text: more tokens than units.
        let dense = "1\t".repeat(45);
        assert!(estimate_tokens(&dense) > 99);
        assert!(m.exceeds_limits_for("bash", &dense));
        assert_eq!(m.surely_inline_any(false), 49);
        assert_eq!(m.surely_inline_any(true), 33);
    }

    /// With a host's counter, a token limit counts by it — but asks it only about text
    /// longer in UTF-8 bytes than the limit — and its error is the call's.
    #[test]
    fn a_token_limit_counts_by_the_hosts_counter_past_the_byte_bound() {
        let m = with_bash_token_limit(10);
        let asked = std::cell::RefCell::new(Vec::new());
        // Two bytes a token.
        let halves = |text: &str| {
            asked.borrow_mut().push(text.len());
            Ok(text.len() / 2)
        };
        let over = |text: &str, tool: &str| {
            m.counted_exceeds(&Measure::of(text), text, tool, Some(&halves))
                .unwrap()
        };
        // 24 letters: 12 tokens by the counter, over 10; 7 by the estimate.
        let letters = "a".repeat(24);
        assert!(!m.exceeds_limits_for("bash", &letters));
        assert!(over(&letters, "bash"));
        // Digits and tabs: 10 by the counter, within; over by the estimate.
        let dense = "1\t".repeat(10);
        assert!(m.exceeds_limits_for("bash", &dense));
        assert!(!over(&dense, "bash"));
        // At most 10 bytes is within, uncounted; another tool has no token limit.
        assert!(!over("aaaaaaaaaa", "bash"));
        assert!(!over(&letters, "ls"));
        assert_eq!(*asked.borrow(), [24, 20]);
        let fails = |_: &str| Err(OffloadError::InvalidArgument("counter failed".into()));
        let failed = m.counted_exceeds(&Measure::of(&letters), &letters, "bash", Some(&fails));
        assert_eq!(
            failed.unwrap_err().to_string(),
            OffloadError::InvalidArgument("counter failed".into()).to_string()
        );
    }

    /// `surely_inline`'s bound: the estimate never gives more than two tokens per UTF-16
    /// unit, whatever the mix of letters, digits, blanks, newlines, symbols and wide
    /// characters.
    #[test]
    fn the_estimate_gives_at_most_two_tokens_per_utf16_unit() {
        let pieces = [
            "a", "B", "1", " ", "\t", "\n", "\r", "-", "é", "😀", "ab", "\n\t",
        ];
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let len = rng.below(12);
            let text: String = (0..len).map(|_| rng.pick(&pieces)).collect();
            let units = crate::text::utf16_len(&text);
            assert!(estimate_tokens(&text) <= 2 * units, "{text:?}");
        }
    }

    /// Exactly at a limit stays inline, one over is materialized, for characters and for
    /// bytes alike; the length that surely stays inline is bounded by a third of the bytes.
    #[test]
    fn limits_are_inclusive_and_bytes_bound_the_surely_inline_length() {
        let mut options = MaterializerOptions::new("/d", "c", "/");
        options.max_inline_chars = 100;
        options.max_inline_bytes = 150;
        let m = Materializer::new(options).unwrap();
        assert!(!m.exceeds_limits(&"x".repeat(100)));
        assert!(m.exceeds_limits(&"x".repeat(101)));
        // "é" is 2 bytes: 75 are 150 bytes (inline), 76 are 152 (over, under 100 chars).
        assert!(!m.exceeds_limits(&"é".repeat(75)));
        assert!(m.exceeds_limits(&"é".repeat(76)));
        assert_eq!(m.surely_inline_any(false), 50);
    }
}
