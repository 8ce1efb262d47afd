//! Text a harness appends to every output that no wrapper marks: the end an output
//! shares, line for line, with an earlier output of the same conversation. Named in one
//! line instead of taking the tail's lines (see [`super::trailer`]).

use super::trailer::Trailer;
use crate::text::measure::line_count;
use crate::text::utf16_len;

/// The shortest shared end worth naming, in bytes: shorter ones (a lone `Done.`) are
/// cheaper to show than to name.
pub const MIN_REPEAT_BYTES: usize = 64;
/// The longest shared end named, in bytes: boilerplate is short, and outputs that end
/// alike for longer (a listing run again) are shown as themselves.
const MAX_REPEAT_BYTES: usize = 2048;
/// The name of a repeated end (no wrapper to name it by).
pub(super) const REPEATED: &str = "";

/// For each of `texts` (a conversation's outputs, in order), where the end it shares
/// with an earlier one starts: the longest such end that starts a line in both, holds
/// [`MIN_REPEAT_BYTES`] to 2,048 bytes and something besides blanks, and leaves output
/// before it.
/// Only earlier texts count, so what is found for an output never changes as the
/// conversation grows.
///
pub(crate) fn repeated_ends(texts: &[&str]) -> Vec<Option<usize>> {
    let mut starts = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let mut best: Option<usize> = None;
        for earlier in &texts[..i] {
            if let Some(start) = shared_end(text, earlier) {
                best = Some(best.map_or(start, |b| b.min(start)));
            }
        }
        starts.push(best);
    }
    starts
}

/// Where the end `text` shares with `earlier` starts, when it is one to name.
fn shared_end(text: &str, earlier: &str) -> Option<usize> {
    let (a, b) = (text.as_bytes(), earlier.as_bytes());
    let limit = a.len().min(b.len()).min(MAX_REPEAT_BYTES + 1);
    let mut common = 0;
    while common < limit && a[a.len() - 1 - common] == b[b.len() - 1 - common] {
        common += 1;
    }
    if !(MIN_REPEAT_BYTES..=MAX_REPEAT_BYTES).contains(&common) {
        return None;
    }
    let first = a.len() - common;
    // Where `earlier`'s copy starts is a line start too only at the very first byte.
    let starts_line = |bytes: &[u8], at: usize| at == 0 || bytes[at - 1] == b'\n';
    let start = if starts_line(a, first) && starts_line(b, b.len() - common) {
        first
    } else {
        first + memchr::memchr(b'\n', &a[first..])? + 1
    };
    let block = &text[start..];
    let named = a.len() - start >= MIN_REPEAT_BYTES
        && !block.trim().is_empty()
        && !text[..start].trim().is_empty();
    named.then_some(start)
}

/// The repeated end of `text` from `start` as a trailer.
pub(super) fn repeated_trailer(text: &str, start: usize) -> Option<Trailer> {
    let block = text.get(start..)?;
    Some(Trailer {
        start,
        lines: line_count(block.as_bytes()),
        chars: utf16_len(block),
        name: REPEATED,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIP: &str =
        "-- Tip: run `make help` to list every target of this project, with its options. --\n";

    #[test]
    fn an_end_shared_with_an_earlier_output_is_found_at_a_line_start() {
        let one = format!("first output\n{TIP}");
        let two = format!("second, longer output\nwith two lines\n{TIP}");
        let three = "unrelated output\nof its own\n";
        assert_eq!(
            repeated_ends(&[&one, &two, three]),
            [None, Some(two.len() - TIP.len()), None]
        );
        // An end that starts mid-line in either of them is not a block of its own.
        let mid = format!("xx{TIP}");
        let line = format!("yy\n{TIP}");
        assert_eq!(repeated_ends(&[&mid, &line]), [None, None]);
        assert_eq!(repeated_ends(&[&line, &mid]), [None, None]);
    }

    #[test]
    fn short_blank_or_whole_ends_are_not_named() {
        let short = ["a\nDone.\n", "b\nDone.\n"];
        assert_eq!(repeated_ends(&short), [None, None]);
        // An output identical to an earlier one is shown as itself, not as a name, and so
        // is one that ends alike for more than boilerplate does.
        let same = format!("{TIP}{TIP}");
        assert_eq!(repeated_ends(&[&same, &same]), [None, None]);
        let long = format!("{}{TIP}", "listing\n".repeat(300));
        let again = format!("head\n{long}");
        assert_eq!(repeated_ends(&[&long, &again]), [None, None]);
        let whole = [TIP, TIP];
        assert_eq!(repeated_ends(&whole), [None, None], "nothing before it");
        // An earlier output that is only the end: named from its line start.
        let after = format!("out\n{TIP}");
        assert_eq!(repeated_ends(&[TIP, &after]), [None, Some(4)]);
        // Shared from mid-line: the next line start leaves too little to name.
        let x = format!("{}\nshort\n", "y".repeat(60));
        assert_eq!(
            repeated_ends(&[&format!("bbbb{x}"), &format!("aaaa{x}")]),
            [None, None]
        );
        let blank = format!("a\n{}", " \n".repeat(40));
        let blank2 = format!("b\n{}", " \n".repeat(40));
        assert_eq!(repeated_ends(&[&blank, &blank2]), [None, None]);
    }
}
