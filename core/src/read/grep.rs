//! `grep` over any source in bounded memory: one pass counts the matching rows and the
//! lines, and notes where the first matches are; a page then re-reads only the rows
//! around those, at most a page's worth each.
//!
//! An all-literal pattern (`Error|Exception`) is searched for over whole chunks first,
//! so the rows of lines without a candidate are counted, not decoded or matched.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::naming::{part_chars, Named, Naming};
use super::scan::{rows_in_line, scan, LineStart, Visitor};
use super::source::Source;
use super::windows::shown_row;
pub(crate) use crate::grep::matcher::{Matcher, Prefilter, RowTest};
use crate::text::measure::{count, Row};
use crate::{error::OffloadError, text::utf16_len};

/// [`grep_page`](super::grep_page) over any source: `(context, max_matches)`.
pub(crate) async fn grep_in<'a, S: Source>(
    source: &S,
    reference: impl Into<Naming<'a>>,
    matcher: &(impl Matcher + Sync),
    limits: (usize, usize),
    max_chars: usize,
) -> Result<String, OffloadError> {
    let found = grep_counted(source, reference, matcher, limits, (max_chars, max_chars)).await?;
    Ok(found.page)
}

/// A grep page and its counts.
pub(crate) struct Found {
    pub(crate) page: String,
    /// Matching rows in the whole source.
    pub(crate) hits: usize,
    /// Matching rows the page shows.
    pub(crate) shown: usize,
}

/// [`grep_in`], with how many rows matched and how many the page shows. Groups are
/// added while the page stays under `max_chars`; long lines are cut into the parts
/// pages at `page_limit` show, so that a part's label names the same characters as
/// everywhere else (a section of a search across artifacts is shorter than a page: its
/// caller checks that what came back fits).
pub(crate) async fn grep_counted<'a, S: Source>(
    source: &S,
    reference: impl Into<Naming<'a>>,
    matcher: &(impl Matcher + Sync),
    (context, max_matches): (usize, usize),
    (max_chars, page_limit): (usize, usize),
) -> Result<Found, OffloadError> {
    let naming: Naming<'a> = reference.into();
    let named = Named::new(naming, 1, max_chars);
    let header_room = named.room;
    let row_chars = part_chars(naming, page_limit);
    // Rows are at least 4 units numbered: a group of more rows never fits.
    let most_rows = max_chars / 4 + 1;
    let mut pass = FirstPass {
        matcher,
        prefilter: matcher.prefilter(),
        candidates: Vec::new(),
        next_candidate: 0,
        line_starts: VecDeque::new(),
        keep_starts: most_rows + 2,
        row_chars,
        reach: context.min(most_rows),
        hits: 0,
        first_hits: Vec::new(),
        max_matches,
    };
    let end = scan(source, LineStart::FIRST, row_chars, &mut pass).await?;
    let total_rows = end.rows;

    let mut body = String::new();
    let mut last: Option<usize> = None;
    let mut fitted = 0;
    let mut context_dropped = false;
    for &(hit, anchor) in &pass.first_hits {
        let from = hit.saturating_sub(context).max(last.map_or(0, |l| l + 1));
        // Saturating: `context` can be any usize (wasm32's is 32 bits), and a wrapped
        // sum would drop the match itself from its group.
        let to = hit
            .saturating_add(context)
            .saturating_add(1)
            .min(total_rows);
        let group = match to.saturating_sub(from) {
            n if n > most_rows => None,
            _ => {
                let mut group = String::new();
                if last.is_some_and(|l| from > l + 1) {
                    group.push_str("--\n");
                }
                for row in rows_between(source, anchor, (from, to), row_chars, matcher).await? {
                    group.push_str(&row);
                }
                Some(group)
            }
        };
        let fits = group
            .as_ref()
            .is_some_and(|g| utf16_len(&body) + utf16_len(g) + header_room < max_chars);
        let Some(group) = group.filter(|_| fits) else {
            // The first match always shows, without its context if that is too long
            // (rows are sized so that one fits): a search never comes back empty-handed.
            if fitted == 0 {
                let rows = rows_between(source, anchor, (hit, hit + 1), row_chars, matcher).await?;
                // (A loop, not `concat`: that would bring `join`'s code to the wasm.)
                body.clear();
                rows.iter().for_each(|row| body.push_str(row));
                fitted = 1;
                context_dropped = context > 0;
            }
            break;
        };
        body.push_str(&group);
        last = Some(to.saturating_sub(1).max(last.unwrap_or(0)));
        fitted += 1;
    }
    let shown = match (fitted, pass.hits) {
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
        count(pass.hits, "matching row"),
        count(end.lines, "line"),
    );
    let page = if body.is_empty() {
        header
    } else {
        format!("{header}\n{}", body.trim_end_matches('\n'))
    };
    Ok(Found {
        page,
        hits: pass.hits,
        shown: fitted.min(pass.hits),
    })
}

/// The first pass: counts matching rows, and notes the first `max_matches` with a line
/// start from which their context can be read again.
struct FirstPass<'m, M> {
    matcher: &'m M,
    prefilter: Option<Prefilter>,
    /// Byte offsets where a literal starts, in the lines ahead.
    candidates: Vec<u64>,
    next_candidate: usize,
    /// The starts of the last lines seen, enough to reach back `reach` rows.
    line_starts: VecDeque<LineStart>,
    keep_starts: usize,
    row_chars: usize,
    reach: usize,
    hits: usize,
    /// `(row index, a line start at or before row index - reach)`.
    first_hits: Vec<(usize, LineStart)>,
    max_matches: usize,
}

impl<M> FirstPass<'_, M> {
    fn note_line(&mut self, line: &LineStart, index: usize) {
        if line.row == index {
            if self.line_starts.len() == self.keep_starts {
                self.line_starts.pop_front();
            }
            self.line_starts.push_back(*line);
        }
    }

    fn hit(&mut self, index: usize) {
        self.hits += 1;
        if self.first_hits.len() < self.max_matches {
            let reach = index.saturating_sub(self.reach);
            let anchor = self
                .line_starts
                .iter()
                .rev()
                .find(|start| start.row <= reach)
                .or(self.line_starts.front())
                .copied()
                .unwrap_or(LineStart::FIRST);
            self.first_hits.push((index, anchor));
        }
    }
}

impl<M: Matcher + Sync> Visitor for FirstPass<'_, M> {
    fn ahead(&mut self, bytes: &[u8], at: u64) -> bool {
        let Some(prefilter) = &self.prefilter else {
            return true;
        };
        self.candidates.clear();
        self.next_candidate = 0;
        prefilter.find_all(bytes, at, &mut self.candidates);
        !self.candidates.is_empty()
    }

    fn passed(&mut self, bytes: &[u8], first: &LineStart, next: &LineStart) {
        // Lines without a candidate were only counted: the last of them are remembered
        // from the end, where later context will reach back to.
        let mut starts = Vec::new();
        let (mut line, mut row) = (next.line, next.row);
        let mut end = bytes.len().saturating_sub(1);
        while starts.len() < self.keep_starts {
            let begin = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |i| i + 1);
            let text = &bytes[begin..end];
            line -= 1;
            row -= rows_in_line(text.strip_suffix(b"\r").unwrap_or(text), self.row_chars);
            starts.push(LineStart {
                offset: first.offset + begin as u64,
                line,
                row,
            });
            if begin == 0 {
                break;
            }
            end = begin - 1;
        }
        for start in starts.into_iter().rev() {
            if self.line_starts.len() == self.keep_starts {
                self.line_starts.pop_front();
            }
            self.line_starts.push_back(start);
        }
    }

    fn wants(&mut self, bytes: &[u8], line: &LineStart) -> bool {
        if self.prefilter.is_none() {
            return true;
        }
        let end = line.offset + bytes.len() as u64;
        while self
            .candidates
            .get(self.next_candidate)
            .is_some_and(|&c| c < line.offset)
        {
            self.next_candidate += 1;
        }
        let wanted = self
            .candidates
            .get(self.next_candidate)
            .is_some_and(|&c| c < end);
        if !wanted {
            self.note_line(line, line.row);
        }
        wanted
    }

    fn row(&mut self, row: &Row<'_>, index: usize, line: &LineStart) -> ControlFlow<()> {
        self.note_line(line, index);
        if self.matcher.is_match(row.text) {
            self.hit(index);
        }
        ControlFlow::Continue(())
    }
}

/// Rows `from..to` (indexes counted from the artifact's start), scanning from `anchor`,
/// a line start at or before row `from`, as grep shows them ([`shown_row`]).
async fn rows_between<S: Source, M: Matcher + Sync>(
    source: &S,
    anchor: LineStart,
    (from, to): (usize, usize),
    row_chars: usize,
    matcher: &M,
) -> Result<Vec<String>, OffloadError> {
    struct Between<'m, M> {
        from: usize,
        to: usize,
        rows: Vec<String>,
        matcher: &'m M,
    }
    impl<M: Matcher + Sync> Visitor for Between<'_, M> {
        fn wants(&mut self, _: &[u8], line: &LineStart) -> bool {
            (self.from..self.to).contains(&line.row)
        }
        fn row(&mut self, row: &Row<'_>, index: usize, _: &LineStart) -> ControlFlow<()> {
            if index >= self.to {
                return ControlFlow::Break(());
            }
            if index >= self.from {
                let spans = row.part.and_then(|_| self.matcher.spans(row.text));
                self.rows.push(shown_row(row, spans));
            }
            ControlFlow::Continue(())
        }
        fn skipped(&mut self, index: usize, _: &LineStart) -> ControlFlow<()> {
            match index >= self.to {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        }
    }
    let mut between = Between {
        from,
        to,
        rows: Vec::new(),
        matcher,
    };
    scan(source, anchor, row_chars, &mut between).await?;
    Ok(between.rows)
}
