//! The lazy DFA: a state is a set of NFA states (with what the assertions need to know
//! of the byte before), built the first time a byte leads to it and kept in a table, so
//! a row is matched at one table lookup a byte.

use super::nfa::{Nfa, State};
use super::parse::{Class, Look};

/// A transition not yet computed.
const UNKNOWN: u32 = u32::MAX;
/// The row matches: the search stops.
const MATCHED: u32 = u32::MAX - 1;
/// Past this many table entries (or as many numbers in the states' keys: a key holds up
/// to one per NFA state) the cache is cleared and built again as rows need it, so a
/// pattern's cache stays under ~8 MB whatever its NFA.
const MAX_ENTRIES: usize = 1 << 20;
/// Clears after which a pattern whose states do not repeat is left to the engine.
const MAX_CLEARS: u32 = 8;

/// What the DFA knows at a position besides its NFA states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Context {
    /// The byte before was a word byte.
    after_word: bool,
    /// Nothing is before (the row's start).
    at_start: bool,
}

pub(super) struct Lazy {
    nfa: Nfa,
    /// Byte → its class: bytes of a class lead every NFA state to the same place.
    classes: [u8; 256],
    /// A byte of each class (to step the NFA with).
    representatives: Vec<u8>,
    /// Each DFA state's NFA states, sorted, then its context as one more number.
    keys: Vec<Vec<u32>>,
    /// The numbers held by `keys`, all together.
    key_words: usize,
    /// `keys` indices sorted by key, to find a state again.
    sorted: Vec<u32>,
    /// `state * classes + class` → the next state.
    table: Vec<u32>,
    /// Whether each state matches at the row's end (0 unknown, 1 no, 2 yes).
    at_end: Vec<u8>,
    clears: u32,
    /// [`MAX_ENTRIES`], smaller in tests.
    max_entries: usize,
    /// Scratch of the closure: visited marks and a stack.
    seen: Vec<u32>,
    mark: u32,
    stack: Vec<u32>,
}

/// Whether `b` is an ASCII word byte (`\w`, as the engine's `\b` reads it).
fn is_word(b: u8) -> bool {
    b < 128 && Class::WORD.ascii >> b & 1 == 1
}

impl Lazy {
    pub(super) fn new(nfa: Nfa) -> Lazy {
        // Class boundaries: where any range starts or ends, and where word bytes begin
        // and end when a boundary is asserted.
        // Continuation bytes are their own classes: no match starts before one.
        let mut cut = [false; 257];
        cut[0x80] = true;
        cut[0xC0] = true;
        for state in &nfa.states {
            if let State::Range { lo, hi, .. } = *state {
                cut[lo as usize] = true;
                cut[hi as usize + 1] = true;
            }
        }
        if nfa.has_word_look {
            for b in 0..=255u8 {
                if b > 0 && is_word(b) != is_word(b - 1) {
                    cut[b as usize] = true;
                }
            }
        }
        let mut classes = [0u8; 256];
        let mut representatives = vec![0u8];
        let mut class = 0usize;
        for b in 1..256usize {
            if cut[b] {
                class += 1;
                representatives.push(b as u8);
            }
            classes[b] = class as u8;
        }
        let seen = vec![0; nfa.states.len()];
        let mut lazy = Lazy {
            nfa,
            classes,
            representatives,
            keys: Vec::new(),
            key_words: 0,
            sorted: Vec::new(),
            table: Vec::new(),
            at_end: Vec::new(),
            clears: 0,
            max_entries: MAX_ENTRIES,
            seen,
            mark: 0,
            stack: Vec::new(),
        };
        lazy.clear();
        lazy
    }

    /// A cache of at most `entries` table entries (tests: to see it clear and give up).
    #[cfg(test)]
    pub(super) fn limit_cache(&mut self, entries: usize) {
        self.max_entries = entries;
    }

    /// The NFA this DFA is built from (a clone of the pattern starts its own cache).
    pub(super) fn nfa(&self) -> &Nfa {
        &self.nfa
    }

    /// How many times the cache was cleared.
    #[cfg(test)]
    pub(super) fn clears(&self) -> u32 {
        self.clears
    }

    /// Forget every state but the start (state 0).
    fn clear(&mut self) {
        self.keys.clear();
        self.key_words = 0;
        self.sorted.clear();
        self.table.clear();
        self.at_end.clear();
        let context = Context {
            after_word: false,
            at_start: self.nfa.has_start_look,
        };
        self.state(Vec::new(), context);
    }

    /// Whether `row` holds a match; `None` when the cache thrashes (the caller then asks
    /// the engine, for this row and every later one).
    pub(super) fn is_match(&mut self, row: &[u8]) -> Option<bool> {
        let width = self.representatives.len();
        // The table holds next states premultiplied by `width`: a row of one table.
        let mut at = 0usize;
        let mut i = 0;
        loop {
            // A slice, not the Vec: at the wasm's opt-level "z" a Vec's indexing stays a
            // call, a slice's is inline (the DFA ran at ~110 MB/s in wasm that way).
            let (table, classes) = (self.table.as_slice(), &self.classes);
            while i < row.len() {
                let next = table[at + classes[row[i] as usize] as usize];
                if next >= MATCHED {
                    break;
                }
                at = next as usize;
                i += 1;
            }
            if i == row.len() {
                return Some(self.matches_at_end((at / width) as u32));
            }
            let class = self.classes[row[i] as usize] as usize;
            if self.table[at + class] == MATCHED {
                return Some(true);
            }
            let mut state = (at / width) as u32;
            if self.table.len().max(self.key_words) >= self.max_entries {
                if self.clears == MAX_CLEARS {
                    return None;
                }
                self.clears += 1;
                // The current state is made again after the clear.
                let (nfa, context) = split_key(self.keys[state as usize].clone());
                self.clear();
                state = self.state(nfa, context);
            }
            match self.step(state, row[i], class) {
                MATCHED => return Some(true),
                next => at = next as usize * width,
            }
            i += 1;
        }
    }

    fn matches_at_end(&mut self, state: u32) -> bool {
        match self.at_end[state as usize] {
            1 => false,
            2 => true,
            _ => {
                let (nfa, context) = split_key(self.keys[state as usize].clone());
                let matched = self.closure(&nfa, context, None).is_none();
                self.at_end[state as usize] = if matched { 2 } else { 1 };
                matched
            }
        }
    }

    /// The state after `state` reads `byte` (of `class`), stored in the table.
    fn step(&mut self, state: u32, byte: u8, class: usize) -> u32 {
        let (nfa, context) = split_key(self.keys[state as usize].clone());
        let next = match self.closure(&nfa, context, Some(byte)) {
            None => MATCHED,
            Some(reached) => {
                let mut targets: Vec<u32> = Vec::new();
                for &s in &reached {
                    if let State::Range { lo, hi, next } = self.nfa.states[s as usize] {
                        if lo <= byte && byte <= hi {
                            targets.push(next);
                        }
                    }
                }
                targets.sort_unstable();
                targets.dedup();
                let context = Context {
                    after_word: self.nfa.has_word_look && is_word(byte),
                    at_start: false,
                };
                self.state(targets, context)
            }
        };
        let width = self.representatives.len();
        self.table[state as usize * width + class] = match next {
            MATCHED => MATCHED,
            next => next * width as u32,
        };
        next
    }

    /// Every NFA state reachable from `from` without reading, assertions judged by
    /// `context` and the byte ahead (`None`: the row's end); `None` when the match state
    /// is among them.
    fn closure(&mut self, from: &[u32], context: Context, ahead: Option<u8>) -> Option<Vec<u32>> {
        self.mark += 1;
        if self.mark == u32::MAX {
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.mark = 1;
        }
        let mark = self.mark;
        let before_word = ahead.is_some_and(is_word);
        let mut reached = Vec::new();
        self.stack.clear();
        // Unanchored: a match may start at every character boundary (the engine's
        // empty matches never split a character), i.e. before any byte but a
        // continuation byte, and at the end.
        if !ahead.is_some_and(|b| (0x80..0xC0).contains(&b)) {
            self.stack.push(self.nfa.start);
        }
        self.stack.extend(from.iter().rev());
        while let Some(s) = self.stack.pop() {
            if self.seen[s as usize] == mark {
                continue;
            }
            self.seen[s as usize] = mark;
            match &self.nfa.states[s as usize] {
                State::Match => return None,
                State::Range { .. } => reached.push(s),
                State::Split(alternatives) => self.stack.extend(alternatives.iter().rev()),
                State::Look { look, next } => {
                    let holds = match look {
                        Look::Start => context.at_start,
                        Look::End => ahead.is_none(),
                        Look::WordBoundary => context.after_word != before_word,
                        Look::NotWordBoundary => context.after_word == before_word,
                    };
                    if holds {
                        self.stack.push(*next);
                    }
                }
            }
        }
        Some(reached)
    }

    /// The DFA state of these NFA states in `context`, made when new.
    fn state(&mut self, mut nfa: Vec<u32>, context: Context) -> u32 {
        nfa.push(context.after_word as u32 | (context.at_start as u32) << 1);
        let keys = &self.keys;
        match self
            .sorted
            .binary_search_by(|&i| keys[i as usize].as_slice().cmp(&nfa))
        {
            Ok(at) => self.sorted[at],
            Err(at) => {
                let id = self.keys.len() as u32;
                self.key_words += nfa.len();
                self.keys.push(nfa);
                self.sorted.insert(at, id);
                let width = self.representatives.len();
                self.table.resize(self.table.len() + width, UNKNOWN);
                self.at_end.push(0);
                id
            }
        }
    }
}

/// A key's NFA states and context.
fn split_key(mut key: Vec<u32>) -> (Vec<u32>, Context) {
    let flags = key.pop().unwrap_or(0);
    let context = Context {
        after_word: flags & 1 == 1,
        at_start: flags & 2 == 2,
    };
    (key, context)
}
