//! Text a harness appends to every output (Claude Code's `<system-reminder>` after each
//! file read): recognised at the end of a text and named in one line, so the summary's
//! last lines show the output, not the same boilerplate every time.

use crate::text::measure::line_count;
use crate::text::utf16_len;

/// Wrappers recognised at the end of an output: (opening tag, closing tag).
const WRAPPERS: [(&str, &str); 1] = [("<system-reminder>", "</system-reminder>")];

/// A trailing block: where it starts (a line start, blank lines before it included),
/// its lines and UTF-16 units, and its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Trailer {
    pub start: usize,
    pub lines: usize,
    pub chars: usize,
    pub name: &'static str,
}

/// The wrapper blocks `text` ends with (one or more in a row, whitespace after them
/// allowed), when there is output before them.
///
/// ```ignore
/// let t = trailer("out\n\n<system-reminder>\nbe careful\n</system-reminder>\n").unwrap();
/// assert_eq!((t.start, t.lines), (4, 4));
/// ```
pub(super) fn trailer(text: &str) -> Option<Trailer> {
    let bytes = text.as_bytes();
    let mut start = None;
    let mut end = text.trim_ascii_end().len();
    let mut name = "";
    'blocks: loop {
        for (open, close) in WRAPPERS {
            if !text[..end].ends_with(close) {
                continue;
            }
            // The last line starting with the opening tag (memchr's reverse searcher
            // would add 3 KB to the wasm for this one use).
            let mut line_end = end;
            let at = loop {
                let start = memchr::memrchr(b'\n', &bytes[..line_end]).map_or(0, |i| i + 1);
                if bytes[start..end].starts_with(open.as_bytes()) {
                    break Some(start);
                }
                if start == 0 {
                    break None;
                }
                line_end = start - 1;
            };
            let Some(at) = at else {
                continue;
            };
            start = Some(at);
            name = open;
            end = text[..at].trim_ascii_end().len();
            continue 'blocks;
        }
        break;
    }
    let start = start?;
    // Blank lines before the block go with it; the output before them must not be empty.
    let content_end = memchr::memchr(b'\n', &bytes[end..start]).map(|i| end + i + 1)?;
    if text[..content_end].trim_ascii().is_empty() {
        return None;
    }
    Some(Trailer {
        start: content_end,
        lines: line_count(&bytes[content_end..]),
        chars: utf16_len(&text[content_end..]),
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_trailing_blocks_only() {
        let t = trailer("out\n\n<system-reminder>\nbe careful\n</system-reminder>\n").unwrap();
        assert_eq!((t.start, t.lines, t.name), (4, 4, "<system-reminder>"));
        let two =
            "a\nb\n<system-reminder>x</system-reminder>\n<system-reminder>\ny\n</system-reminder>";
        let t = trailer(two).unwrap();
        assert_eq!((t.start, t.lines), (4, 4));
        assert_eq!(t.chars, utf16_len(&two[4..]));
        for none in [
            "<system-reminder>\nonly\n</system-reminder>\n",
            "out <system-reminder>x</system-reminder>",
            "out\n<system-reminder>x</system-reminder>\nmore output",
            "no wrapper at all\n",
            "",
        ] {
            assert_eq!(trailer(none), None, "{none:?}");
        }
    }
}
