//! How grep shows a row: a line whole, but a part of a long line (`57.3`, up to ~2,000
//! characters of minified JSON or a base64 blob) only as the windows around its matches,
//! so that one page holds many hits, not one part.

use crate::text::measure::Row;
use crate::text::utf16_len;

/// Characters (UTF-16 units) shown on each side of a match in a part of a long line.
pub const WINDOW_CHARS: usize = 200;

/// `row` as grep shows it, newline-terminated (or nothing). `spans` are where the
/// pattern matches in it (byte ranges, in order), `None` when the matcher cannot say.
/// - A whole line, or any row whose matches are unknown: `57| text`.
/// - A part that matched: `57.3@4010| …text…`, one such line per window of
///   [`WINDOW_CHARS`] on each side of its matches (overlapping windows merged; `…` where
///   the part goes on; `@4010` the UTF-16 offset in the line where the window starts,
///   left out at the part's start), as many as the whole part would take.
/// - A part that did not match (context around a match in the same long line, or in a
///   neighbour): nothing — the window already shows what surrounds the match.
pub(crate) fn shown_row(row: &Row<'_>, spans: Option<Vec<(usize, usize)>>) -> String {
    let whole = || format!("{}| {}\n", row.label(), row.text);
    let (Some(_), Some(spans)) = (row.part, spans) else {
        return whole();
    };
    if spans.is_empty() {
        return String::new();
    }
    let budget = utf16_len(row.text) + row.label().len() + 3;
    let mut out = String::new();
    let mut used = 0;
    // Where each window starts in the line, counted on from the previous one.
    let (mut at, mut counted) = (row.start, 0);
    for (start, end) in merged(row.text, &spans) {
        at += utf16_len(&row.text[counted..start]);
        counted = start;
        let label = row.label_at(at);
        let mut window = String::with_capacity(label.len() + end - start + 10);
        window.push_str(&label);
        window.push_str(if start > 0 { "| …" } else { "| " });
        window.push_str(&row.text[start..end]);
        window.push_str(if end < row.text.len() { "…\n" } else { "\n" });
        let size = utf16_len(&window);
        // Never longer than the part itself: a page sized for one part still fits.
        if !out.is_empty() && used + size > budget {
            break;
        }
        used += size;
        out.push_str(&window);
    }
    out
}

/// The byte ranges of `text` within [`WINDOW_CHARS`] of a span (spans in order of their
/// starts, possibly overlapping), overlapping ones merged.
fn merged(text: &str, spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for &(start, end) in spans {
        let from = back(text, start, WINDOW_CHARS);
        let to = ahead(text, end, WINDOW_CHARS);
        match windows.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => windows.push((from, to)),
        }
    }
    windows
}

/// The byte offset `units` UTF-16 units before `at` (a char boundary), or 0.
fn back(text: &str, at: usize, units: usize) -> usize {
    let mut left = units;
    for (i, c) in text[..at].char_indices().rev() {
        let width = c.len_utf16();
        if width > left {
            return i + c.len_utf8();
        }
        left -= width;
    }
    0
}

/// The byte offset `units` UTF-16 units after `at` (a char boundary), or the end.
fn ahead(text: &str, at: usize, units: usize) -> usize {
    let mut left = units;
    for (i, c) in text[at..].char_indices() {
        let width = c.len_utf16();
        if width > left {
            return at + i;
        }
        left -= width;
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(text: &str) -> Row<'_> {
        Row {
            line: 1,
            part: Some(3),
            start: 4000,
            text,
        }
    }

    #[test]
    fn a_part_shows_the_windows_round_its_matches_only() {
        let text = format!("{}NEEDLE{}", "a".repeat(500), "b".repeat(500));
        let at = text.find("NEEDLE").unwrap();
        let shown = shown_row(&part(&text), Some(vec![(at, at + 6)]));
        assert_eq!(
            shown,
            format!("1.3@4300| …{}NEEDLE{}…\n", "a".repeat(200), "b".repeat(200))
        );
        assert_eq!(shown_row(&part(&text), Some(vec![])), "");
        // Unknown matches (a row test): the whole row, as before.
        assert_eq!(shown_row(&part("xy"), None), "1.3| xy\n");
        let line = Row {
            line: 7,
            part: None,
            start: 0,
            text: "short",
        };
        assert_eq!(shown_row(&line, Some(vec![(0, 1)])), "7| short\n");
    }

    #[test]
    fn near_matches_share_a_window_and_far_ones_get_their_own() {
        let text = format!("X{}X{}X", "-".repeat(300), "-".repeat(1000));
        let spans = [(0, 1), (301, 302), (1302, 1303)];
        let shown = shown_row(&part(&text), Some(spans.to_vec()));
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("1.3| X---") && lines[0].ends_with("---…"));
        assert!(lines[1].starts_with("1.3@5102| …---") && lines[1].ends_with("---X"));
        assert!(utf16_len(&shown) <= utf16_len(&text) + 8);
    }

    #[test]
    fn windows_never_split_a_surrogate_pair() {
        let text = format!("{}M{}", "😀".repeat(150), "😀".repeat(150));
        let at = text.find('M').unwrap();
        let shown = shown_row(&part(&text), Some(vec![(at, at + 1)]));
        assert_eq!(
            shown,
            format!("1.3@4100| …{}M{}…\n", "😀".repeat(100), "😀".repeat(100))
        );
    }
}
