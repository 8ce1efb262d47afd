//! What sending a history costs, turn after turn: its length serialised as
//! `JSON.stringify` writes it, the prefix it shares with the turn before (what a prompt
//! cache reads instead of writing), and whether it only extends that turn.

use std::rc::Rc;

use crate::text::utf16_len;
use crate::tokens::estimate_tokens;

/// One message serialised (`JSON.stringify`), with its length in UTF-16 code units.
/// Share one `Rc` between turns for a message that did not change: equal pointers are
/// compared without reading the text.
#[derive(Debug, Clone)]
pub struct Serialised {
    text: Rc<str>,
    chars: usize,
    tokens: usize,
}

impl Serialised {
    /// `json`, the serialisation of one message.
    pub fn new(json: String) -> Self {
        let chars = utf16_len(&json);
        let tokens = estimate_tokens(&json);
        Serialised {
            text: json.into(),
            chars,
            tokens,
        }
    }

    /// Its length in UTF-16 code units.
    pub fn chars(&self) -> usize {
        self.chars
    }

    /// Its tokens by [`estimate_tokens`].
    pub fn tokens(&self) -> usize {
        self.tokens
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn same(&self, other: &Serialised) -> bool {
        Rc::ptr_eq(&self.text, &other.text) || self.text == other.text
    }
}

/// One turn's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// The history's serialised length: `[` + the messages joined with `,` + `]`.
    pub chars: usize,
    /// The longest common prefix, in UTF-16 code units, with the turn before's
    /// serialisation (0 on the first turn).
    pub prefix: usize,
    /// The history's tokens: its messages' [`Serialised::tokens`] summed (the brackets
    /// and commas between them not counted).
    pub tokens: usize,
    /// The tokens of the common prefix: the equal messages' and those of the common
    /// part of the first that differs.
    pub prefix_tokens: usize,
    /// Whether this history, without its closing `]`, starts with the turn before's
    /// without its (`None` on the first turn).
    pub stable: Option<bool>,
}

/// The figures of sending `sent` after `previous` (`None` on a conversation's first turn).
///
/// ```
/// use tool_offload_core::replay::{turn, Serialised};
/// let s = |j: &str| Serialised::new(j.to_owned());
/// let (a, b, b2) = (s(r#"{"x":1}"#), s(r#"{"y":2}"#), s(r#"{"y":3}"#));
/// let first = turn(None, &[a.clone()]);
/// assert_eq!((first.chars, first.prefix, first.stable), (9, 0, None));
/// let extended = turn(Some(&[a.clone()]), &[a.clone(), b.clone()]);
/// assert_eq!((extended.chars, extended.prefix, extended.stable), (17, 8, Some(true)));
/// // A rewritten message: the prefix stops inside it.
/// let rewritten = turn(Some(&[a.clone(), b]), &[a, b2]);
/// assert_eq!((rewritten.prefix, rewritten.stable), (14, Some(false)));
/// ```
pub fn turn(previous: Option<&[Serialised]>, sent: &[Serialised]) -> Turn {
    let chars =
        2 + sent.iter().map(Serialised::chars).sum::<usize>() + sent.len().saturating_sub(1);
    let tokens = sent.iter().map(Serialised::tokens).sum();
    let Some(previous) = previous else {
        return Turn {
            chars,
            prefix: 0,
            tokens,
            prefix_tokens: 0,
            stable: None,
        };
    };
    let mut k = 0;
    let mut prefix = 1; // `[`, then each equal message and the `,` before the next
    let mut prefix_tokens = 0;
    while k < previous.len() && k < sent.len() && previous[k].same(&sent[k]) {
        prefix += usize::from(k > 0) + sent[k].chars;
        prefix_tokens += sent[k].tokens;
        k += 1;
    }
    let stable = k == previous.len();
    if !stable && k < sent.len() {
        let (units, bytes) = common_prefix(previous[k].text(), sent[k].text());
        prefix += usize::from(k > 0) + units;
        prefix_tokens += estimate_tokens(&sent[k].text()[..bytes]);
    }
    Turn {
        chars,
        prefix,
        tokens,
        prefix_tokens,
        stable: Some(stable),
    }
}

/// The longest common prefix of `a` and `b`: in UTF-16 code units (two characters outside
/// the BMP that differ only in their low surrogate share one unit), and its whole
/// characters in bytes.
fn common_prefix(a: &str, b: &str) -> (usize, usize) {
    let (mut units, mut bytes) = (0, 0);
    for (x, y) in a.chars().zip(b.chars()) {
        if x == y {
            units += x.len_utf16();
            bytes += x.len_utf8();
            continue;
        }
        let (mut xs, mut ys) = ([0u16; 2], [0u16; 2]);
        let (xs, ys) = (x.encode_utf16(&mut xs), y.encode_utf16(&mut ys));
        units += usize::from(xs.len() == 2 && ys.len() == 2 && xs[0] == ys[0]);
        break;
    }
    (units, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefix_counts_utf16_units() {
        assert_eq!(common_prefix("abc", "abd"), (2, 2));
        assert_eq!(common_prefix("é😀x", "é😀y"), (3, 6));
        // 😀 U+1F600 and 😁 U+1F601 share their high surrogate.
        assert_eq!(common_prefix("a😀", "a😁"), (2, 1));
        assert_eq!(common_prefix("a😀", "a€"), (1, 1));
        assert_eq!(common_prefix("ab", "abc"), (2, 2));
    }

    #[test]
    fn a_shorter_history_is_not_stable() {
        let s = |j: &str| Serialised::new(j.to_owned());
        let (a, b) = (s("1"), s("2"));
        let t = turn(Some(&[a.clone(), b]), std::slice::from_ref(&a));
        assert_eq!((t.chars, t.prefix, t.stable), (3, 2, Some(false)));
        let t = turn(Some(&[]), std::slice::from_ref(&a));
        assert_eq!((t.prefix, t.stable), (1, Some(true)));
    }
}
