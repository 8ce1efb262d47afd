//! Text handling shared by summaries and read-back: sizes, rows, cutting.

pub(crate) use crate::text::parse_thousands;
use crate::text::{byte_index_at, thousands, utf16_len};

/// Longest row shown by read-back; longer lines are split into numbered parts.
pub const MAX_ROW_CHARS: usize = 2000;
/// Longest preview line in a summary; longer ones are cut with a visible marker.
pub const MAX_PREVIEW_CHARS: usize = 500;

/// The sizes a summary and a ref's hint report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Measure {
    /// UTF-8 bytes.
    pub bytes: usize,
    /// UTF-16 code units (JavaScript `.length`).
    pub chars: usize,
    /// Lines, as `str::lines` counts them (a final newline does not start a new line).
    pub lines: usize,
}

impl Measure {
    /// Measure `text`.
    pub fn of(text: &str) -> Self {
        Measure {
            bytes: text.len(),
            chars: utf16_len(text),
            lines: line_count(text.as_bytes()),
        }
    }

    /// Measure `text`, whose length in UTF-16 code units is already known.
    pub fn with_chars(text: &str, chars: usize) -> Self {
        Measure {
            bytes: text.len(),
            chars,
            lines: line_count(text.as_bytes()),
        }
    }
}

/// Lines as `str::lines` counts them, by counting newlines with `memchr` (SIMD where
/// the target has it) instead of splitting line by line: a final newline does not start
/// a new line, and a final line without one counts.
pub(crate) fn line_count(text: &[u8]) -> usize {
    newlines(text) + usize::from(text.last().is_some_and(|&b| b != b'\n'))
}

/// The newlines in `text`.
pub(crate) fn newlines(text: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', text).count()
}

/// One row of read-back output: a whole line, or one part of a long line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<'a> {
    /// 1-based line number.
    pub line: usize,
    /// 1-based part number when the line is split, else `None`.
    pub part: Option<usize>,
    /// UTF-16 units of its line before the row: 0 for a whole line or a first part.
    pub start: usize,
    /// The text of the row.
    pub text: &'a str,
}

impl Row<'_> {
    /// `57` or `57.2`.
    pub fn label(&self) -> String {
        match self.part {
            Some(part) => format!("{}.{part}", self.line),
            None => self.line.to_string(),
        }
    }

    /// The label of this row's text from `at` UTF-16 units into its line: `57.3` at the
    /// row's start, `57.3@4010` inside it (the offset `context_read`'s `char` takes).
    ///
    /// ```
    /// use tool_offload_core::materialize::Row;
    /// let row = Row { line: 57, part: Some(3), start: 4000, text: "…" };
    /// assert_eq!(row.label_at(4000), "57.3");
    /// assert_eq!(row.label_at(4010), "57.3@4010");
    /// ```
    pub fn label_at(&self, at: usize) -> String {
        match at == self.start {
            true => self.label(),
            false => format!("{}@{at}", self.label()),
        }
    }
}

/// The rows of `text`: each line, split into parts of at most [`MAX_ROW_CHARS`] UTF-16
/// units when longer.
pub fn rows(text: &str) -> Vec<Row<'_>> {
    rows_of(text, MAX_ROW_CHARS)
}

/// [`rows`] with parts of at most `row_chars` units (at least 1): pages under a small
/// limit split lines shorter than [`MAX_ROW_CHARS`] so one row always fits.
pub fn rows_of(text: &str, row_chars: usize) -> Vec<Row<'_>> {
    let row_chars = row_chars.max(1);
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if utf16_len(line) <= row_chars {
            rows.push(Row {
                line: i + 1,
                part: None,
                start: 0,
                text: line,
            });
            continue;
        }
        let mut rest = line;
        let mut part = 1;
        let mut start = 0;
        while !rest.is_empty() {
            // At least one char, so an astral char never stalls a 1-unit split.
            let cut = match byte_index_at(rest, row_chars) {
                0 => rest.chars().next().map_or(rest.len(), char::len_utf8),
                n => n,
            };
            rows.push(Row {
                line: i + 1,
                part: Some(part),
                start,
                text: &rest[..cut],
            });
            start += utf16_len(&rest[..cut]);
            rest = &rest[cut..];
            part += 1;
        }
    }
    rows
}

/// `1 line`, `2 lines`, `1,000 lines`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `line` cut to at most `max` UTF-16 units, with a visible marker when cut.
pub fn cut(line: &str, max: usize) -> String {
    let len = utf16_len(line);
    if len <= max {
        return line.to_owned();
    }
    let kept = &line[..byte_index_at(line, max)];
    format!("{kept} …[cut: {} more characters]", len - utf16_len(kept))
}

#[cfg(test)]
mod tests {

    #[test]
    fn line_count_is_what_str_lines_counts() {
        for text in [
            "",
            "a",
            "a\n",
            "\n",
            "\n\n",
            "a\nb",
            "a\n\n",
            "a\r\nb\r\n",
            "é\n😀",
        ] {
            assert_eq!(
                line_count(text.as_bytes()),
                text.lines().count(),
                "{text:?}"
            );
        }
    }

    use super::*;

    #[test]
    fn long_lines_split_into_numbered_parts_without_splitting_pairs() {
        let line = format!("{}😀{}", "a".repeat(1999), "b".repeat(2500));
        let text = format!("short\n{line}\nend\n");
        let rows = rows(&text);
        let labels: Vec<String> = rows.iter().map(Row::label).collect();
        assert_eq!(labels, ["1", "2.1", "2.2", "2.3", "3"]);
        assert_eq!(rows[1].text, "a".repeat(1999)); // the pair did not fit: it moves on whole
        assert!(rows[2].text.starts_with('😀'));
        assert!(rows.iter().all(|r| utf16_len(r.text) <= MAX_ROW_CHARS));
        assert_eq!(rows[1..4].iter().map(|r| r.text).collect::<String>(), line);
    }

    #[test]
    fn cut_marks_what_it_removed() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcdef", 3), "abc …[cut: 3 more characters]");
    }

    #[test]
    fn sizes_and_separators() {
        assert_eq!(
            Measure::of("a\nb\n"),
            Measure {
                bytes: 4,
                chars: 4,
                lines: 2
            }
        );
        assert_eq!(
            Measure::of("é😀"),
            Measure {
                bytes: 6,
                chars: 3,
                lines: 1
            }
        );
        assert_eq!(
            Measure::of(""),
            Measure {
                bytes: 0,
                chars: 0,
                lines: 0
            }
        );
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
