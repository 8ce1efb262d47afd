//! Read-back of an artifact for the model: `read`, `tail` and `grep` pages, numbered,
//! each with a header saying what is shown and how to go on, and never longer than the
//! inline limit — so reading can never produce a result that would be materialized.
//!
//! One engine pages text in memory (the functions here) and artifacts behind a
//! [`FileReader`](crate::io::FileReader) (the [`Materializer`](crate::materialize::Materializer)'s
//! methods) alike: it streams rows with [`scan()`] and keeps only what a page can show,
//! so a page of a 1 GB artifact reads about a page (`grep` reads it all once).

pub(crate) mod artifacts;
pub(crate) mod by_ref;
pub(crate) mod grep;
pub(crate) mod line_index;
mod long_line;
pub(crate) mod naming;
#[cfg(test)]
mod oracle;
pub(crate) mod page;
#[cfg(test)]
mod ranged_tests;
pub(crate) mod rows;
pub(crate) mod scan;
pub(crate) mod source;
pub(crate) mod tail;
pub(crate) mod tool_args;
pub(crate) mod windows;

use std::ops::ControlFlow;

use self::line_index::LineIndex;
use self::page::{assemble, OwnedRow};
use self::scan::{scan, LineStart, Visitor};
use self::source::{ready, Source, Text};
use crate::text::measure::{count, Row};
use crate::{error::OffloadError, text::utf16_len};

use self::grep::{grep_in, RowTest};
pub(crate) use self::naming::{row_chars, Named, Naming};
pub(crate) use self::tail::tail_in;

/// Lines `offset..offset + limit` of `text` (0-based), numbered, as much as fits in
/// `max_chars`. A line over [`MAX_ROW_CHARS`](crate::text::measure::MAX_ROW_CHARS) is shown as parts
/// `57.1`, `57.2`…; `part` (1-based) starts a page inside line `offset + 1`, so paging
/// through one huge line always advances. The header names the lines shown and where to
/// go on.
///
/// ```
/// use tool_offload_core::materialize::read_page;
/// let page = read_page("a\nb\nc\n", "ctx://c/tool/x.txt", 1, 1, 1, 4000);
/// assert_eq!(page, "[ctx://c/tool/x.txt: lines 2-2 of 3. More: context_read(\"ctx://c/tool/x.txt\", 2)]\n2| b");
/// ```
pub fn read_page(
    text: &str,
    reference: &str,
    offset: usize,
    part: usize,
    limit: usize,
    max_chars: usize,
) -> String {
    let source = Text::new(text.as_bytes());
    let index = LineIndex::of(text.as_bytes());
    let request = (offset, Within::Part(part), limit);
    let page = read_in(&source, &index, reference, request, max_chars);
    in_memory(ready(page))
}

/// Where a read page starts inside its first line: at a part (1-based, `57.3` is part
/// 3), or at a character (a UTF-16 offset in the line, as a grep window's `57.3@4010`
/// names it). A number is a part, so `read_from(r, 56, 3, 200)` reads as before.
///
/// ```
/// use tool_offload_core::materialize::Within;
/// assert_eq!(Within::from(3), Within::Part(3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    /// From part `n` (1-based) of a line split into parts; 1 is the line's start.
    Part(usize),
    /// From the character `n` UTF-16 units into the line (0 is its start); past the
    /// line's end, the page starts at the next line.
    Char(usize),
}

impl From<usize> for Within {
    fn from(part: usize) -> Self {
        Within::Part(part)
    }
}

/// The last `count` lines of `text`, as much of their end as fits in `max_chars`.
///
/// ```
/// use tool_offload_core::materialize::tail_page;
/// assert_eq!(tail_page("a\nb\nc", "r", 2, 4000), "[r: lines 2-3 of 3, the end.]\n2| b\n3| c");
/// ```
pub fn tail_page(text: &str, reference: &str, count: usize, max_chars: usize) -> String {
    let source = Text::new(text.as_bytes());
    let index = LineIndex::of(text.as_bytes());
    in_memory(ready(tail_in(&source, &index, reference, count, max_chars)))
}

/// Rows of `text` for which `matches` holds, each with `context` rows around it, at most
/// `max_matches` matches, as much as fits in `max_chars`. Groups that are not adjacent
/// are separated by `--`.
///
/// ```
/// use tool_offload_core::materialize::grep_page;
/// let text = "ok\nerror: one\nok\nok\nok\nerror: two";
/// let page = grep_page(text, "r", |l| l.contains("error"), 1, 50, 4000);
/// assert_eq!(page, "[r: 2 matching rows in 6 lines, with 1 row of context; all shown.]\n1| ok\n2| error: one\n3| ok\n--\n5| ok\n6| error: two");
/// ```
pub fn grep_page(
    text: &str,
    reference: &str,
    matches: impl Fn(&str) -> bool + Sync,
    context: usize,
    max_matches: usize,
    max_chars: usize,
) -> String {
    let source = Text::new(text.as_bytes());
    let matcher = RowTest(matches);
    let page = grep_in(
        &source,
        reference,
        &matcher,
        (context, max_matches),
        max_chars,
    );
    in_memory(ready(page))
}

/// A page of text in memory: reading it cannot fail.
fn in_memory(page: Result<String, OffloadError>) -> String {
    page.unwrap_or_else(|e| format!("[{e}]"))
}

/// [`read_page`] over any source, with its line index.
pub(crate) async fn read_in<'a, S: Source>(
    source: &S,
    index: &LineIndex,
    reference: impl Into<Naming<'a>>,
    (offset, within, limit): (usize, Within, usize),
    max_chars: usize,
) -> Result<String, OffloadError> {
    let named = Named::new(reference, 2, max_chars);
    let lines = index.lines;
    let first_line = offset.saturating_add(1);
    let mut page = ForwardPage {
        first_line,
        within,
        // At least one line: a page that shows nothing would point back at itself.
        last_line: offset.saturating_add(limit.max(1)),
        budget: max_chars.saturating_sub(named.room),
        started: false,
        line_chars: 0,
        shown: Vec::new(),
        used: 0,
        next: None,
    };
    if offset < lines {
        scan(
            source,
            index.start_for(first_line),
            row_chars(max_chars, named.room),
            &mut page,
        )
        .await?;
    }
    if let (Within::Char(at), true) = (within, offset < lines) {
        if !page.started {
            return Ok(format!(
                "[{}: char {at} is past the end of line {first_line}: {}{}.]",
                named.title,
                count(page.line_chars, "character"),
                named.at()
            ));
        }
    }
    if !page.started {
        return Ok(if lines == 0 {
            format!("[{}: empty.]", named.title)
        } else {
            format!(
                "[{}: offset {offset} is past the end: {}{}.]",
                named.title,
                count(lines, "line"),
                named.at()
            )
        });
    }
    Ok(assemble(&page.shown, page.next.as_ref(), lines, &named))
}

/// Collects the rows of a `read` page: from (`first_line`, `within`) while they are on
/// lines up to `last_line` and fit, and the row after them.
struct ForwardPage {
    first_line: usize,
    within: Within,
    last_line: usize,
    budget: usize,
    started: bool,
    /// UTF-16 units of the first line's rows passed before the page started.
    line_chars: usize,
    shown: Vec<OwnedRow>,
    used: usize,
    next: Option<OwnedRow>,
}

impl Visitor for ForwardPage {
    fn wants(&mut self, _: &[u8], line: &LineStart) -> bool {
        line.line >= self.first_line
    }

    fn row(&mut self, row: &Row<'_>, _: usize, _: &LineStart) -> ControlFlow<()> {
        let mut skip = 0;
        if !self.started {
            if row.line == self.first_line {
                match self.within {
                    Within::Part(part) if row.part.unwrap_or(1) < part => {
                        return ControlFlow::Continue(())
                    }
                    Within::Char(at) if at > row.start => {
                        skip = at - row.start;
                        let len = utf16_len(row.text);
                        if skip >= len {
                            self.line_chars += len;
                            return ControlFlow::Continue(());
                        }
                    }
                    _ => {}
                }
            } else if row.line < self.first_line {
                return ControlFlow::Continue(());
            } else if let Within::Char(_) = self.within {
                // The first line ended before its character: nothing to show.
                return ControlFlow::Break(());
            }
            self.started = true;
        }
        let row = OwnedRow::from(row, skip);
        let len = utf16_len(&row.numbered);
        if row.line > self.last_line || (!self.shown.is_empty() && self.used + len > self.budget) {
            self.next = Some(row);
            return ControlFlow::Break(());
        }
        self.used += len;
        self.shown.push(row);
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
