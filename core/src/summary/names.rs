//! The names a text holds — paths, file names, error codes, snake_case and camelCase
//! identifiers ([`crate::identifiers`]; numbers are not names) — each with the line it
//! first appears on, most frequent first. A model shown the ends of a 400-line file
//! still sees which functions, files and fields it defines or mentions, and where to
//! read about each.

use crate::identifiers::{spans, Kind};
use crate::text::plain::plain;

/// Bytes of a text scanned for names at most: the names of its first 4 MiB (a summary
/// stays fast on a gigabyte of output).
pub(super) const NAMES_SCAN_BYTES: usize = 4 << 20;

/// A text's names, most frequent first (then in order of first appearance).
#[derive(Default)]
pub(super) struct Names {
    /// Each name and the 0-based line it first appears on.
    pub entries: Vec<(String, usize)>,
    /// Whether only the first [`NAMES_SCAN_BYTES`] were scanned.
    pub partial: bool,
}

/// What one occurrence of a name of `kind` weighs: files and paths are what an agent
/// goes on to open, edit or run, so they count three times an identifier; error codes
/// twice.
fn weight(kind: Kind) -> usize {
    match kind {
        Kind::Path | Kind::File => 3,
        Kind::Code => 2,
        Kind::Identifier | Kind::Number => 1,
    }
}

/// A text without an outline (a log, a command's output) lists only names seen this
/// often: a log line's own name (`crate_17` in one `Compiling` line of six hundred,
/// each with its path) is one of many alike, and the line says it better. A document or
/// a source file lists all: a name it defines may appear once.
const MIN_LOG_OCCURRENCES: usize = 2;

/// Weights above this rank alike: a name used three times is no less telling than one
/// used thirty times (a log's repeated field name), so first appearance decides.
const MAX_WEIGHT: usize = 9;

/// The names of `text`; `outlined`: it has an outline (a document, a source file).
pub(super) fn names(text: &str, outlined: bool) -> Names {
    let mut end = text.len().min(NAMES_SCAN_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // Names as the summary shows lines: without ANSI escapes (`\x1b[2msrc/` is `src/`).
    let scanned = &text[..end];
    let mut names = if memchr::memchr(0x1b, scanned.as_bytes()).is_some() {
        let mut shown = String::with_capacity(scanned.len());
        for (n, line) in scanned.split('\n').enumerate() {
            if n > 0 {
                shown.push('\n');
            }
            shown.push_str(&plain(line));
        }
        names_in(&shown, outlined)
    } else {
        names_in(scanned, outlined)
    };
    names.partial = end < text.len();
    names
}

/// One distinct name: where it first appears, its weight and how often it occurs.
struct Found<'a> {
    name: &'a str,
    line: usize,
    weight: usize,
    occurrences: usize,
}

/// The names of all of `scanned`.
fn names_in(scanned: &str, outlined: bool) -> Names {
    let least = if outlined { 1 } else { MIN_LOG_OCCURRENCES };
    let bytes = scanned.as_bytes();
    let mut found = Table::default();
    let (mut line, mut counted_to) = (0, 0);
    for (range, kind) in spans(scanned) {
        if kind == Kind::Number || (kind == Kind::Path && prose(&scanned[range.clone()])) {
            continue;
        }
        // In JSON-escaped text, `\nRun` is no camelCase name and `\tsnake_case` is
        // `snake_case`.
        let escaped = range.start > 0
            && bytes[range.start - 1] == b'\\'
            && matches!(bytes[range.start], b'n' | b't' | b'r');
        let name = &scanned[range.start + usize::from(escaped)..range.end];
        if escaped
            && !spans(name)
                .next()
                .is_some_and(|(r, _)| r == (0..name.len()))
        {
            continue;
        }
        line += memchr::memchr_iter(b'\n', &bytes[counted_to..range.start]).count();
        counted_to = range.start;
        let entry = found.entry(name, line);
        entry.weight += weight(kind);
        // In a document or source file, a name its author marked as code (`name`)
        // counts once more: authors mark the names that matter (in the replay of
        // ../shared/corpus, 4.8 % of marked names are used later, 1.7 % of the rest).
        if outlined {
            let ticked = bytes.get(range.start.wrapping_sub(1)) == Some(&b'`')
                || bytes.get(range.end) == Some(&b'`');
            entry.weight += usize::from(ticked);
        }
        entry.occurrences += 1;
    }
    // Heaviest first, then in order of first appearance: one pass per weight, no sort
    // (the wasm holds no sort instantiation for it).
    let mut entries = Vec::new();
    for w in (1..=MAX_WEIGHT).rev() {
        for f in &found.entries {
            if f.weight.min(MAX_WEIGHT) == w && f.occurrences >= least {
                entries.push((f.name.to_owned(), f.line));
            }
        }
    }
    Names {
        entries,
        partial: false,
    }
}

/// Names found so far, in order of first appearance, with an open-addressing index over
/// them (FNV-1a, linear probing): a std `HashMap` would bring hashbrown and SipHash into
/// the wasm for this one use.
#[derive(Default)]
struct Table<'a> {
    entries: Vec<Found<'a>>,
    /// `0` free, else an index into `entries` plus one; its length a power of two.
    slots: Vec<u32>,
}

impl<'a> Table<'a> {
    /// The entry of `name`, made (first seen on `line`) if new.
    fn entry(&mut self, name: &'a str, line: usize) -> &mut Found<'a> {
        if self.slots.len() < 2 * (self.entries.len() + 1) {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(name) & mask;
        loop {
            match self.slots[at] {
                0 => break,
                k if self.entries[k as usize - 1].name == name => {
                    return &mut self.entries[k as usize - 1];
                }
                _ => at = (at + 1) & mask,
            }
        }
        let k = self.entries.len();
        self.entries.push(Found {
            name,
            line,
            weight: 0,
            occurrences: 0,
        });
        // At most 4 MiB are scanned: fewer than 2^32 names.
        self.slots[at] = k as u32 + 1;
        &mut self.entries[k]
    }

    /// Twice the slots (64 at first), every entry placed again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        self.slots = vec![0; size];
        for (k, f) in self.entries.iter().enumerate() {
            let mut at = hash(f.name) & (size - 1);
            while self.slots[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            self.slots[at] = k as u32 + 1;
        }
    }
}

/// FNV-1a of `name`'s bytes.
fn hash(name: &str) -> usize {
    name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    }) as usize
}

/// Whether a path is words joined by slashes (`Install/Update`, `and/or`, `CI/CD`):
/// prose, not a path, when nothing in it but letters and inner slashes.
fn prose(path: &str) -> bool {
    let b = path.as_bytes();
    b.first() != Some(&b'/')
        && b.last() != Some(&b'/')
        && b.iter().all(|&c| c.is_ascii_alphabetic() || c == b'/')
}

/// A name as the summary lists it: with its 1-based first line.
pub(super) fn listed(name: &str, line: usize) -> String {
    format!("{name} ({})", line + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heaviest_first_then_in_order_with_their_first_line() {
        let text = "fn parse_args()\nsee src/main.rs\nparse_args again 1234 and/or Install/Update\nuse ErrorKind and src/main.rs, parse_args";
        let n = names(text, true);
        let found: Vec<(&str, usize)> = n.entries.iter().map(|(s, l)| (s.as_str(), *l)).collect();
        assert_eq!(
            found,
            [("src/main.rs", 1), ("parse_args", 0), ("ErrorKind", 3)]
        );
        // Without an outline, a name seen once is not listed.
        let n = names(text, false);
        assert_eq!(
            n.entries,
            [("src/main.rs".to_owned(), 1), ("parse_args".to_owned(), 0)]
        );
        assert!(names("see /a/b.rs\nsee /a/c.rs", false).entries.is_empty());
        // Escapes of JSON text are not part of a name.
        let n = names(r#""a\nRun it\nRun it\tsnake_case""#, true);
        assert_eq!(n.entries, [("snake_case".to_owned(), 0)]);
        // Names as lines are shown: without ANSI escapes.
        let n = names("\x1b[2msrc/api/\x1b[22mx.ts\n\x1b[1mcrate_a\x1b[0m", true);
        assert_eq!(
            n.entries,
            [("src/api/x.ts".to_owned(), 0), ("crate_a".to_owned(), 1)]
        );
        assert!(!n.partial);
        assert_eq!(listed("parse_args", 0), "parse_args (1)");
    }

    #[test]
    fn a_long_text_is_scanned_up_to_the_cap_on_a_character_boundary() {
        let mut text = "é".repeat(NAMES_SCAN_BYTES / 2 - 1);
        text.push_str("xé first_name\nsecond_name");
        let n = names(&text, true);
        assert!(n.partial);
        assert!(n.entries.is_empty(), "{:?}", n.entries);
    }
}
