//! Where an artifact's lines start, sparsely: its line count, and one line start per
//! [`INDEX_STEP`] bytes. `read(ref, offset)` near the end of a 1 GB artifact starts
//! scanning at the nearest mark instead of at byte 0, and `tail` knows the number of the
//! last line without counting them all.
//!
//! The index of an artifact over [`INDEX_STEP`] bytes is written beside it when it is
//! materialized (`<root>/context/<conversation>/index/<kind>/<file>.lines`, a small text
//! file; imports write it too); an artifact without one (its index lost, or written by
//! an older version) gets it built by one scan on first read, kept in memory by the
//! materializer.

use super::scan::LineStart;
use super::source::Source;
use crate::error::OffloadError;

/// Bytes between two marks. Artifacts up to this size are read whole (one range).
pub const INDEX_STEP: u64 = 1 << 20;

/// The first line of an index file, naming its format.
const MAGIC: &str = "tool-offload line index 1";

/// Line indexes built on read, by artifact path (a Materializer's cache).
pub(crate) type IndexCache =
    std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<LineIndex>>>;

/// An artifact's line count and sparse line starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineIndex {
    /// The artifact's size in bytes, to tell a stale index.
    pub(crate) bytes: u64,
    /// Its lines, as `str::lines` counts them.
    pub(crate) lines: usize,
    /// `(line number, byte offset)` of the first line starting at or after each multiple
    /// of [`INDEX_STEP`]; the first is `(1, 0)`.
    marks: Vec<(usize, u64)>,
}

/// Builds an index from consecutive pieces of an artifact.
struct Builder {
    index: LineIndex,
    /// Whether the last byte seen was a newline (so the next byte starts a line).
    at_line_start: bool,
    /// Bytes between marks: [`INDEX_STEP`], smaller in tests.
    step: u64,
}

impl Builder {
    fn new(step: u64) -> Self {
        Builder {
            index: LineIndex {
                bytes: 0,
                lines: 0,
                marks: vec![(1, 0)],
            },
            at_line_start: true,
            step,
        }
    }

    /// Count the lines starting in `bytes` (the next piece of the artifact), marking the
    /// first one at or after each multiple of [`INDEX_STEP`]. Newlines are counted in
    /// bulk between marks: one SIMD pass, not a step per line (a 10 MB log has 100,000).
    fn feed(&mut self, bytes: &[u8]) {
        let Some(last) = bytes.len().checked_sub(1) else {
            return;
        };
        let base = self.index.bytes;
        if self.at_line_start {
            self.line_starts_at(base);
        }
        // Only a newline before the piece's last byte starts a line in it; one that ends
        // the piece starts a line only if more bytes come (`at_line_start`).
        let mut from = 0;
        loop {
            // Newlines before `to` start lines before the next mark is due.
            let due = self.next_mark().saturating_sub(base);
            let to = usize::try_from(due.saturating_sub(1)).map_or(last, |d| d.min(last));
            let to = to.max(from);
            self.index.lines += crate::text::measure::newlines(&bytes[from..to]);
            match memchr::memchr(b'\n', &bytes[to..last]) {
                Some(i) => {
                    self.line_starts_at(base + (to + i) as u64 + 1);
                    from = to + i + 1;
                }
                None => break,
            }
        }
        self.at_line_start = bytes[last] == b'\n';
        self.index.bytes += bytes.len() as u64;
    }

    /// The offset from which the next line start is marked.
    fn next_mark(&self) -> u64 {
        let last = self.index.marks.last().map_or(0, |&(_, at)| at);
        (last / self.step + 1) * self.step
    }

    fn line_starts_at(&mut self, offset: u64) {
        self.index.lines += 1;
        if offset >= self.next_mark() {
            self.index.marks.push((self.index.lines, offset));
        }
    }
}

impl LineIndex {
    /// The index of an artifact held in memory.
    pub(crate) fn of(bytes: &[u8]) -> LineIndex {
        let mut builder = Builder::new(INDEX_STEP);
        builder.feed(bytes);
        builder.index
    }

    /// The index of `source`, by reading all of it once, a chunk at a time.
    pub(crate) async fn build<S: Source>(source: &S) -> Result<LineIndex, OffloadError> {
        let mut builder = Builder::new(INDEX_STEP);
        let mut at = 0;
        loop {
            let bytes = source
                .range(at, at.saturating_add(source.chunk().max(1) as u64))
                .await?;
            if bytes.is_empty() {
                return Ok(builder.index);
            }
            builder.feed(&bytes);
            at += bytes.len() as u64;
        }
    }

    /// Where to start scanning for line `line` (1-based): the last mark at or before it.
    pub(crate) fn start_for(&self, line: usize) -> LineStart {
        let i = self.marks.partition_point(|&(l, _)| l <= line);
        let (line, offset) = self.marks[i.saturating_sub(1)];
        LineStart {
            offset,
            line,
            row: 0,
        }
    }

    /// The index as the text of its file.
    pub(crate) fn to_file(&self) -> String {
        let mut out = format!(
            "{MAGIC}\nbytes {}\nlines {}\nstep {INDEX_STEP}\n",
            self.bytes, self.lines
        );
        for (line, offset) in &self.marks {
            out.push_str(&format!("{line} {offset}\n"));
        }
        out
    }

    /// An index file's content, if it is one, for an artifact of `bytes` bytes.
    pub(crate) fn from_file(text: &str, bytes: u64) -> Option<LineIndex> {
        let mut lines = text.lines();
        let mut field = |name: &str| -> Option<u64> {
            lines
                .next()?
                .strip_prefix(name)?
                .strip_prefix(' ')?
                .parse()
                .ok()
        };
        if text.lines().next() != Some(MAGIC) {
            return None;
        }
        let _ = field(""); // the magic line
        let (size, count, step) = (field("bytes")?, field("lines")?, field("step")?);
        if size != bytes || step != INDEX_STEP {
            return None;
        }
        let mut marks = Vec::new();
        for mark in lines {
            let (line, offset) = mark.split_once(' ')?;
            let mark = (line.parse().ok()?, offset.parse().ok()?);
            // Increasing, inside the artifact: anything else is not an index we wrote.
            if marks
                .last()
                .is_some_and(|&(l, o)| mark.0 <= l || mark.1 <= o)
                || mark.1 >= bytes.max(1)
            {
                return None;
            }
            marks.push(mark);
        }
        let lines = usize::try_from(count).ok()?;
        (marks.first() == Some(&(1, 0))).then_some(LineIndex {
            bytes,
            lines,
            marks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index as first written: every line start looked at in turn.
    fn index_line_by_line(bytes: &[u8], step: u64) -> LineIndex {
        let mut index = LineIndex {
            bytes: bytes.len() as u64,
            lines: 0,
            marks: vec![(1, 0)],
        };
        let starts = (0..bytes.len()).filter(|&i| i == 0 || bytes[i - 1] == b'\n');
        for offset in starts.map(|i| i as u64) {
            index.lines += 1;
            let last = index.marks.last().map_or(0, |&(_, at)| at);
            if offset >= (last / step + 1) * step {
                index.marks.push((index.lines, offset));
            }
        }
        index
    }

    #[test]
    fn bulk_counting_marks_what_a_line_by_line_walk_marks_in_any_pieces() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for case in 0..3000 {
            let len = next(80) as usize;
            // Sparse, dense and runs of newlines.
            let density = next(4) + 1;
            let bytes: Vec<u8> = (0..len)
                .map(|_| if next(8) < density { b'\n' } else { b'a' })
                .collect();
            let step = next(12) + 1;
            let mut builder = Builder::new(step);
            let mut at = 0;
            while at < len {
                let piece = (next(10) as usize + usize::from(case % 2 == 0) * len).max(1);
                let end = (at + piece).min(len);
                builder.feed(&bytes[at..end]);
                builder.feed(&[]);
                at = end;
            }
            let expected = index_line_by_line(&bytes, step);
            assert_eq!(builder.index, expected, "case {case} step {step} {bytes:?}");
            assert_eq!(
                expected.lines,
                String::from_utf8_lossy(&bytes).lines().count()
            );
        }
    }
}
