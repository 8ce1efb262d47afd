//! A `read` or `tail` page as it is put together: the rows it holds, numbered, under a
//! header naming the lines shown and how to go on.

use super::naming::Named;
use crate::text::measure::Row;
use crate::text::utf16_len;
use crate::text::{byte_index_at, thousands};

/// Read-back pages are never cut below this many UTF-16 units, whatever the inline limit
/// of the product paging (the Materializer's `page_chars`, the Workspace's pages).
pub const MIN_PAGE_CHARS: usize = 1000;

/// A row as a page holds it: its numbers and its numbered text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OwnedRow {
    pub(crate) line: usize,
    pub(crate) part: Option<usize>,
    /// `57.2` (or `57.2@4010` for a row shown from inside).
    label: String,
    /// `57.2`: where a page ending at this row ends, from wherever it was entered.
    end_label: String,
    /// `57.2| text` and a newline.
    pub(crate) numbered: String,
}

impl OwnedRow {
    pub(crate) fn of(row: &Row<'_>) -> Self {
        Self::from(row, 0)
    }

    /// `row` shown from its `skip`-th UTF-16 unit on (a char boundary).
    pub(crate) fn from(row: &Row<'_>, skip: usize) -> Self {
        let from = byte_index_at(row.text, skip);
        let label = row.label_at(row.start + utf16_len(&row.text[..from]));
        OwnedRow {
            line: row.line,
            part: row.part,
            numbered: format!("{label}| {}\n", &row.text[from..]),
            label,
            end_label: row.label(),
        }
    }
}

/// A `read` or `tail` page: `shown` under a header naming them, and `next`, the row after
/// them (none at the end).
pub(crate) fn assemble(
    shown: &[OwnedRow],
    next: Option<&OwnedRow>,
    lines: usize,
    named: &Named<'_>,
) -> String {
    let title = named.title;
    let (Some(first), Some(last)) = (shown.first(), shown.last()) else {
        return format!("[{title}: nothing to show.]");
    };
    let shown_lines = format!(
        "lines {}-{} of {}{}",
        first.label,
        last.end_label,
        thousands(lines),
        named.at()
    );
    let header = match next {
        None => format!("[{title}: {shown_lines}, the end.]"),
        Some(next) => format!(
            "[{title}: {shown_lines}. More: {}]",
            named.more(next.line, next.part)
        ),
    };
    let body: String = shown.iter().map(|r| r.numbered.as_str()).collect();
    format!("{header}\n{}", body.trim_end_matches('\n'))
}
