//! The lines of a text that a summary may show, read without splitting the whole text
//! into lines (megabytes of output have tens of thousands).

use super::format::{format, Format};
use super::names::{names, Names};
use super::outline::{is_file_read, outline, Outline};
use super::repeats::repeated_trailer;
use super::trailer::{trailer, Trailer};
use crate::summary::detect;
use crate::summary::detect::Detection;

/// Detections whose neighbourhoods are read ahead, in rank order: more than a summary
/// ever shows, so one that does not fit leaves room for the next.
pub(super) const READ_AHEAD: usize = 24;

/// The first and last lines of a text, every failure line found in it, and the lines
/// around the highest-ranked of those.
pub(super) struct Lines<'a> {
    total: usize,
    /// The first lines, in order.
    head: Vec<&'a str>,
    /// The last lines, the last one first.
    tail: Vec<&'a str>,
    /// Lines around the first [`READ_AHEAD`] ranked detections, by index.
    around: Vec<(usize, &'a str)>,
    /// Every failure line, in order.
    pub(super) found: Vec<Detection>,
    /// Indices into `found`, most telling first ([`detect::ranked`]).
    pub(super) ranked: Vec<usize>,
    /// What the format adds: a JSON shape, a table's columns, binary data named.
    pub(super) format: Format,
    /// The outline of a document or source file (empty for anything else).
    pub(super) outline: Outline<'a>,
    /// The boilerplate block the text ends with, if any: not among the lines above
    /// (`total` does not count it).
    pub(super) trailer: Option<Trailer>,
    /// The names the text holds (none for JSON, whose shape shows its keys, nor for
    /// binary data).
    pub(super) names: Names,
    /// Whether the text is a file's content with its shape (a file read with an
    /// outline: a document, a source file): its error lines are what it says, not a
    /// failure, and are named by line only.
    pub(super) document: bool,
}

impl<'a> Lines<'a> {
    /// The first and last `ends` lines of `text` (of `total` lines), its failure lines,
    /// and up to `before`/`after` lines around the best-ranked ones.
    pub(super) fn of(
        text: &'a str,
        total: usize,
        ends: usize,
        (is_json, repeated_end): (bool, Option<usize>),
    ) -> Self {
        let format = format(text, is_json, ends);
        // A known wrapper is named by its tag; else an end repeated from an earlier
        // output, unless a failure line is in it (a verdict repeated is still a verdict).
        let trailer = trailer(text).or_else(|| {
            let repeated = repeated_trailer(text, repeated_end?)?;
            failures(&text[repeated.start..], &format)
                .is_empty()
                .then_some(repeated)
        });
        let (text, total) = match trailer {
            Some(t) => (&text[..t.start], total - t.lines),
            None => (text, total),
        };
        let ends = ends.min(total);
        let head = text.lines().take(ends).collect();
        let tail = crate::search::lines_from_end(text).take(ends).collect();
        // Binary data: no line of it is shown, so none is looked for either.
        let found = failures(text, &format);
        let ranked = detect::ranked(&found);
        let outline = outline(text);
        let names = names_of(text, is_json, &format, &outline);
        let document = !outline.entries.is_empty() && is_file_read(text);
        let mut around: Vec<(usize, &str)> = Vec::new();
        for &k in ranked.iter().take(if document { 0 } else { READ_AHEAD }) {
            let d = &found[k];
            let (before, after) = detect::RULES[usize::from(d.rule)].context;
            around.push((d.line, line_at(text, d.start, d.end)));
            let mut start = d.start;
            for n in 1..=usize::from(before).min(d.line) {
                let end = start - 1;
                start = memchr::memrchr(b'\n', &text.as_bytes()[..end]).map_or(0, |i| i + 1);
                around.push((d.line - n, line_at(text, start, end)));
            }
            let mut end = d.end;
            for n in 1..=usize::from(after) {
                if d.line + n >= total {
                    break;
                }
                // Past this line's `\r\n` or `\n`.
                let start = end + if text.as_bytes()[end] == b'\r' { 2 } else { 1 };
                end = memchr::memchr(b'\n', &text.as_bytes()[start..])
                    .map_or(text.len(), |i| start + i);
                around.push((d.line + n, line_at(text, start, end)));
            }
        }
        Lines {
            total,
            head,
            tail,
            around,
            found,
            ranked,
            format,
            outline,
            trailer,
            names,
            document,
        }
    }

    /// How many lines the text has, a trailer's left out.
    pub(super) fn len(&self) -> usize {
        self.total
    }

    /// Line `i`; only the lines [`Lines::of`] read are asked for.
    pub(super) fn get(&self, i: usize) -> &'a str {
        if i < self.head.len() {
            return self.head[i];
        }
        if let Some(k) = self
            .total
            .checked_sub(i + 1)
            .filter(|&k| k < self.tail.len())
        {
            return self.tail[k];
        }
        self.around
            .iter()
            .find(|&&(at, _)| at == i)
            .map_or("", |&(_, line)| line)
    }

    /// The first lines, in order.
    pub(super) fn first(&self) -> impl Iterator<Item = &&'a str> {
        self.head.iter()
    }

    /// The last lines, from the end, down to (not including) line `head`.
    pub(super) fn last_down_to(&self, head: usize) -> impl Iterator<Item = &&'a str> {
        self.tail.iter().take(self.total - head)
    }

    /// Lines of the whole text, for the tests' reference reading.
    #[cfg(test)]
    pub(super) fn every(text: &'a str, ends: usize, is_json: bool) -> Self {
        let format = format(text, is_json, ends);
        let trailer = trailer(text);
        let text = trailer.map_or(text, |t| &text[..t.start]);
        let all: Vec<&str> = text.lines().collect();
        let found = failures(text, &format);
        let ranked = detect::ranked(&found);
        let outline = outline(text);
        let names = names_of(text, is_json, &format, &outline);
        let document = !outline.entries.is_empty() && is_file_read(text);
        Lines {
            total: all.len(),
            head: all.clone(),
            tail: all.iter().rev().copied().collect(),
            around: Vec::new(),
            found,
            ranked,
            format,
            outline,
            trailer,
            names,
            document,
        }
    }
}

/// The names of `text`, unless it is JSON or binary data.
fn names_of(text: &str, is_json: bool, format: &Format, outline: &Outline) -> Names {
    if is_json || format.binary {
        Names::default()
    } else {
        names(text, !outline.entries.is_empty())
    }
}

/// The failure lines of `text`: none in binary data; in a file read (a source file, a
/// document) only root causes and verdicts, since its prose and code name errors
/// without reporting one (`except ValueError:`, "the error handler").
fn failures(text: &str, format: &Format) -> Vec<Detection> {
    if format.binary {
        return Vec::new();
    }
    let mut found = detect::detect(text);
    if is_file_read(text) {
        found.retain(|d| d.level > detect::Level::Mention);
    }
    found
}

/// `text[start..end]` as `str::lines` yields it: without a final `\r`.
fn line_at(text: &str, start: usize, end: usize) -> &str {
    let line = &text[start..end];
    line.strip_suffix('\r').unwrap_or(line)
}
