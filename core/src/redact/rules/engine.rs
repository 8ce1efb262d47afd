//! How a rule's pattern is searched in a window: by the regex engine; by the engine only
//! where a match can start, for a rule whose matches all start with one of a few words
//! (its `starts`); or by hand. Each gives what the engine's `captures_at` gives.
//!
//! The engine simulates an NFA over every byte it reads, a microsecond or more per line:
//! where a rule's literal is common (`_key` in `api_key`, `oken` in every `tokens`) its
//! windows were most of the time of a log with a candidate on every line.

use regex_lite::Regex;

use super::{Groups, Rule};

/// A rule's search.
pub(super) enum Engine {
    Regex(Regex),
    /// The pattern anchored (`^(?:…)`), run only where one of the words starts; a
    /// leading `\b` is taken off it and judged on the window (`true`).
    Starts(Regex, &'static [&'static str], bool),
    ByHand(fn(&str, usize) -> Option<Groups>),
}

impl Engine {
    /// `rule`'s search, or `None` if its pattern does not compile (the tests see that
    /// every one does).
    pub(super) fn new(rule: &Rule) -> Option<Engine> {
        if let Some(by_hand) = rule.by_hand {
            return Some(Engine::ByHand(by_hand));
        }
        if rule.starts.is_empty() {
            return Regex::new(rule.pattern).ok().map(Engine::Regex);
        }
        let (flags, bare) = match rule.pattern.strip_prefix("(?i)") {
            Some(bare) => ("(?i)", bare),
            None => ("", rule.pattern),
        };
        let (boundary, bare) = match bare.strip_prefix(r"\b") {
            Some(bare) => (true, bare),
            None => (false, bare),
        };
        let anchored = Regex::new(&format!("{flags}^(?:{bare})")).ok()?;
        Some(Engine::Starts(anchored, rule.starts, boundary))
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
fn captures(re: &Regex, hay: &str, from: usize, shift: usize) -> Option<Groups> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// For each rule searched only at its words: the same matches as the engine's
    /// search of every position, on random text of its words, in any case, and what
    /// follows them.
    #[test]
    fn searching_at_the_words_finds_what_the_engine_finds() {
        let mut rng = crate::test_rng::Rng(0x0057_A275);
        // Assignments: a name (a rule's words and literals, in any case) or a whole
        // context as tools print it, what comes between, a value (40 and 104 characters
        // of base64, a storage key's 86 and `==`, 32 hex), noise round them.
        let sid = "AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c";
        let contexts = [
            "aws_secret_access_key = ",
            "\"SecretAccessKey\": \"",
            "AWS_SESSION_TOKEN=",
            "X-Amz-Security-Token: ",
            "DefaultEndpointsProtocol=https;AccountKey=",
            "SharedAccessKey=",
            "storage_account_key: ",
            "--account-key ",
            "--account-key=\"",
            "-StorageAccountKey ",
            "\"permissions\": \"FULL\",\n    \"value\": \"",
            "key1\tFULL\t",
            "key2   Read   ",
            "-u AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c:",
            "Client(\"AC0f3a9c2b7e1d4f6a8b5c3e2d1f0a9b8c\", \"",
        ];
        let between = [
            "=", ":", " = ", "\": \"", "=>", ":=", "\\\"", "'] = '", "\t:\t", " ", "", "\", \"",
            ", '", "\t", "   ",
        ];
        let values = [
            "AbC0/+".repeat(6) + "AbC0",
            "xY9+".repeat(26),
            "Zz09+/".repeat(14) + "ab==",
            "5d41402abc4b2a76b9719d911017c592".into(),
            sid.into(),
            "==".into(),
            "ab".into(),
        ];
        let noise = [
            "_", "-", "x", "é", "\u{212A}", "\u{17F}", "\n", " ", "\"", ",", "Key", "key", "AC",
        ];
        for rule in super::super::rules().filter(|r| !r.starts.is_empty()) {
            let plain = Regex::new(rule.pattern).unwrap();
            let engine = Engine::new(rule).unwrap();
            assert!(matches!(engine, Engine::Starts(..)), "{}", rule.kind);
            assert!(rule.starts.iter().all(|w| *w == w.to_ascii_lowercase()));
            let mut names: Vec<String> = Vec::new();
            for w in rule.starts.iter().chain(rule.triggers) {
                names.push(w.to_string());
                names.push(w.to_ascii_uppercase());
                names.push(w[..1].to_ascii_uppercase() + &w[1..]);
            }
            // The contexts where the rule finds one of the values, others now and then.
            let fits = |c: &&str| values.iter().any(|v| plain.is_match(&format!("{c}{v}")));
            let mut own: Vec<&str> = contexts.iter().copied().filter(fits).collect();
            own.push(rng.pick(&contexts));
            let mut tried = 0;
            for _ in 0..3000 {
                let mut hay = String::new();
                for _ in 0..1 + rng.below(3) {
                    for _ in 0..rng.below(3) {
                        hay.push_str(rng.pick(&noise));
                    }
                    if rng.below(2) == 0 {
                        hay.push_str(rng.pick(&own));
                    } else {
                        hay.push_str(&names[rng.below(names.len())]);
                        hay.push_str(rng.pick(&between));
                    }
                    hay.push_str(&values[rng.below(values.len())]);
                }
                // From the start and from a few places inside.
                let froms = [0, rng.below(hay.len() + 1), rng.below(hay.len() + 1)];
                for from in froms.into_iter().filter(|&i| hay.is_char_boundary(i)) {
                    let expected = captures(&plain, &hay, from, 0);
                    tried += usize::from(expected.is_some());
                    assert_eq!(
                        engine.captures_at(&hay, from),
                        expected,
                        "{}: {hay:?} from {from}",
                        rule.kind
                    );
                }
            }
            println!("{}: {tried} matches compared", rule.kind);
            assert!(tried > 100, "{}: {tried} matches compared", rule.kind);
        }
    }
}
