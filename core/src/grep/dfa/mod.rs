//! A lazy DFA for grep's patterns: the engine (regex-lite, a PikeVM) reads every byte
//! through every live state, which is 5–9 MB/s in wasm for a pattern with no literal to
//! search for first (`\d{7}\b`) and slower still for nested repetitions; a DFA reads a
//! byte with one table lookup, whatever the pattern. It takes the subset of the syntax
//! [`parse`] reads and answers only whether a row matches (match positions, for the
//! windows of long lines, stay the engine's). Linear, like the engine: each byte costs
//! one lookup, or one NFA step the first time a state meets a byte class; the states are
//! kept in a bounded cache, and a pattern whose states thrash it falls back to the engine.

mod lazy;
mod nfa;
mod parse;
#[cfg(test)]
mod tests;

use std::sync::Mutex;

/// A pattern's DFA, shared by the rows of every search (and by clones of the pattern
/// until their first row: a clone starts with an empty cache).
pub(crate) struct Dfa {
    /// `None` once the cache thrashed: the engine answers from then on.
    lazy: Mutex<Option<lazy::Lazy>>,
}

impl Dfa {
    /// The DFA of `pattern`, or `None` when it uses what [`parse`] does not read.
    pub(crate) fn new(pattern: &str, ignore_case: bool) -> Option<Dfa> {
        let nfa = nfa::compile(&parse::parse(pattern, ignore_case)?)?;
        Some(Dfa {
            lazy: Mutex::new(Some(lazy::Lazy::new(nfa))),
        })
    }

    /// Whether `row` holds a match; `None` when the DFA gave up (its cache thrashed):
    /// ask the engine.
    pub(crate) fn is_match(&self, row: &str) -> Option<bool> {
        let mut guard = self.lazy.lock().unwrap_or_else(|e| e.into_inner());
        let answer = guard.as_mut()?.is_match(row.as_bytes());
        if answer.is_none() {
            *guard = None;
        }
        answer
    }
}

impl Clone for Dfa {
    fn clone(&self) -> Dfa {
        let lazy = self.lazy.lock().unwrap_or_else(|e| e.into_inner());
        Dfa {
            lazy: Mutex::new(lazy.as_ref().map(|l| lazy::Lazy::new(l.nfa().clone()))),
        }
    }
}

impl std::fmt::Debug for Dfa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Dfa")
    }
}
