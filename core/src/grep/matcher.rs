//! What a grep matches rows with: a compiled pattern (with its literal prefilter), or
//! any test of a row's text.

use super::pattern::Pattern;

/// What rows `grep` looks for.
pub(crate) trait Matcher {
    fn is_match(&self, row: &str) -> bool;
    /// The literal search that rules lines out before their rows are matched, if any.
    fn prefilter(&self) -> Option<Prefilter> {
        None
    }
    /// Where it matches in `row` (byte ranges, in order), for the windows shown of a
    /// part of a long line; `None` when it cannot say (the row is then shown whole).
    fn spans(&self, _row: &str) -> Option<Vec<(usize, usize)>> {
        None
    }
}

/// A compiled `context_grep` pattern, with its literal prefilter.
impl Matcher for Pattern {
    fn is_match(&self, row: &str) -> bool {
        Pattern::is_match(self, row)
    }
    fn prefilter(&self) -> Option<Prefilter> {
        Prefilter::of(self)
    }
    fn spans(&self, row: &str) -> Option<Vec<(usize, usize)>> {
        Some(self.match_spans(row))
    }
}

/// Any test of a row's text.
pub(crate) struct RowTest<F>(pub(crate) F);

impl<F: Fn(&str) -> bool + Sync> Matcher for RowTest<F> {
    fn is_match(&self, row: &str) -> bool {
        (self.0)(row)
    }
}

/// The literal search run over whole chunks before any row is matched.
pub(crate) struct Prefilter {
    finders: Vec<memchr::memmem::Finder<'static>>,
    fold_ascii: bool,
    folded: std::cell::RefCell<Vec<u8>>,
}

impl Prefilter {
    /// For a pattern of literal alternatives, or with literals every match holds; none
    /// when a row could match without one of them appearing in its bytes (an empty
    /// word, or U+FFFD, which stands for bytes that are not UTF-8).
    pub(crate) fn of(pattern: &Pattern) -> Option<Prefilter> {
        let (words, fold_ascii) = pattern.prefilter_words()?;
        if words
            .iter()
            .any(|w| w.is_empty() || crate::search::find(w, "\u{FFFD}").is_some())
        {
            return None;
        }
        Some(Prefilter {
            finders: words
                .iter()
                .map(|w| memchr::memmem::Finder::new(w.as_bytes()).into_owned())
                .collect(),
            fold_ascii,
            folded: std::cell::RefCell::new(Vec::new()),
        })
    }

    /// Offsets (from `at`) in `bytes` where a word starts, sorted.
    pub(crate) fn find_all(&self, bytes: &[u8], at: u64, out: &mut Vec<u64>) {
        let mut folded = self.folded.borrow_mut();
        let haystack = if self.fold_ascii {
            folded.clear();
            folded.extend(bytes.iter().map(u8::to_ascii_lowercase));
            &folded[..]
        } else {
            bytes
        };
        // Each word's offsets come sorted; several are merged (no sort: its code would
        // weigh more in the wasm than this loop).
        let mut found: Vec<std::iter::Peekable<_>> = self
            .finders
            .iter()
            .map(|finder| finder.find_iter(haystack).peekable())
            .collect();
        loop {
            let next = found
                .iter_mut()
                .filter_map(|words| words.peek().copied())
                .min();
            let Some(next) = next else { break };
            for words in &mut found {
                words.next_if_eq(&next);
            }
            out.push(at + next as u64);
        }
    }
}
