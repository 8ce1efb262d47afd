//! Rows of an artifact, streamed: the lines of a [`Source`] from a known line start,
//! each split into rows as [`rows_of`](super::text::rows_of) splits it, read a chunk at
//! a time. Memory stays bounded by a chunk plus one row, whatever the artifact or line
//! length: a line longer than a chunk is split as it streams.
//!
//! Lines end at `\n`; a `\r` before it is not part of the line (as `str::lines`), and
//! bytes that are not UTF-8 read as U+FFFD (as `String::from_utf8_lossy`, which is what
//! a JavaScript `TextDecoder` gives too).

use std::future::Future;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::task::Poll;

use super::long_line::LongLine;
use super::source::Source;
use super::text::{byte_index_at, Row};
use crate::{utf16_len, OffloadError};

/// Where a line starts: what a scan needs to begin there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineStart {
    /// Byte offset of its first byte.
    pub(crate) offset: u64,
    /// Its 1-based line number.
    pub(crate) line: usize,
    /// Index of its first row, counted from where the scan began.
    pub(crate) row: usize,
}

impl LineStart {
    /// The start of the artifact.
    pub(crate) const FIRST: LineStart = LineStart {
        offset: 0,
        line: 1,
        row: 0,
    };
}

/// What a scan does with the rows it streams.
pub(crate) trait Visitor {
    /// Complete lines about to be visited (`bytes`, at byte offset `at`): a chance to
    /// search them in one pass. `false` when none of their rows matters: they are only
    /// counted, then reported together to [`Visitor::passed`].
    fn ahead(&mut self, _bytes: &[u8], _at: u64) -> bool {
        true
    }
    /// Complete lines (`bytes`) counted without visiting their rows, from the line start
    /// `first` to `next` (the line and row numbers after them; its offset is not used).
    fn passed(&mut self, _bytes: &[u8], _first: &LineStart, _next: &LineStart) {}
    /// Whether the one row of a short line (`bytes`, starting at `line`) needs its text;
    /// when not, it is counted through [`Visitor::skipped`] without being decoded.
    fn wants(&mut self, _bytes: &[u8], _line: &LineStart) -> bool {
        true
    }
    /// Row number `index` (counted from the scan's start), of the line starting at `line`.
    fn row(&mut self, row: &Row<'_>, index: usize, line: &LineStart) -> ControlFlow<()>;
    /// A row [`Visitor::wants`] declined.
    fn skipped(&mut self, _index: usize, _line: &LineStart) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Where a scan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScanEnd {
    /// The number of the last line visited (the artifact's line count when the scan ran
    /// to the end).
    pub(crate) lines: usize,
    /// The number of rows visited or skipped, plus `from.row`.
    pub(crate) rows: usize,
    /// Whether the visitor stopped it.
    pub(crate) stopped: bool,
}

/// Stream the rows of `source` from `from` (a line start) to its end, or until `visitor`
/// breaks; rows have at most `row_chars` UTF-16 units.
pub(crate) async fn scan<S: Source>(
    source: &S,
    from: LineStart,
    row_chars: usize,
    visitor: &mut (dyn Visitor + Send),
) -> Result<ScanEnd, OffloadError> {
    let mut rows = Rows {
        row_chars: row_chars.max(1),
        next_line: from.line,
        next_row: from.row,
    };
    let size = source.size();
    let chunk = source.chunk().max(1);
    let mut buf: Vec<u8> = Vec::new();
    let mut buf_at = from.offset;
    let mut next = from.offset;
    let mut long: Option<LongLine> = None;
    let read = |at: u64| Box::pin(source.range(at, at.saturating_add(chunk as u64)));
    let mut ahead = None;
    loop {
        let mut at_end = next >= size;
        if !at_end {
            let bytes = match ahead.take() {
                Some(ReadAhead::Ready(bytes)) => bytes,
                Some(ReadAhead::Pending(pending)) => pending.await,
                None => read(next).await,
            }?;
            // A file that shrank under us ends where its bytes end.
            at_end = bytes.is_empty();
            next += bytes.len() as u64;
            buf.extend_from_slice(&bytes);
            at_end |= next >= size;
            if !at_end {
                // The next chunk is on its way while this one is scanned.
                ahead = Some(ReadAhead::start(read(next)).await);
            }
        }
        let mut pos = 0;
        if let Some(mut line) = long.take() {
            match memchr::memchr(b'\n', &buf) {
                Some(nl) => {
                    let fed = line.feed(&buf[..nl], &mut rows, visitor);
                    if fed.is_break() || line.finish(true, &mut rows, visitor).is_break() {
                        return Ok(rows.end(true));
                    }
                    pos = nl + 1;
                }
                None => {
                    if line.feed(&buf, &mut rows, visitor).is_break() {
                        return Ok(rows.end(true));
                    }
                    buf.clear();
                    buf_at = next;
                    if at_end {
                        let flow = line.finish(false, &mut rows, visitor);
                        return Ok(rows.end(flow.is_break()));
                    }
                    long = Some(line);
                    continue;
                }
            }
        }
        let complete = memchr::memrchr(b'\n', &buf[pos..]).map_or(pos, |i| pos + i + 1);
        if complete > pos && !visitor.ahead(&buf[pos..complete], buf_at + pos as u64) {
            let first = rows.start(buf_at + pos as u64);
            rows.count(&buf[pos..complete]);
            visitor.passed(&buf[pos..complete], &first, &rows.start(0));
            pos = complete;
        }
        while pos < complete {
            let nl = memchr::memchr(b'\n', &buf[pos..complete]).map_or(complete, |i| pos + i);
            let line = &buf[pos..nl];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if rows
                .complete_line(line, buf_at + pos as u64, visitor)
                .is_break()
            {
                return Ok(rows.end(true));
            }
            pos = nl + 1;
        }
        buf.drain(..pos);
        buf_at += pos as u64;
        if at_end {
            // The last line, without a final newline (and so with any `\r` kept).
            let flow = match buf.is_empty() {
                true => ControlFlow::Continue(()),
                false => {
                    let _ = visitor.ahead(&buf, buf_at);
                    rows.complete_line(&buf, buf_at, visitor)
                }
            };
            return Ok(rows.end(flow.is_break()));
        }
        if buf.len() >= chunk {
            let mut line = LongLine::new(rows.start(buf_at));
            if line.feed(&buf, &mut rows, visitor).is_break() {
                return Ok(rows.end(true));
            }
            buf.clear();
            buf_at = next;
            long = Some(line);
        }
    }
}

/// Numbering as a scan goes.
pub(super) struct Rows {
    pub(super) row_chars: usize,
    /// Number of the line to come.
    pub(super) next_line: usize,
    /// Index of the row to come.
    next_row: usize,
}

impl Rows {
    pub(super) fn start(&self, offset: u64) -> LineStart {
        LineStart {
            offset,
            line: self.next_line,
            row: self.next_row,
        }
    }

    /// Count the complete lines in `bytes` (each ending with a newline) and their rows.
    fn count(&mut self, bytes: &[u8]) {
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            let line = &bytes[start..nl];
            self.next_line += 1;
            self.next_row += match line.len() <= self.row_chars {
                true => 1,
                false => rows_in_line(line.strip_suffix(b"\r").unwrap_or(line), self.row_chars),
            };
            start = nl + 1;
        }
    }

    fn end(&self, stopped: bool) -> ScanEnd {
        ScanEnd {
            lines: self.next_line - 1,
            rows: self.next_row,
            stopped,
        }
    }

    pub(super) fn emit(
        &mut self,
        start: &LineStart,
        part: Option<usize>,
        text: &str,
        visitor: &mut (dyn Visitor + Send),
    ) -> ControlFlow<()> {
        let row = Row {
            line: start.line,
            part,
            text,
        };
        self.next_row += 1;
        visitor.row(&row, self.next_row - 1, start)
    }

    /// A line held whole (`bytes`, without its line end), at byte `offset`.
    fn complete_line(
        &mut self,
        bytes: &[u8],
        offset: u64,
        visitor: &mut (dyn Visitor + Send),
    ) -> ControlFlow<()> {
        let start = self.start(offset);
        self.next_line += 1;
        // A short line has as many units as bytes at most (U+FFFD stands for at least one).
        if bytes.len() <= self.row_chars && !visitor.wants(bytes, &start) {
            self.next_row += 1;
            return visitor.skipped(self.next_row - 1, &start);
        }
        let text = String::from_utf8_lossy(bytes);
        if bytes.len() <= self.row_chars || utf16_len(&text) <= self.row_chars {
            return self.emit(&start, None, &text, visitor);
        }
        let mut rest: &str = &text;
        let mut part = 1;
        while !rest.is_empty() {
            let cut = next_cut(rest, self.row_chars);
            self.emit(&start, Some(part), &rest[..cut], visitor)?;
            rest = &rest[cut..];
            part += 1;
        }
        ControlFlow::Continue(())
    }
}

/// The rows of a line (`bytes`, without its line end) of at most `row_chars` units.
pub(crate) fn rows_in_line(bytes: &[u8], row_chars: usize) -> usize {
    if bytes.len() <= row_chars {
        return 1;
    }
    let text = String::from_utf8_lossy(bytes);
    let mut rest: &str = &text;
    if utf16_len(rest) <= row_chars {
        return 1;
    }
    let mut rows = 0;
    while !rest.is_empty() {
        rest = &rest[next_cut(rest, row_chars)..];
        rows += 1;
    }
    rows
}

/// Where the row starting `rest` ends: at most `row_chars` units, and at least one char
/// (an astral char never stalls a 1-unit split).
pub(crate) fn next_cut(rest: &str, row_chars: usize) -> usize {
    match byte_index_at(rest, row_chars) {
        0 => rest.chars().next().map_or(rest.len(), char::len_utf8),
        n => n,
    }
}

/// The next chunk's read, started before the current one is scanned.
enum ReadAhead<F: Future> {
    /// Already read (a source in memory answers at once).
    Ready(F::Output),
    /// In flight.
    Pending(Pin<Box<F>>),
}

impl<F: Future> ReadAhead<F> {
    /// Poll `read` once, so that it starts (a JavaScript reader's call is made, a
    /// blocking read is handed to its pool), and keep it.
    async fn start(mut read: Pin<Box<F>>) -> Self {
        std::future::poll_fn(|cx| {
            Poll::Ready(match read.as_mut().poll(cx) {
                Poll::Ready(output) => Some(output),
                Poll::Pending => None,
            })
        })
        .await
        .map_or(ReadAhead::Pending(read), ReadAhead::Ready)
    }
}
