//! `context_grep`'s patterns: compiled here, by one linear-time engine, for every host.
//!
//! JavaScript's `RegExp` backtracks (`(a+)+$` over a long run of `a` never returns) and
//! throws on huge patterns; running the same engine in core also means a pattern finds
//! the same rows from Node, the browser and Rust.

use crate::pattern_limit::MAX_PATTERN_CHARS;
use crate::text::thousands;
use crate::{error::OffloadError, text::utf16_len};

use regex_lite as engine;

/// Bound on the compiled pattern, in bytes of the engine's program. Search time is
/// proportional to program size times text length, and counted repetitions
/// (`a{1000}{1000}`) grow a short pattern without bound: this keeps both compile and
/// search bounded, while every pattern of [`MAX_PATTERN_CHARS`] without large counted
/// repetitions fits.
pub const MAX_COMPILED_BYTES: usize = 1 << 16;

/// Literal alternatives past this many are matched by the DFA, not searched for: each
/// word is one substring search over the whole artifact (~4 ms a word a 100 MB in
/// wasm), the DFA reads it once (~300 ms, whatever the words); the two cost the same
/// near 64 words, and the 160 words of the grep benchmark went from 1,170 to ~300 ms.
const MAX_SEARCHED_WORDS: usize = 64;

/// A compiled `context_grep` pattern: see [`compile_pattern`].
#[derive(Debug, Clone)]
pub struct Pattern {
    regex: engine::Regex,
    /// Set when the pattern is nothing but literal alternatives (`Error|Exception`, the
    /// summary's own advice): a substring search finds exactly the rows the engine
    /// would, many times faster.
    literals: Option<Literals>,
    /// Otherwise, literals one of which every match holds (`out of range` for
    /// `ERROR.*out of range`, see [`super::required`]): rows without one are ruled out
    /// by a substring search before the engine runs, and grep looks for them in whole
    /// chunks first.
    required: Option<Literals>,
    /// The lazy DFA that answers whether a row matches, when the pattern is in the
    /// subset it reads (see [`super::dfa`]); otherwise the engine answers.
    dfa: Option<super::dfa::Dfa>,
}

/// The alternatives of an all-literal pattern, ASCII-lowercased when matching ignores
/// case (the engine folds ASCII letters only, so this folds the same).
#[derive(Debug, Clone)]
struct Literals {
    words: Vec<String>,
    /// A searcher per word, built once (memchr's, which the wasm holds for grep's
    /// prefilter anyway; `str::contains` would add the standard library's).
    finders: Vec<memchr::memmem::Finder<'static>>,
    fold_ascii: bool,
}

impl Literals {
    /// `pattern`'s alternatives when it has no metacharacter but `|`.
    fn of(pattern: &str, ignore_case: bool) -> Option<Literals> {
        // (`matches!`, not `"…".contains(c)`: see `bundle::ends_ref`.)
        let meta = |c: char| {
            matches!(
                c,
                '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '^' | '$'
            )
        };
        if pattern.contains(meta) {
            return None;
        }
        Some(Literals::new(
            pattern.split('|').map(str::to_owned).collect(),
            ignore_case,
        ))
    }

    /// Any of `words`, ASCII-lowercased when `fold_ascii`.
    fn new(mut words: Vec<String>, fold_ascii: bool) -> Literals {
        if fold_ascii {
            words.iter_mut().for_each(|w| w.make_ascii_lowercase());
        }
        Literals {
            finders: words
                .iter()
                .map(|w| memchr::memmem::Finder::new(w.as_bytes()).into_owned())
                .collect(),
            words,
            fold_ascii,
        }
    }

    fn is_match(&self, row: &str) -> bool {
        let found = |row: &[u8]| self.finders.iter().any(|f| f.find(row).is_some());
        if self.fold_ascii && row.bytes().any(|b| b.is_ascii_uppercase()) {
            return found(&row.to_ascii_lowercase().into_bytes());
        }
        found(row.as_bytes())
    }
}

impl Pattern {
    /// The alternatives of an all-literal pattern (ASCII-lowercased when the second
    /// value, ignoring ASCII case, is true), for a search over whole chunks.
    #[cfg(test)]
    pub(crate) fn literal_words(&self) -> Option<(&[String], bool)> {
        self.literals
            .as_ref()
            .map(|l| (l.words.as_slice(), l.fold_ascii))
    }

    /// Words one of which every matching row holds (ASCII-lowercased when the second
    /// value is true): the literal alternatives, or the required literals.
    pub(crate) fn prefilter_words(&self) -> Option<(&[String], bool)> {
        if self.dfa.is_some() && self.literals.is_some() {
            return None; // too many words to search for: the DFA reads each row
        }
        self.literals
            .as_ref()
            .or(self.required.as_ref())
            .map(|l| (l.words.as_slice(), l.fold_ascii))
    }

    /// Whether the pattern matches somewhere in `row`.
    ///
    /// ```
    /// let p = tool_offload_core::materialize::compile_pattern("err(or)?", false).unwrap();
    /// assert!(p.is_match("an error here"));
    /// assert!(!p.is_match("all fine"));
    /// ```
    pub fn is_match(&self, row: &str) -> bool {
        match (&self.literals, &self.required) {
            (Some(literals), _) => match self.dfa.as_ref().and_then(|dfa| dfa.is_match(row)) {
                Some(matched) => matched,
                None => literals.is_match(row),
            },
            (None, Some(required)) if !required.is_match(row) => false,
            _ => match self.dfa.as_ref().and_then(|dfa| dfa.is_match(row)) {
                Some(matched) => matched,
                None => self.regex.is_match(row),
            },
        }
    }

    /// Where the pattern matches in `row`: byte ranges in order of their starts
    /// (alternatives of a literal pattern may overlap).
    pub(crate) fn match_spans(&self, row: &str) -> Vec<(usize, usize)> {
        let Some(literals) = &self.literals else {
            return self
                .regex
                .find_iter(row)
                .map(|m| (m.start(), m.end()))
                .filter(|&(start, end)| row.is_char_boundary(start) && row.is_char_boundary(end))
                .collect();
        };
        let folded;
        let hay = if literals.fold_ascii {
            folded = row.to_ascii_lowercase();
            folded.as_bytes()
        } else {
            row.as_bytes()
        };
        // In order of their starts (each word's come in order: placed by a binary search,
        // not sorted, which would add a sort's code to the wasm); the windows merge
        // overlaps.
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for (finder, word) in literals.finders.iter().zip(&literals.words) {
            if word.is_empty() {
                // Matches everywhere (and inside characters, as bytes): one span will do.
                spans.insert(0, (0, 0));
                continue;
            }
            for at in finder.find_iter(hay) {
                let place = spans.partition_point(|&(start, _)| start <= at);
                spans.insert(place, (at, at + word.len()));
            }
        }
        spans
    }

    /// The engine's compiled pattern, for where the matches themselves are needed
    /// (redaction replaces them).
    pub(crate) fn regex(&self) -> &engine::Regex {
        &self.regex
    }

    /// The pattern as given.
    ///
    /// ```
    /// let p = tool_offload_core::materialize::compile_pattern("a|b", true).unwrap();
    /// assert_eq!(p.as_str(), "a|b");
    /// ```
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }
}

/// Compile `pattern` for [`Materializer::grep`](crate::materialize::Materializer::grep), matching
/// ASCII letters case-insensitively when `ignore_case`. Every search with the result
/// runs in time linear in the text searched.
///
/// # Errors
/// [`OffloadError::InvalidPattern`] with the reason when `pattern` is over
/// [`MAX_PATTERN_CHARS`], is not valid syntax, uses what the engine does not support
/// (look-around, backreferences, `\p{…}`) or compiles past [`MAX_COMPILED_BYTES`].
///
/// ```
/// use tool_offload_core::materialize::compile_pattern;
/// use tool_offload_core::ErrorCode;
/// assert!(compile_pattern("ERROR", true).unwrap().is_match("an error"));
/// // `(?i)` before literal alternatives takes the literal search, as `ignore_case` does.
/// let p = compile_pattern("(?i)error|panic", false).unwrap();
/// assert!(p.is_match("PANIC: x") && !p.is_match("fine"));
/// let err = compile_pattern("(?=a)", false).unwrap_err();
/// assert_eq!(err.code(), ErrorCode::InvalidPattern);
/// assert_eq!(err.to_string(), "invalid pattern \"(?=a)\": look-around is not supported");
/// ```
pub fn compile_pattern(pattern: &str, ignore_case: bool) -> Result<Pattern, OffloadError> {
    let invalid = |reason: String| OffloadError::InvalidPattern {
        pattern: pattern.into(),
        reason,
    };
    let chars = utf16_len(pattern);
    if chars > MAX_PATTERN_CHARS {
        return Err(invalid(format!(
            "the pattern is {} characters long; at most {} are allowed",
            thousands(chars),
            thousands(MAX_PATTERN_CHARS)
        )));
    }
    engine::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(MAX_COMPILED_BYTES)
        .build()
        .map(|regex| {
            // `(?i)` before literals is the `ignore_case` option, and costs what it costs.
            let literals = match pattern.strip_prefix("(?i)") {
                Some(rest) => Literals::of(rest, true),
                None => Literals::of(pattern, ignore_case),
            };
            let required = match literals {
                Some(_) => None,
                None => super::required::required(pattern)
                    .map(|(words, fold)| Literals::new(words, fold || ignore_case)),
            };
            let dfa = match &literals {
                Some(l) if l.words.len() <= MAX_SEARCHED_WORDS => None,
                _ => super::dfa::Dfa::new(pattern, ignore_case),
            };
            Pattern {
                regex,
                literals,
                required,
                dfa,
            }
        })
        .map_err(|e| invalid(e.to_string()))
}

#[cfg(test)]
#[path = "pattern_tests.rs"]
mod tests;
