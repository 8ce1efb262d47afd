//! A Thompson NFA over bytes for a parsed pattern: the DFA's states are sets of these.

use super::parse::{Class, Look, Node};

/// Past this many states the pattern stays with the engine (counted repetitions copy
/// their body).
const MAX_STATES: usize = 20_000;

#[derive(Debug, Clone)]
pub(super) enum State {
    /// A byte in `lo..=hi`, then `next`.
    Range {
        lo: u8,
        hi: u8,
        next: u32,
    },
    /// Any of these, consuming nothing.
    Split(Vec<u32>),
    Look {
        look: Look,
        next: u32,
    },
    Match,
}

#[derive(Debug, Clone)]
pub(super) struct Nfa {
    pub states: Vec<State>,
    pub start: u32,
    /// Whether any state asserts a word boundary (the DFA then tracks the last byte).
    pub has_word_look: bool,
    /// Whether any state asserts the start (the DFA then tells the first position).
    pub has_start_look: bool,
}

/// The NFA of `node`, or `None` when it would be too large.
pub(super) fn compile(node: &Node) -> Option<Nfa> {
    let mut c = Compiler {
        states: vec![State::Match],
    };
    let start = c.node(node, 0)?;
    let has = |f: fn(&Look) -> bool| {
        c.states
            .iter()
            .any(|s| matches!(s, State::Look { look, .. } if f(look)))
    };
    let has_word_look = has(|l| matches!(l, Look::WordBoundary | Look::NotWordBoundary));
    let has_start_look = has(|l| *l == Look::Start);
    Some(Nfa {
        states: c.states,
        start,
        has_word_look,
        has_start_look,
    })
}

struct Compiler {
    states: Vec<State>,
}

impl Compiler {
    fn push(&mut self, state: State) -> Option<u32> {
        if self.states.len() >= MAX_STATES {
            return None;
        }
        self.states.push(state);
        Some(self.states.len() as u32 - 1)
    }

    /// The entry of `node` followed by `next` (compiled back to front).
    fn node(&mut self, node: &Node, next: u32) -> Option<u32> {
        match node {
            Node::Empty => Some(next),
            Node::Class(class) => self.class(*class, next),
            Node::Char(c) => {
                let mut buf = [0; 4];
                let mut at = next;
                for &b in c.encode_utf8(&mut buf).as_bytes().iter().rev() {
                    at = self.push(State::Range {
                        lo: b,
                        hi: b,
                        next: at,
                    })?;
                }
                Some(at)
            }
            Node::Look(look) => self.push(State::Look { look: *look, next }),
            Node::Concat(items) => {
                let mut at = next;
                for item in items.iter().rev() {
                    at = self.node(item, at)?;
                }
                Some(at)
            }
            Node::Alt(alternatives) => {
                let mut entries = Vec::with_capacity(alternatives.len());
                for alternative in alternatives {
                    entries.push(self.node(alternative, next)?);
                }
                self.push(State::Split(entries))
            }
            Node::Repeat { node, min, max } => {
                let mut at = match max {
                    None => {
                        // A loop: the split is patched once the body knows its entry.
                        let split = self.push(State::Split(Vec::new()))?;
                        let body = self.node(node, split)?;
                        self.states[split as usize] = State::Split(vec![body, next]);
                        split
                    }
                    Some(max) => {
                        let mut at = next;
                        for _ in *min..*max {
                            let body = self.node(node, at)?;
                            at = self.push(State::Split(vec![body, next]))?;
                        }
                        at
                    }
                };
                for _ in 0..*min {
                    at = self.node(node, at)?;
                }
                Some(at)
            }
        }
    }

    /// A character of `class` then `next`: its ASCII bytes as ranges, and every UTF-8
    /// sequence of two to four bytes when it holds every non-ASCII character (the text
    /// is valid UTF-8, so lead and continuation bytes need no finer check).
    fn class(&mut self, class: Class, next: u32) -> Option<u32> {
        let mut entries = Vec::new();
        let mut b = 0u8;
        while b < 128 {
            if class.ascii >> b & 1 == 1 {
                let lo = b;
                while b < 127 && class.ascii >> (b + 1) & 1 == 1 {
                    b += 1;
                }
                entries.push(self.push(State::Range { lo, hi: b, next })?);
            }
            b += 1;
        }
        if class.non_ascii {
            let mut tail = next;
            for lead in [(0xC2, 0xDF), (0xE0, 0xEF), (0xF0, 0xF4)] {
                tail = self.push(State::Range {
                    lo: 0x80,
                    hi: 0xBF,
                    next: tail,
                })?;
                entries.push(self.push(State::Range {
                    lo: lead.0,
                    hi: lead.1,
                    next: tail,
                })?);
            }
        }
        match entries.len() {
            1 => Some(entries[0]),
            // No member (`[^\s\S]`): a split to nothing never matches.
            _ => self.push(State::Split(entries)),
        }
    }
}
