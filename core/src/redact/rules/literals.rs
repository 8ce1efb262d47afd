//! Every rule's literals found in one pass over the text: the whole cost of a text
//! without a candidate (a log of 10 MB costs this pass, not a `memmem` pass per literal,
//! of which there are some seventy).
//!
//! Each literal is found by one pair of adjacent bytes in it, its rarest by a rough
//! frequency of bytes in logs and code: a table of 65,536 bytes says whether a pair is
//! some literal's (read eight positions at a time), and only where one is are the
//! literals of that pair compared.

/// Where each literal is in a text: for each, the starts of its occurrences, found from
/// the left without overlap (as `memchr::memmem::find_iter` finds them).
pub(super) struct Literals {
    table: &'static Table,
    at: Vec<Vec<usize>>,
    /// Where each literal's last occurrence ends: the next may not start before.
    next: Vec<usize>,
}

/// The literals, each with its pair and the pair's offset in it; and, by pair, 0 when it
/// is no literal's, else 1 + the index in `groups` of the literals that may have it (a
/// group holds only literals of one pair but the last, which holds any beyond 254
/// pairs: a literal's own pair is checked).
pub(super) struct Table {
    literals: Vec<&'static str>,
    anchor: Vec<(u16, usize)>,
    pairs: Box<[u8; 1 << 16]>,
    groups: Vec<Vec<usize>>,
}

/// How common `b` is in logs, JSON and code, roughly (higher is commoner).
fn commonness(b: u8) -> u16 {
    match b {
        b' ' | b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' | b'h' | b'l' | b'd'
        | b'c' | b'u' => 10,
        b'"' | b':' | b',' | b'/' | b'.' | b'-' | b'=' | b'\n' | b'0'..=b'9' => 8,
        b'm' | b'f' | b'p' | b'g' | b'w' | b'y' | b'b' => 7,
        b'a'..=b'z' => 5,
        b'A'..=b'Z' | b'_' => 4,
        _ => 2,
    }
}

/// Pairs commoner than their bytes say (English, `/api/` in every HTTP log, `worker`).
const COMMON_PAIRS: [&[u8; 2]; 16] = [
    b"ap", b"pi", b"er", b"re", b"in", b"on", b"an", b"en", b"ar", b"as", b"es", b"te", b"ke",
    b"or", b"st", b"th",
];

/// The two bytes at `at` as one key (the first in the low byte).
fn pair(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

impl Table {
    /// The table of `literals` (distinct, two bytes or more each).
    pub(super) fn new(literals: Vec<&'static str>) -> Table {
        let mut pairs = Box::new([0u8; 1 << 16]);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut anchor = Vec::new();
        for (id, literal) in literals.iter().enumerate() {
            let b = literal.as_bytes();
            let score = |k: usize| {
                let common = COMMON_PAIRS.iter().any(|p| p[..] == b[k..k + 2]);
                commonness(b[k]) + commonness(b[k + 1]) + if common { 8 } else { 0 }
            };
            // Literals are at least two bytes (`every_rule_compiles` checks).
            let best = (0..b.len().saturating_sub(1))
                .min_by_key(|&k| score(k))
                .unwrap_or(0);
            let key = pair(b, best);
            anchor.push((key, best));
            let slot = &mut pairs[usize::from(key)];
            if *slot == 0 {
                if groups.len() < usize::from(u8::MAX) {
                    groups.push(Vec::new());
                }
                *slot = u8::try_from(groups.len()).unwrap_or(u8::MAX);
            }
            if let Some(group) = groups.get_mut(usize::from(*slot) - 1) {
                group.push(id);
            }
        }
        Table {
            literals,
            anchor,
            pairs,
            groups,
        }
    }
}

impl Literals {
    /// Every literal of `t` in `text`, in one pass.
    pub(super) fn scan(text: &str, t: &'static Table) -> Literals {
        let bytes = text.as_bytes();
        let mut found = Literals {
            table: t,
            at: vec![Vec::new(); t.literals.len()],
            next: vec![0; t.literals.len()],
        };
        let pairs: &[u8; 1 << 16] = &t.pairs;
        let group = |key: u64| pairs[(key & 0xffff) as usize];
        let mut i = 0;
        // Eight positions at a time: the word `bytes[i..i + 8]` and the byte after it;
        // only where some pair is are they looked at one by one.
        while i + 9 <= bytes.len() {
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[i..i + 8]);
            let w = u64::from_le_bytes(word);
            let last = (w >> 56) | (u64::from(bytes[i + 8]) << 8);
            let any = group(w)
                | group(w >> 8)
                | group(w >> 16)
                | group(w >> 24)
                | group(w >> 32)
                | group(w >> 40)
                | group(w >> 48)
                | group(last);
            if any != 0 {
                for j in i..i + 8 {
                    if pairs[usize::from(pair(bytes, j))] != 0 {
                        found.compare(t, bytes, j);
                    }
                }
            }
            i += 8;
        }
        for j in i..bytes.len().saturating_sub(1) {
            if pairs[usize::from(pair(bytes, j))] != 0 {
                found.compare(t, bytes, j);
            }
        }
        found
    }

    /// The literals whose pair is at `i`, compared with the text there.
    #[inline(never)]
    fn compare(&mut self, t: &Table, bytes: &[u8], i: usize) {
        let key = u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let group = usize::from(t.pairs[usize::from(key)]);
        for &id in t.groups.get(group.wrapping_sub(1)).into_iter().flatten() {
            let (pair, offset) = t.anchor[id];
            let Some(start) = i.checked_sub(offset).filter(|_| pair == key) else {
                continue;
            };
            let literal = t.literals[id].as_bytes();
            let there = bytes.get(start..start + literal.len());
            // Byte by byte: the literals are short, a `memcmp` call costs more.
            if start >= self.next[id] && there.is_some_and(|b| b.iter().eq(literal)) {
                self.at[id].push(start);
                self.next[id] = start + literal.len();
            }
        }
    }

    /// The starts of `literal` (one of the table's) in the text, in order.
    pub(super) fn find(&self, literal: &str) -> &[usize] {
        self.table
            .literals
            .iter()
            .position(|&l| l == literal)
            .map_or(&[], |id| &self.at[id])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan finds what a `memmem` pass per literal finds, wherever the literals are
    /// and however they overlap (literals of the rules' kinds: one sharing another's
    /// pair, overlapping itself, two bytes long, holding a line feed).
    #[test]
    fn one_pass_finds_what_each_literals_own_pass_finds() {
        let literals = vec![
            "AKIA",
            "ASIA",
            "ASSW",
            "ASIC ",
            "xox",
            "xapp-",
            "SK",
            ":A",
            "://",
            "sk-",
            "_key",
            "-key",
            "key-",
            "Key",
            "oken",
            "OKEN",
            "ecret",
            "ata:\n",
            "ata:\r\n",
            "AC",
            "ACCA",
            "-----BEGIN ",
            "earer ",
            "ermissions\"",
            "FULL",
            "Full",
        ];
        let t: &'static Table = Box::leak(Box::new(Table::new(literals.clone())));
        let mut rng = crate::test_rng::Rng(0x117E_4A15);
        let mut pieces = literals.clone();
        pieces.extend([
            "xoxox", "SKSK", "a", " ", "\n", "é", "::", "AIzAIza", "ACACCA", "kkey-",
        ]);
        for _ in 0..3000 {
            let n = rng.below(12);
            let text: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let found = Literals::scan(&text, t);
            for literal in &literals {
                let expected: Vec<usize> =
                    memchr::memmem::find_iter(text.as_bytes(), literal.as_bytes()).collect();
                assert_eq!(found.find(literal), expected, "{literal:?} in {text:?}");
            }
        }
        assert!(Literals::scan("", t).find("sk-").is_empty());
        assert!(Literals::scan("x", t).find("sk-").is_empty());
        assert!(Literals::scan("sk-", t).find("not a literal").is_empty());
    }
}
