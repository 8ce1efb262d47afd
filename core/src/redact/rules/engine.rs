//! How a rule's pattern is searched in a window: by the regex engine; by the engine only
//! where a match can start, for a rule whose matches all start with one of a few words
//! (its `starts`); or by hand. Each gives what the engine's `captures_at` gives.
//!
//! The engine simulates an NFA over every byte it reads, a microsecond or more per line:
//! where a rule's literal is common (`_key` in `api_key`, `oken` in every `tokens`) its
//! windows were most of the time of a log with a candidate on every line.

use regex_lite::Regex;

/// Groups 0 (the whole match), 1 and 2 of a match, as byte ranges of what was searched.
pub(super) type Groups = [Option<(usize, usize)>; 3];

/// A pattern matched by hand: the first match at or after a start, as the engine's
/// `captures_at` gives it.
pub(super) type ByHand = fn(&str, usize) -> Option<Groups>;

/// A rule's search.
pub(super) enum Engine {
    Regex(Regex),
    /// The pattern anchored (`^(?:…)`), run only where one of the words starts; a
    /// leading `\b` is taken off it and judged on the window (`true`).
    Starts(Regex, &'static [&'static str], bool),
    ByHand(ByHand),
}

impl Engine {
    /// The search of a rule's `pattern`: by hand when it has a matcher, at its `starts`
    /// when it has words, else by the engine; `None` if the pattern does not compile
    /// (the tests see that every rule's does).
    pub(super) fn new(
        pattern: &str,
        starts: &'static [&'static str],
        by_hand: Option<ByHand>,
    ) -> Option<Engine> {
        if let Some(by_hand) = by_hand {
            return Some(Engine::ByHand(by_hand));
        }
        if starts.is_empty() {
            return Regex::new(pattern).ok().map(Engine::Regex);
        }
        let (flags, bare) = match pattern.strip_prefix("(?i)") {
            Some(bare) => ("(?i)", bare),
            None => ("", pattern),
        };
        let (boundary, bare) = match bare.strip_prefix(r"\b") {
            Some(bare) => (true, bare),
            None => (false, bare),
        };
        let anchored = Regex::new(&format!("{flags}^(?:{bare})")).ok()?;
        Some(Engine::Starts(anchored, starts, boundary))
    }

    /// The first match in `hay` starting at or after `from`, as the engine's
    /// `captures_at(hay, from)` has it.
    pub(super) fn captures_at(&self, hay: &str, from: usize) -> Option<Groups> {
        match self {
            Engine::ByHand(by_hand) => by_hand(hay, from),
            Engine::Regex(re) => captures(re, hay, from, 0),
            Engine::Starts(re, starts, boundary) => {
                let b = hay.as_bytes();
                // A match starts at a word, so the leftmost is at the first word where
                // the anchored pattern matches. Past a leading `\b`, judged here on the
                // window (ASCII word bytes, as the engine has it), the patterns look at
                // nothing before their start: the window cut there is the same.
                let word = |at: usize| b.get(at).is_some_and(|&c| is_word(c));
                let bounded = |at: usize| (at > 0 && word(at - 1)) != word(at);
                (from..b.len())
                    .filter(|&at| starts_at(b, at, starts) && (!boundary || bounded(at)))
                    .find_map(|at| captures(re, &hay[at..], 0, at))
            }
        }
    }
}

/// `re`'s first match in `hay` from `from`, its groups moved on by `shift`.
pub(super) fn captures(re: &Regex, hay: &str, from: usize, shift: usize) -> Option<Groups> {
    let caps = re.captures_at(hay, from)?;
    let group = |i: usize| caps.get(i).map(|m| (shift + m.start(), shift + m.end()));
    Some([group(0), group(1), group(2)])
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether one of `words` (lower case) starts at `b[at]`, ASCII case-insensitively.
fn starts_at(b: &[u8], at: usize, words: &[&str]) -> bool {
    let first = b[at].to_ascii_lowercase();
    words.iter().any(|w| {
        let w = w.as_bytes();
        w.first() == Some(&first)
            && b.get(at..at + w.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(w))
    })
}
