//! Read-back of an artifact for the model: `read`, `tail` and `grep` pages, numbered,
//! each with a header saying what is shown and how to go on, and never longer than the
//! inline limit — so reading can never produce a result that would be materialized.

use super::text::{count, rows_of, thousands, Row, MAX_ROW_CHARS};
use crate::utf16_len;

/// Rows `offset..offset + limit` of `text` (rows: lines, long ones split into parts),
/// as much as fits in `max_chars`.
///
/// ```
/// use tool_offload_core::materialize::read_page;
/// let page = read_page("a\nb\nc\n", "ctx://c/tool/x.txt", 1, 1, 4000);
/// assert_eq!(page, "[ctx://c/tool/x.txt: rows 2-2 of 3 (3 lines). More: context_read(\"ctx://c/tool/x.txt\", 2)]\n2| b");
/// ```
pub fn read_page(
    text: &str,
    reference: &str,
    offset: usize,
    limit: usize,
    max_chars: usize,
) -> String {
    let rows = rows_of(text, row_chars(max_chars, page_header_room(reference)));
    let lines = text.lines().count();
    if offset >= rows.len() && !rows.is_empty() {
        return format!(
            "[{reference}: offset {offset} is past the end: {} ({}).]",
            count(rows.len(), "row"),
            count(lines, "line")
        );
    }
    // At least one row: a page that shows nothing would point back at itself.
    let end = offset.saturating_add(limit.max(1)).min(rows.len());
    page(
        &rows,
        offset.min(rows.len())..end,
        lines,
        reference,
        max_chars,
        Direction::Forward,
    )
}

/// The last `count` rows of `text`, as much of their end as fits in `max_chars`.
///
/// ```
/// use tool_offload_core::materialize::tail_page;
/// assert_eq!(tail_page("a\nb\nc", "r", 2, 4000), "[r: rows 2-3 of 3 (3 lines), the end.]\n2| b\n3| c");
/// ```
pub fn tail_page(text: &str, reference: &str, count: usize, max_chars: usize) -> String {
    let rows = rows_of(text, row_chars(max_chars, page_header_room(reference)));
    let lines = text.lines().count();
    page(
        &rows,
        rows.len().saturating_sub(count.max(1))..rows.len(),
        lines,
        reference,
        max_chars,
        Direction::Backward,
    )
}

/// Rows of `text` for which `matches` holds, each with `context` rows around it, at most
/// `max_matches` matches, as much as fits in `max_chars`. Groups that are not adjacent
/// are separated by `--`.
///
/// ```
/// use tool_offload_core::materialize::grep_page;
/// let text = "ok\nerror: one\nok\nok\nok\nerror: two";
/// let page = grep_page(text, "r", |l| l.contains("error"), 1, 50, 4000);
/// assert_eq!(page, "[r: 2 matching rows of 6, with 1 row of context; all shown.]\n1| ok\n2| error: one\n3| ok\n--\n5| ok\n6| error: two");
/// ```
pub fn grep_page(
    text: &str,
    reference: &str,
    matches: impl Fn(&str) -> bool,
    context: usize,
    max_matches: usize,
    max_chars: usize,
) -> String {
    let header_room = 200 + reference.len();
    let rows = rows_of(text, row_chars(max_chars, header_room));
    let hits: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| matches(r.text))
        .map(|(i, _)| i)
        .collect();
    let shown_hits = hits.len().min(max_matches);
    let mut body = String::new();
    let mut last: Option<usize> = None;
    let mut fitted = 0;
    let mut context_dropped = false;
    'hits: for &hit in &hits[..shown_hits] {
        let from = hit.saturating_sub(context).max(last.map_or(0, |l| l + 1));
        let to = (hit + context + 1).min(rows.len());
        let mut group = String::new();
        if last.is_some_and(|l| from > l + 1) {
            group.push_str("--\n");
        }
        for row in &rows[from..to] {
            group.push_str(&numbered(row));
        }
        if utf16_len(&body) + utf16_len(&group) + header_room >= max_chars {
            // The first match always shows, without its context if that is too long
            // (rows are sized so that one fits): a search never comes back empty-handed.
            if fitted == 0 {
                body = numbered(&rows[hit]);
                fitted = 1;
                context_dropped = context > 0;
            }
            break 'hits;
        }
        body.push_str(&group);
        last = Some(to.saturating_sub(1).max(last.unwrap_or(0)));
        fitted += 1;
    }
    let shown = match (fitted, hits.len()) {
        (_, 0) => "none".to_owned(),
        (f, total) if f == total => "all shown".to_owned(),
        (f, _) => format!("the first {f} shown; narrow the pattern to see others"),
    };
    let context = if context_dropped {
        format!(
            "no context ({} asked for do not fit)",
            count(context, "row")
        )
    } else {
        format!("{} of context", count(context, "row"))
    };
    let header = format!(
        "[{reference}: {} of {}, with {context}; {shown}.]",
        count(hits.len(), "matching row"),
        thousands(rows.len()),
    );
    if body.is_empty() {
        header
    } else {
        format!("{header}\n{}", body.trim_end_matches('\n'))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Keep the start of the range when it does not all fit (read).
    Forward,
    /// Keep the end of the range (tail).
    Backward,
}

fn page(
    rows: &[Row<'_>],
    range: std::ops::Range<usize>,
    lines: usize,
    reference: &str,
    max_chars: usize,
    direction: Direction,
) -> String {
    let budget = max_chars.saturating_sub(page_header_room(reference));
    let numbered_rows: Vec<String> = rows[range.clone()].iter().map(numbered).collect();
    // Take rows from the kept end until the budget is used; always at least one row, so
    // paging progresses (a row is at most 2000 units).
    let mut taken = 0;
    let mut used = 0;
    let order: Box<dyn Iterator<Item = &String>> = match direction {
        Direction::Forward => Box::new(numbered_rows.iter()),
        Direction::Backward => Box::new(numbered_rows.iter().rev()),
    };
    for row in order {
        let len = utf16_len(row);
        if taken > 0 && used + len > budget {
            break;
        }
        used += len;
        taken += 1;
    }
    let (start, end) = match direction {
        Direction::Forward => (range.start, range.start + taken),
        Direction::Backward => (range.end - taken, range.end),
    };
    let body: String = match direction {
        Direction::Forward => numbered_rows[..taken].concat(),
        Direction::Backward => numbered_rows[numbered_rows.len() - taken..].concat(),
    };
    let total = rows.len();
    let header = if total == 0 {
        format!("[{reference}: empty.]")
    } else {
        let position = format!(
            "rows {}-{end} of {} ({})",
            start + 1,
            thousands(total),
            count(lines, "line")
        );
        if end < total {
            format!("[{reference}: {position}. More: context_read(\"{reference}\", {end})]")
        } else {
            format!("[{reference}: {position}, the end.]")
        }
    };
    if body.is_empty() {
        header
    } else {
        format!("{header}\n{}", body.trim_end_matches('\n'))
    }
}

/// Room kept for a read or tail page's header, which names the ref twice.
fn page_header_room(reference: &str) -> usize {
    200 + 2 * reference.len()
}

/// Longest row for a page within `max_chars`: [`MAX_ROW_CHARS`], or less under a small
/// limit so that one numbered row (label included) always fits.
fn row_chars(max_chars: usize, header_room: usize) -> usize {
    const LABEL_ROOM: usize = 24;
    MAX_ROW_CHARS.min(max_chars.saturating_sub(header_room + LABEL_ROOM))
}

fn numbered(row: &Row<'_>) -> String {
    format!("{}| {}\n", row.label(), row.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_page_by_page_to_the_end_within_the_limit() {
        let text: String = (1..=1000)
            .map(|i| format!("line {i} {}\n", "x".repeat(i % 50)))
            .collect();
        let mut offset = 0;
        let mut seen = 0;
        while offset < 1000 {
            let page = read_page(&text, "r", offset, 200, 4000);
            assert!(utf16_len(&page) <= 4000, "{}", utf16_len(&page));
            let rows = page.lines().count() - 1;
            assert!(rows > 0);
            seen += rows;
            offset += rows;
        }
        assert_eq!(seen, 1000);
    }

    #[test]
    fn one_huge_line_is_paged_in_parts() {
        let text = "y".repeat(10_000);
        let first = read_page(&text, "r", 0, 200, 4000);
        assert!(
            first
                .starts_with("[r: rows 1-1 of 5 (1 line). More: context_read(\"r\", 1)]\n1.1| yyy"),
            "{first}"
        );
        let last = read_page(&text, "r", 4, 200, 4000);
        assert!(
            last.starts_with("[r: rows 5-5 of 5 (1 line), the end.]\n1.5| "),
            "{last}"
        );
    }

    #[test]
    fn empty_artifact_and_offset_past_the_end() {
        assert_eq!(read_page("", "r", 0, 200, 4000), "[r: empty.]");
        assert_eq!(
            read_page("a\nb", "r", 9, 200, 4000),
            "[r: offset 9 is past the end: 2 rows (2 lines).]"
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
            "[r: 1 matching row of 5, with no context (2 rows asked for do not fit); all shown.]\n3| needle"
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
            page.contains("300 matching rows of 300, with 0 rows of context; the first"),
            "{}",
            page.lines().next().unwrap()
        );
        assert!(utf16_len(&page) <= 4000);
        let none = grep_page("a\nb", "r", |l| l.contains("q"), 2, 50, 4000);
        assert_eq!(
            none,
            "[r: 0 matching rows of 2, with 2 rows of context; none.]"
        );
    }
}
