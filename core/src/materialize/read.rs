//! Read-back of an artifact for the model: `read`, `tail` and `grep` pages, numbered,
//! each with a header saying what is shown and how to go on, and never longer than the
//! inline limit — so reading can never produce a result that would be materialized.

use super::text::{count, rows_of, thousands, Row, MAX_ROW_CHARS};
use crate::utf16_len;

/// Lines `offset..offset + limit` of `text` (0-based), numbered, as much as fits in
/// `max_chars`. A line over [`MAX_ROW_CHARS`] is shown as parts `57.1`, `57.2`…;
/// `part` (1-based) starts a page inside line `offset + 1`, so paging through one huge
/// line always advances. The header names the lines shown and where to go on.
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
    let named = Named::new(reference, 2, max_chars);
    let rows = rows_of(text, row_chars(max_chars, named.room));
    let lines = text.lines().count();
    let first_line = offset.saturating_add(1);
    let start = rows
        .iter()
        .position(|r| r.line > first_line || (r.line == first_line && r.part.unwrap_or(1) >= part));
    let Some(start) = start.filter(|_| offset < lines) else {
        return if lines == 0 {
            format!("[{}: empty.]", named.title)
        } else {
            format!(
                "[{}: offset {offset} is past the end: {}.]",
                named.title,
                count(lines, "line")
            )
        };
    };
    // At least one line: a page that shows nothing would point back at itself.
    let last_line = offset.saturating_add(limit.max(1));
    let end = rows[start..]
        .iter()
        .position(|r| r.line > last_line)
        .map_or(rows.len(), |n| start + n);
    page(
        &rows,
        start..end,
        lines,
        &named,
        max_chars,
        Direction::Forward,
    )
}

/// The last `count` lines of `text`, as much of their end as fits in `max_chars`.
///
/// ```
/// use tool_offload_core::materialize::tail_page;
/// assert_eq!(tail_page("a\nb\nc", "r", 2, 4000), "[r: lines 2-3 of 3, the end.]\n2| b\n3| c");
/// ```
pub fn tail_page(text: &str, reference: &str, count: usize, max_chars: usize) -> String {
    let named = Named::new(reference, 2, max_chars);
    let rows = rows_of(text, row_chars(max_chars, named.room));
    let lines = text.lines().count();
    let first_line = lines.saturating_sub(count.max(1)) + 1;
    let start = rows
        .iter()
        .position(|r| r.line >= first_line)
        .unwrap_or(rows.len());
    page(
        &rows,
        start..rows.len(),
        lines,
        &named,
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
/// assert_eq!(page, "[r: 2 matching rows in 6 lines, with 1 row of context; all shown.]\n1| ok\n2| error: one\n3| ok\n--\n5| ok\n6| error: two");
/// ```
pub fn grep_page(
    text: &str,
    reference: &str,
    matches: impl Fn(&str) -> bool,
    context: usize,
    max_matches: usize,
    max_chars: usize,
) -> String {
    let named = Named::new(reference, 1, max_chars);
    let header_room = named.room;
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
        // Saturating: `context` can be any usize (wasm32's is 32 bits), and a wrapped
        // sum would drop the match itself from its group.
        let to = hit
            .saturating_add(context)
            .saturating_add(1)
            .min(rows.len());
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
        "[{}: {} in {}, with {context}; {shown}.]",
        named.title,
        count(hits.len(), "matching row"),
        count(text.lines().count(), "line"),
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
    named: &Named<'_>,
    max_chars: usize,
    direction: Direction,
) -> String {
    let (title, arg) = (named.title, &named.arg);
    let budget = max_chars.saturating_sub(named.room);
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
    let header = if rows.is_empty() {
        format!("[{title}: empty.]")
    } else if start == end {
        format!("[{title}: nothing to show.]")
    } else {
        let shown = format!(
            "lines {}-{} of {}",
            rows[start].label(),
            rows[end - 1].label(),
            thousands(lines)
        );
        match rows.get(end) {
            None => format!("[{title}: {shown}, the end.]"),
            Some(next) => {
                let part = match next.part {
                    Some(p) if p > 1 => format!(", part={p}"),
                    _ => String::new(),
                };
                format!(
                    "[{title}: {shown}. More: context_read({arg}, {}{part})]",
                    next.line - 1
                )
            }
        }
    };
    if body.is_empty() {
        header
    } else {
        format!("{header}\n{}", body.trim_end_matches('\n'))
    }
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
struct Named<'a> {
    /// Starts the header: `[<title>: …]`.
    title: &'a str,
    /// The ref argument in `More: context_read(<arg>, …)`.
    arg: String,
    /// Room kept for the header.
    room: usize,
}

impl<'a> Named<'a> {
    fn new(reference: &'a str, times: usize, max_chars: usize) -> Self {
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
fn row_chars(max_chars: usize, header_room: usize) -> usize {
    MAX_ROW_CHARS.min(max_chars.saturating_sub(header_room + LABEL_ROOM))
}

fn numbered(row: &Row<'_>) -> String {
    format!("{}| {}\n", row.label(), row.text)
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
