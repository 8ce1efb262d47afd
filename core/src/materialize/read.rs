//! Read-back of an artifact for the model: `read`, `tail` and `grep` pages, numbered,
//! each with a header saying what is shown and how to go on, and never longer than the
//! inline limit — so reading can never produce a result that would be materialized.
//!
//! One engine pages text in memory (the functions here) and artifacts behind a
//! [`FileReader`](crate::FileReader) (the [`Materializer`](super::Materializer)'s
//! methods) alike: it streams rows with [`scan`] and keeps only what a page can show,
//! so a page of a 1 GB artifact reads about a page (`grep` reads it all once).

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::line_index::LineIndex;
use super::scan::{scan, LineStart, Visitor};
use super::source::{ready, Source, Text};
use super::text::{count, thousands, Row, MAX_ROW_CHARS};
use crate::{utf16_len, OffloadError};

use super::grep::{grep_in, RowTest};

/// Lines `offset..offset + limit` of `text` (0-based), numbered, as much as fits in
/// `max_chars`. A line over [`MAX_ROW_CHARS`](super::MAX_ROW_CHARS) is shown as parts
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
    let page = read_in(&source, &index, reference, (offset, part, limit), max_chars);
    in_memory(ready(page))
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
pub(crate) async fn read_in<S: Source>(
    source: &S,
    index: &LineIndex,
    reference: &str,
    (offset, part, limit): (usize, usize, usize),
    max_chars: usize,
) -> Result<String, OffloadError> {
    let named = Named::new(reference, 2, max_chars);
    let lines = index.lines;
    let first_line = offset.saturating_add(1);
    let mut page = ForwardPage {
        first_line,
        part,
        // At least one line: a page that shows nothing would point back at itself.
        last_line: offset.saturating_add(limit.max(1)),
        budget: max_chars.saturating_sub(named.room),
        started: false,
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
    if !page.started {
        return Ok(if lines == 0 {
            format!("[{}: empty.]", named.title)
        } else {
            format!(
                "[{}: offset {offset} is past the end: {}.]",
                named.title,
                count(lines, "line")
            )
        });
    }
    Ok(assemble(&page.shown, page.next.as_ref(), lines, &named))
}

/// Collects the rows of a `read` page: from row (`first_line`, `part`) while they are on
/// lines up to `last_line` and fit, and the row after them.
struct ForwardPage {
    first_line: usize,
    part: usize,
    last_line: usize,
    budget: usize,
    started: bool,
    shown: Vec<OwnedRow>,
    used: usize,
    next: Option<OwnedRow>,
}

impl Visitor for ForwardPage {
    fn wants(&mut self, _: &[u8], line: &LineStart) -> bool {
        line.line >= self.first_line
    }

    fn row(&mut self, row: &Row<'_>, _: usize, _: &LineStart) -> ControlFlow<()> {
        if !self.started {
            let at_start = row.line > self.first_line
                || (row.line == self.first_line && row.part.unwrap_or(1) >= self.part);
            if !at_start {
                return ControlFlow::Continue(());
            }
            self.started = true;
        }
        let row = OwnedRow::of(row);
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

/// [`tail_page`] over any source, with its line index.
pub(crate) async fn tail_in<S: Source>(
    source: &S,
    index: &LineIndex,
    reference: &str,
    count: usize,
    max_chars: usize,
) -> Result<String, OffloadError> {
    let named = Named::new(reference, 2, max_chars);
    let budget = max_chars.saturating_sub(named.room);
    if index.lines == 0 {
        return Ok(format!("[{}: empty.]", named.title));
    }
    let wanted = count.max(1).min(index.lines);
    let start = last_lines_start(source, index.lines, wanted, budget).await?;
    // Rows are at least 4 units numbered (`1| ` and a newline), so no more than this
    // many can fit: older rows are dropped as the scan goes.
    let keep = budget / 4 + 2;
    let mut tail = TailRows {
        rows: VecDeque::with_capacity(keep.min(4096)),
        keep,
    };
    scan(source, start, row_chars(max_chars, named.room), &mut tail).await?;
    let rows: Vec<OwnedRow> = tail.rows.into();
    // Keep the end: take rows from the last while they fit (always one).
    let mut taken = 0;
    let mut used = 0;
    for row in rows.iter().rev() {
        let len = utf16_len(&row.numbered);
        if taken > 0 && used + len > budget {
            break;
        }
        used += len;
        taken += 1;
    }
    Ok(assemble(
        &rows[rows.len() - taken..],
        None,
        index.lines,
        &named,
    ))
}

/// The last rows of a scan.
struct TailRows {
    rows: VecDeque<OwnedRow>,
    keep: usize,
}

impl Visitor for TailRows {
    fn row(&mut self, row: &Row<'_>, _: usize, _: &LineStart) -> ControlFlow<()> {
        if self.rows.len() == self.keep {
            self.rows.pop_front();
        }
        self.rows.push_back(OwnedRow::of(row));
        ControlFlow::Continue(())
    }
}

/// The start of the `wanted` last lines of `source` (of `lines`), or of fewer when the
/// later ones already hold more than `budget` units: rows before those could not show.
async fn last_lines_start<S: Source>(
    source: &S,
    lines: usize,
    wanted: usize,
    budget: usize,
) -> Result<LineStart, OffloadError> {
    let size = source.size();
    let chunk = source.chunk().max(1) as u64;
    // Bytes `window.0..` of the artifact, read backwards a chunk at a time.
    let mut window: (u64, Vec<u8>) = (size, Vec::new());
    // The newline ending the line before the ones found so far (a final newline ends
    // the last line and starts none).
    let mut end = size;
    let mut found = 0;
    loop {
        let newline = loop {
            let (at, bytes) = &window;
            let before = (end - at) as usize;
            if let Some(i) = memchr::memrchr(b'\n', &bytes[..before.min(bytes.len())]) {
                break Some(at + i as u64);
            }
            if *at == 0 {
                break None;
            }
            // Bytes from `at` on hold no newline before `end`: only the new chunk is kept.
            let from = at.saturating_sub(chunk);
            window = (from, source.range(from, *at).await?.into_owned());
        };
        // Skip the final newline: it ends the last line.
        if found == 0 && newline == Some(size - 1) && end == size {
            end = size - 1;
            continue;
        }
        found += 1;
        let start = newline.map_or(0, |n| n + 1);
        // Each line holds at most 2 bytes of line end and a unit per 3 bytes at least.
        let text_bytes = (size - start).saturating_sub(2 * found as u64);
        if found == wanted || newline.is_none() || text_bytes / 3 >= budget as u64 {
            return Ok(LineStart {
                offset: start,
                line: lines + 1 - found,
                row: 0,
            });
        }
        end = newline.unwrap_or(0);
    }
}

/// A row as a page holds it: its numbers and its numbered text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OwnedRow {
    pub(crate) line: usize,
    pub(crate) part: Option<usize>,
    /// `57.2| text` and a newline.
    pub(crate) numbered: String,
}

impl OwnedRow {
    pub(crate) fn of(row: &Row<'_>) -> Self {
        OwnedRow {
            line: row.line,
            part: row.part,
            numbered: format!("{}| {}\n", row.label(), row.text),
        }
    }

    fn label(&self) -> String {
        Row {
            line: self.line,
            part: self.part,
            text: "",
        }
        .label()
    }
}

/// A `read` or `tail` page: `shown` under a header naming them, and `next`, the row after
/// them (none at the end).
fn assemble(
    shown: &[OwnedRow],
    next: Option<&OwnedRow>,
    lines: usize,
    named: &Named<'_>,
) -> String {
    let (title, arg) = (named.title, &named.arg);
    let (Some(first), Some(last)) = (shown.first(), shown.last()) else {
        return format!("[{title}: nothing to show.]");
    };
    let shown_lines = format!(
        "lines {}-{} of {}",
        first.label(),
        last.label(),
        thousands(lines)
    );
    let header = match next {
        None => format!("[{title}: {shown_lines}, the end.]"),
        Some(next) => {
            let part = match next.part {
                Some(p) if p > 1 => format!(", part={p}"),
                _ => String::new(),
            };
            format!(
                "[{title}: {shown_lines}. More: context_read({arg}, {}{part})]",
                next.line - 1
            )
        }
    };
    let body: String = shown.iter().map(|r| r.numbered.as_str()).collect();
    format!("{header}\n{}", body.trim_end_matches('\n'))
}

/// Room kept for a page's header besides the refs it names.
const HEADER_ROOM: usize = 200;
/// Room kept for a row's label (`123456.78| `).
const LABEL_ROOM: usize = 24;
/// A header names the ref only when that leaves rows at least this long.
const MIN_ROW_CHARS: usize = 100;

/// How a page's header names its artifact: by its ref, or, when naming the ref `times`
/// times would leave rows under [`MIN_ROW_CHARS`] (ids near the 255-byte limit under a
/// limit near `MIN_PAGE_CHARS`), as "this artifact": the page must stay within
/// `max_chars`, and the model knows which ref it asked for.
pub(crate) struct Named<'a> {
    /// Starts the header: `[<title>: …]`.
    pub(crate) title: &'a str,
    /// The ref argument in `More: context_read(<arg>, …)`.
    pub(crate) arg: String,
    /// Room kept for the header.
    pub(crate) room: usize,
}

impl<'a> Named<'a> {
    pub(crate) fn new(reference: &'a str, times: usize, max_chars: usize) -> Self {
        let room = HEADER_ROOM + times * reference.len();
        if room + LABEL_ROOM + MIN_ROW_CHARS <= max_chars {
            Named {
                title: reference,
                arg: format!("\"{reference}\""),
                room,
            }
        } else {
            Named {
                title: "this artifact",
                arg: "<the same ref>".into(),
                room: HEADER_ROOM,
            }
        }
    }
}

/// Longest row for a page within `max_chars`: [`MAX_ROW_CHARS`], or less under a small
/// limit so that one numbered row (label included) always fits.
pub(crate) fn row_chars(max_chars: usize, header_room: usize) -> usize {
    MAX_ROW_CHARS.min(max_chars.saturating_sub(header_room + LABEL_ROOM))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page through `text` by following each header's "More:" pointer; the row labels
    /// seen, in order.
    fn follow(text: &str, limit: usize) -> Vec<String> {
        let (mut offset, mut part, mut labels) = (0, 1, Vec::new());
        for _ in 0..10_000 {
            let page = read_page(text, "r", offset, part, limit, 4000);
            assert!(utf16_len(&page) <= 4000, "{}", utf16_len(&page));
            let (header, body) = page.split_once('\n').unwrap_or((&page, ""));
            labels.extend(
                body.lines()
                    .map(|l| l.split_once('|').unwrap().0.to_owned()),
            );
            let Some(next) = header.split_once("More: context_read(\"r\", ") else {
                return labels;
            };
            let args = next.1.trim_end_matches(")]");
            let (o, p) = args.split_once(", part=").unwrap_or((args, "1"));
            (offset, part) = (o.parse().unwrap(), p.parse().unwrap());
        }
        panic!("paging did not end");
    }

    #[test]
    fn reads_page_by_page_to_the_end_within_the_limit() {
        let text: String = (1..=1000)
            .map(|i| format!("line {i} {}\n", "x".repeat(i % 50)))
            .collect();
        let labels = follow(&text, 200);
        assert_eq!(
            labels,
            (1..=1000).map(|i| i.to_string()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn one_huge_line_is_paged_in_parts_and_labels_match_offsets() {
        let text = format!("a\n{}\nb\n{}", "y".repeat(10_000), "z".repeat(2500));
        let labels = follow(&text, 200);
        assert_eq!(
            labels,
            ["1", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4.1", "4.2"]
        );
        let first = read_page(&text, "r", 0, 1, 200, 4000);
        assert!(
            first.starts_with(
                "[r: lines 1-2.1 of 4. More: context_read(\"r\", 1, part=2)]\n1| a\n2.1| yyy"
            ),
            "{first}"
        );
        // Line 3 (label "3") is offset 2, whatever came before it.
        assert!(read_page(&text, "r", 2, 1, 1, 4000).ends_with("\n3| b"));
        let tail = tail_page(&text, "r", 1, 4000);
        assert!(
            tail.starts_with("[r: lines 4.1-4.2 of 4, the end.]\n4.1| zzz"),
            "{tail}"
        );
    }

    #[test]
    fn empty_artifact_and_offset_past_the_end() {
        assert_eq!(read_page("", "r", 0, 1, 200, 4000), "[r: empty.]");
        assert_eq!(
            read_page("a\nb", "r", 9, 1, 200, 4000),
            "[r: offset 9 is past the end: 2 lines.]"
        );
        assert_eq!(tail_page("", "r", 200, 4000), "[r: empty.]");
    }

    #[test]
    fn grep_shows_the_first_match_even_when_its_context_is_too_long() {
        let wide = "w".repeat(1900);
        let text = format!("{wide}\n{wide}\nneedle\n{wide}\n{wide}");
        let page = grep_page(&text, "r", |l| l.contains("needle"), 2, 50, 4000);
        assert_eq!(
            page,
            "[r: 1 matching row in 5 lines, with no context (2 rows asked for do not fit); all shown.]\n3| needle"
        );
    }

    #[test]
    fn a_ref_too_long_to_name_twice_stays_out_of_the_header() {
        // Found by `make fuzz` (summary_paging): with ids near the 255-byte limit, a
        // header naming the ref twice was longer than a 1000-unit page by itself.
        let reference = format!("ctx://{}/terminal/{}.log", "c".repeat(255), "i".repeat(251));
        let text = "x".repeat(3000);
        let page = read_page(&text, &reference, 0, 1, 200, 1000);
        assert_eq!(
            page,
            format!(
                "[this artifact: lines 1.1-1.1 of 1. More: context_read(<the same ref>, 0, part=2)]\n1.1| {}",
                "x".repeat(776)
            )
        );
        let tail = tail_page(&text, &reference, 200, 1000);
        assert_eq!(
            tail,
            format!(
                "[this artifact: lines 1.4-1.4 of 1, the end.]\n1.4| {}",
                "x".repeat(3000 - 3 * 776)
            )
        );
        // A ref that leaves room for rows is named as before.
        assert!(read_page(&text, "ctx://c/tool/a.txt", 0, 1, 200, 1000)
            .starts_with("[ctx://c/tool/a.txt: lines 1.1-1.1 of 1. More: context_read(\"ctx://c/tool/a.txt\", 0, part=2)]"));
    }

    #[test]
    fn grep_with_the_largest_context_shows_every_row() {
        // Found by `make fuzz` (summary_paging): `hit + context + 1` overflowed.
        let page = grep_page(
            "a\nneedle\nb",
            "r",
            |l| l.contains("needle"),
            usize::MAX,
            50,
            4000,
        );
        assert_eq!(
            page,
            format!(
                "[r: 1 matching row in 3 lines, with {} rows of context; all shown.]\n1| a\n2| needle\n3| b",
                thousands(usize::MAX)
            )
        );
    }

    #[test]
    fn tail_keeps_the_end_when_it_does_not_all_fit() {
        let text: String = (1..=500).map(|i| format!("{i:0>60}\n")).collect();
        let page = tail_page(&text, "r", 200, 4000);
        assert!(page.ends_with(&format!("500| {:0>60}", 500)));
        assert!(utf16_len(&page) <= 4000);
    }

    #[test]
    fn grep_reports_when_matches_are_cut() {
        let text: String = (1..=300)
            .map(|i| format!("error {i} {}\n", "z".repeat(80)))
            .collect();
        let page = grep_page(&text, "r", |l| l.contains("error"), 0, 50, 4000);
        assert!(
            page.contains("300 matching rows in 300 lines, with 0 rows of context; the first"),
            "{}",
            page.lines().next().unwrap()
        );
        assert!(utf16_len(&page) <= 4000);
        let none = grep_page("a\nb", "r", |l| l.contains("q"), 2, 50, 4000);
        assert_eq!(
            none,
            "[r: 0 matching rows in 2 lines, with 2 rows of context; none.]"
        );
    }
}
