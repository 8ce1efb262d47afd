//! Rows of an artifact, streamed: the lines of a [`Source`] from a known line start,
//! each split into rows as [`rows_of`](crate::text::measure::rows_of) splits it, read a chunk at
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
use super::rows::Rows;
pub(crate) use super::rows::{rows_in_line, LineStart, ScanEnd, Visitor};
use super::source::Source;
use crate::error::OffloadError;

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
