//! One policy's figures over one conversation, turn by turn.

use super::analysis::Analysis;
use super::history::{turn, Serialised, Turn};
use super::messages::{content_at, content_text};
use crate::identifiers::{occurs, Words};
use crate::json::stringify;
use serde_json::Value;

/// Identifiers used later that a shrunk result held, and how many of them stayed in
/// what was sent for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sufficiency {
    /// Identifiers the agent used after a shrunk result that the result held.
    pub used: usize,
    /// Those that occur in what was sent for the result.
    pub visible: usize,
    /// Of `used`, those no message before the result held.
    pub new_used: usize,
    /// Of `visible`, those no message before the result held.
    pub new_visible: usize,
}

/// One tool's results under a policy: how many, what was sent for them, what their
/// previews kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolFigures {
    /// The tool's name ([`UNKNOWN_TOOL`] when no call names it).
    pub tool: String,
    /// Its results in the conversation.
    pub results: usize,
    /// Those sent other than they were.
    pub shrunk: usize,
    /// UTF-16 code units of its results' contents serialised, as they were.
    pub chars_before: u64,
    /// The same, as first sent (a result no turn sent counts as it was).
    pub chars_after: u64,
    /// What the shrunk results' previews kept.
    pub sufficiency: Sufficiency,
}

/// The tool name of results whose call is not in the conversation.
pub const UNKNOWN_TOOL: &str = "(unknown)";

/// A policy's figures over a conversation (or summed over several).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// Turns replayed.
    pub turns: usize,
    /// UTF-16 code units of the histories sent, summed over turns.
    pub chars: u64,
    /// Their estimated tokens.
    pub tokens: u64,
    /// Code units each turn shared with the turn before (a prompt cache reads them).
    pub cache_read_chars: u64,
    /// Their estimated tokens.
    pub cache_read_tokens: u64,
    /// Turns after the first whose history extends the turn before's.
    pub stable_turns: usize,
    /// Turns after the first.
    pub later_turns: usize,
    /// Tool results in the conversation.
    pub results: usize,
    /// Results sent other than they were.
    pub shrunk: usize,
    /// What the shrunk results' previews kept.
    pub sufficiency: Sufficiency,
    /// The same per tool, in order of first result.
    pub tools: Vec<ToolFigures>,
}

impl Sufficiency {
    fn add(&mut self, o: &Sufficiency) {
        self.used += o.used;
        self.visible += o.visible;
        self.new_used += o.new_used;
        self.new_visible += o.new_visible;
    }
}

impl Figures {
    /// What a prompt cache charges for the turns, in base-input-token units: the shared
    /// prefix read at `read`, the rest written at `write` (Anthropic: 0.1 and 1.25).
    pub fn cache_cost(&self, read: f64, write: f64) -> f64 {
        let read_tokens = self.cache_read_tokens as f64;
        read * read_tokens + write * (self.tokens as f64 - read_tokens)
    }

    /// `other` added to these.
    pub fn add(&mut self, other: &Figures) {
        self.turns += other.turns;
        self.chars += other.chars;
        self.tokens += other.tokens;
        self.cache_read_chars += other.cache_read_chars;
        self.cache_read_tokens += other.cache_read_tokens;
        self.stable_turns += other.stable_turns;
        self.later_turns += other.later_turns;
        self.results += other.results;
        self.shrunk += other.shrunk;
        self.sufficiency.add(&other.sufficiency);
        for theirs in &other.tools {
            let at = self.tool_index(&theirs.tool);
            let ours = &mut self.tools[at];
            ours.results += theirs.results;
            ours.shrunk += theirs.shrunk;
            ours.chars_before += theirs.chars_before;
            ours.chars_after += theirs.chars_after;
            ours.sufficiency.add(&theirs.sufficiency);
        }
    }

    /// The index of `tool`'s figures, made empty if new.
    fn tool_index(&mut self, tool: &str) -> usize {
        match self.tools.iter().position(|t| t.tool == tool) {
            Some(at) => at,
            None => {
                self.tools.push(ToolFigures {
                    tool: tool.to_owned(),
                    ..ToolFigures::default()
                });
                self.tools.len() - 1
            }
        }
    }
}

/// Replays one policy over one conversation: give it each turn's history as the policy
/// sends it, in order, then take its [`Figures`].
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::json::stringify;
/// use tool_offload_core::replay::{Analysis, Serialised, Tally};
/// let messages = vec![
///     json!({"role": "user", "content": "go"}),
///     json!({"role": "assistant", "content": "ok"}),
///     json!({"role": "user", "content": "more"}),
///     json!({"role": "assistant", "content": "done"}),
/// ];
/// let analysis = Analysis::of(&messages);
/// let mut tally = Tally::new(&analysis);
/// for &at in &analysis.turns {
///     let sent = &messages[..at];
///     let serialised = sent.iter().map(|m| Serialised::new(stringify(m))).collect();
///     tally.turn(at, sent, serialised);
/// }
/// let figures = tally.finish();
/// assert_eq!((figures.turns, figures.stable_turns, figures.later_turns), (2, 1, 1));
/// assert_eq!(figures.chars, 32 + 101);
/// ```
#[derive(Debug)]
pub struct Tally<'a> {
    analysis: &'a Analysis,
    previous: Option<Vec<Serialised>>,
    figures: Figures,
    /// Results before this index have been scored.
    next_result: usize,
    /// Each result's index in `figures.tools`.
    tool_of: Vec<usize>,
}

impl<'a> Tally<'a> {
    /// A tally over the conversation `analysis` read.
    pub fn new(analysis: &'a Analysis) -> Self {
        let mut figures = Figures {
            results: analysis.results.len(),
            ..Figures::default()
        };
        let tool_of = analysis
            .results
            .iter()
            .map(|r| {
                let at = figures.tool_index(r.tool.as_deref().unwrap_or(UNKNOWN_TOOL));
                let t = &mut figures.tools[at];
                let chars = crate::text::utf16_len(&r.raw_json) as u64;
                t.results += 1;
                t.chars_before += chars;
                t.chars_after += chars;
                at
            })
            .collect();
        Tally {
            analysis,
            previous: None,
            figures,
            next_result: 0,
            tool_of,
        }
    }

    /// The turn at message `at` sent `sent` (`serialised`: each message of it
    /// serialised, sharing an `Rc` with the turn before's where it did not change).
    /// Results before `at` not yet scored are scored by what this turn sent for them.
    /// Returns the turn's own figures.
    pub fn turn(&mut self, at: usize, sent: &[Value], serialised: Vec<Serialised>) -> Turn {
        let t = turn(self.previous.as_deref(), &serialised);
        let f = &mut self.figures;
        f.turns += 1;
        f.chars += t.chars as u64;
        f.tokens += t.tokens as u64;
        f.cache_read_chars += t.prefix as u64;
        f.cache_read_tokens += t.prefix_tokens as u64;
        if let Some(stable) = t.stable {
            f.later_turns += 1;
            f.stable_turns += usize::from(stable);
        }
        self.previous = Some(serialised);
        let results = &self.analysis.results;
        while self.next_result < results.len() && results[self.next_result].at.message < at {
            let result = &results[self.next_result];
            self.next_result += 1;
            let Some(message) = sent.get(result.at.message) else {
                continue;
            };
            let content = content_at(message, result.at.slot);
            let sent_json = content.map_or_else(String::new, stringify);
            if sent_json == result.raw_json {
                continue;
            }
            f.shrunk += 1;
            let text = content_text(content);
            let words = Words::of(&text);
            let mut kept = Sufficiency::default();
            for pair in &result.pairs {
                let visible = usize::from(occurs(&text, &words, &pair.id));
                kept.used += 1;
                kept.visible += visible;
                if pair.is_new {
                    kept.new_used += 1;
                    kept.new_visible += visible;
                }
            }
            f.sufficiency.add(&kept);
            let tool = &mut f.tools[self.tool_of[self.next_result - 1]];
            tool.shrunk += 1;
            tool.chars_after = tool.chars_after + crate::text::utf16_len(&sent_json) as u64
                - crate::text::utf16_len(&result.raw_json) as u64;
            tool.sufficiency.add(&kept);
        }
        t
    }

    /// The figures of the turns given.
    pub fn finish(self) -> Figures {
        self.figures
    }
}
