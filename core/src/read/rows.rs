//! The rows a scan streams: where a line starts, what a visitor is handed, how a line
//! is cut into rows, and where the scan ended.

use std::ops::ControlFlow;

use crate::text::measure::Row;

use crate::text::byte_index_at;
use crate::text::utf16_len;

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

/// Numbering as a scan goes.
pub(super) struct Rows {
    pub(super) row_chars: usize,
    /// Number of the line to come.
    pub(super) next_line: usize,
    /// Index of the row to come.
    pub(super) next_row: usize,
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
    pub(super) fn count(&mut self, bytes: &[u8]) {
        // Newlines are counted in bulk (one call, not one a line: in the wasm the
        // per-line calls cost as much as the literal search of a grep).
        let lines = memchr::memchr_iter(b'\n', bytes).count();
        self.next_line += lines;
        self.next_row += lines;
        // Only a line of more than `row_chars` bytes can hold more than one row, and
        // such a line covers a multiple of `row_chars`: only the lines at those offsets
        // are measured.
        let step = self.row_chars.max(1);
        let mut probe = step.min(bytes.len());
        while probe < bytes.len() {
            let start = memchr::memrchr(b'\n', &bytes[..probe]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &bytes[probe..]).map_or(bytes.len(), |i| probe + i);
            let line = &bytes[start..end];
            if line.len() > self.row_chars {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                self.next_row += rows_in_line(line, self.row_chars) - 1;
            }
            // The next multiple of `step` past this line.
            probe = (end + 1).div_ceil(step) * step;
        }
    }

    pub(super) fn end(&self, stopped: bool) -> ScanEnd {
        ScanEnd {
            lines: self.next_line - 1,
            rows: self.next_row,
            stopped,
        }
    }

    pub(super) fn emit(
        &mut self,
        start: &LineStart,
        (part, at): (Option<usize>, usize),
        text: &str,
        visitor: &mut (dyn Visitor + Send),
    ) -> ControlFlow<()> {
        let row = Row {
            line: start.line,
            part,
            start: at,
            text,
        };
        self.next_row += 1;
        visitor.row(&row, self.next_row - 1, start)
    }

    /// A line held whole (`bytes`, without its line end), at byte `offset`.
    pub(super) fn complete_line(
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
        let text = lossy(bytes);
        if bytes.len() <= self.row_chars || utf16_len(&text) <= self.row_chars {
            return self.emit(&start, (None, 0), &text, visitor);
        }
        let mut rest: &str = &text;
        let (mut part, mut at) = (1, 0);
        while !rest.is_empty() {
            let cut = next_cut(rest, self.row_chars);
            self.emit(&start, (Some(part), at), &rest[..cut], visitor)?;
            at += utf16_len(&rest[..cut]);
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
    let text = lossy(bytes);
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

/// `bytes` as text, U+FFFD for what is not UTF-8 (`String::from_utf8_lossy`, whose
/// check of valid text is several times slower in the wasm than `str::from_utf8`'s).
fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Where the row starting `rest` ends: at most `row_chars` units, and at least one char
/// (an astral char never stalls a 1-unit split).
pub(crate) fn next_cut(rest: &str, row_chars: usize) -> usize {
    match byte_index_at(rest, row_chars) {
        0 => rest.chars().next().map_or(rest.len(), char::len_utf8),
        n => n,
    }
}
