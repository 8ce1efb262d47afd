//! The read-back of before ranged reads, kept as the oracle the streamed engine is
//! tested against (same pages for every text, chunk size and limit).
//!
//! Read-back of an artifact for the model: `read`, `tail` and `grep` pages, numbered,
//! each with a header saying what is shown and how to go on, and never longer than the
//! inline limit — so reading can never produce a result that would be materialized.

use super::grep::Matcher;
use crate::read::{row_chars, Named, Within};
use crate::text::measure::{count, rows_of, Row};
use crate::text::thousands;
use crate::text::utf16_len;

/// Lines `offset..offset + limit` of `text` (0-based), numbered, as much as fits in
/// `max_chars`. A line over [`MAX_ROW_CHARS`] is shown as parts `57.1`, `57.2`…;
/// `part` (1-based) starts a page inside line `offset + 1`, so paging through one huge
/// line always advances. The header names the lines shown and where to go on.
///
/// ```ignore
/// use tool_offload_core::materialize::read_page;
/// let page = read_page("a\nb\nc\n", "ctx://c/tool/x.txt", 1, 1, 1, 4000);
/// assert_eq!(page, "[ctx://c/tool/x.txt: lines 2-2 of 3. More: context_read(\"ctx://c/tool/x.txt\", 2)]\n2| b");
/// ```
pub fn read_page(
    text: &str,
    reference: &str,
    offset: usize,
    within: Within,
    limit: usize,
    max_chars: usize,
) -> String {
    let named = Named::new(reference, 2, max_chars);
    let mut rows = rows_of(text, row_chars(max_chars, named.room));
    let lines = text.lines().count();
    let first_line = offset.saturating_add(1);
    let start = rows.iter().position(|r| {
        r.line > first_line
            || (r.line == first_line
                && match within {
                    Within::Part(part) => r.part.unwrap_or(1) >= part,
                    Within::Char(at) => at <= r.start || at < r.start + utf16_len(r.text),
                })
    });
    if let (Within::Char(at), true) = (within, offset < lines) {
        if start.is_none_or(|s| rows[s].line > first_line) {
            let chars: usize = rows
                .iter()
                .filter(|r| r.line == first_line)
                .map(|r| utf16_len(r.text))
                .sum();
            return format!(
                "[{}: char {at} is past the end of line {first_line}: {}.]",
                named.title,
                count(chars, "character")
            );
        }
    }
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
    // A page from a character inside its first row shows that row from there.
    let mut first_label = None;
    if let (Within::Char(at), true) = (within, rows[start].line == first_line) {
        let row = &mut rows[start];
        if at > row.start {
            let skip = crate::text::byte_index_at(row.text, at - row.start);
            first_label = Some(row.label_at(row.start + utf16_len(&row.text[..skip])));
            row.text = &row.text[skip..];
        }
    }
    page(
        &rows,
        start..end,
        lines,
        &named,
        (max_chars, first_label),
        Direction::Forward,
    )
}

/// The last `count` lines of `text`, as much of their end as fits in `max_chars`.
///
/// ```ignore
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
        (max_chars, None),
        Direction::Backward,
    )
}

/// Rows of `text` for which `matches` holds, each with `context` rows around it, at most
/// `max_matches` matches, as much as fits in `max_chars`. Groups that are not adjacent
/// are separated by `--`.
///
/// ```ignore
/// use tool_offload_core::materialize::grep_page;
/// let text = "ok\nerror: one\nok\nok\nok\nerror: two";
/// let page = grep_page(text, "r", |l| l.contains("error"), 1, 50, 4000);
/// assert_eq!(page, "[r: 2 matching rows in 6 lines, with 1 row of context; all shown.]\n1| ok\n2| error: one\n3| ok\n--\n5| ok\n6| error: two");
/// ```
pub fn grep_page(
    text: &str,
    reference: &str,
    matcher: &impl Matcher,
    context: usize,
    max_matches: usize,
    max_chars: usize,
) -> String {
    let named = Named::new(reference, 1, max_chars);
    let header_room = named.room;
    // Parts as wide as `read`'s (named twice), so a label names the same characters.
    let rows = rows_of(
        text,
        row_chars(max_chars, Named::new(reference, 2, max_chars).room),
    );
    let hits: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| matcher.is_match(r.text))
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
            group.push_str(&shown(row, matcher));
        }
        if utf16_len(&body) + utf16_len(&group) + header_room >= max_chars {
            // The first match always shows, without its context if that is too long
            // (rows are sized so that one fits): a search never comes back empty-handed.
            if fitted == 0 {
                body = shown(&rows[hit], matcher);
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
    (max_chars, first_label): (usize, Option<String>),
    direction: Direction,
) -> String {
    let (title, arg) = (named.title, &named.arg);
    let budget = max_chars.saturating_sub(named.room);
    let mut numbered_rows: Vec<String> = rows[range.clone()].iter().map(numbered).collect();
    let label = |i: usize| rows[i].label();
    if let (Some(first), Some(custom)) = (numbered_rows.first_mut(), &first_label) {
        *first = format!("{custom}| {}\n", rows[range.start].text);
    }
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
        let first = match (start == range.start, first_label) {
            (true, Some(custom)) => custom,
            _ => label(start),
        };
        let shown = format!("lines {first}-{} of {}", label(end - 1), thousands(lines));
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

// `Named` and `row_chars` are shared with the streamed engine (they size pages, not
// the paging being compared).

/// A row as grep shows it: a part of a long line as the windows around its matches.
fn shown(row: &Row<'_>, matcher: &impl Matcher) -> String {
    let spans = row.part.and_then(|_| matcher.spans(row.text));
    super::windows::shown_row(row, spans)
}

fn numbered(row: &Row<'_>) -> String {
    format!("{}| {}\n", row.label(), row.text)
}
