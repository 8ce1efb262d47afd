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
use crate::OffloadError;

/// Bytes between two marks. Artifacts up to this size are read whole (one range).
pub const INDEX_STEP: u64 = 1 << 20;

/// The first line of an index file, naming its format.
const MAGIC: &str = "tool-offload line index 1";

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
}

impl Builder {
    fn new() -> Self {
        Builder {
            index: LineIndex {
                bytes: 0,
                lines: 0,
                marks: vec![(1, 0)],
            },
            at_line_start: true,
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        let base = self.index.bytes;
        if self.at_line_start && !bytes.is_empty() {
            self.line_starts_at(base);
        }
        for nl in memchr::memchr_iter(b'\n', bytes) {
            // A newline that ends this piece starts a line only if more bytes come.
            if nl + 1 < bytes.len() {
                self.line_starts_at(base + nl as u64 + 1);
            }
        }
        self.at_line_start = bytes.last().map_or(self.at_line_start, |&b| b == b'\n');
        self.index.bytes += bytes.len() as u64;
    }

    fn line_starts_at(&mut self, offset: u64) {
        self.index.lines += 1;
        let last = self.index.marks.last().map_or(0, |&(_, at)| at);
        if offset >= (last / INDEX_STEP + 1) * INDEX_STEP {
            self.index.marks.push((self.index.lines, offset));
        }
    }
}

impl LineIndex {
    /// The index of an artifact held in memory.
    pub(crate) fn of(bytes: &[u8]) -> LineIndex {
        let mut builder = Builder::new();
        builder.feed(bytes);
        builder.index
    }

    /// The index of `source`, by reading all of it once, a chunk at a time.
    pub(crate) async fn build<S: Source>(source: &S) -> Result<LineIndex, OffloadError> {
        let mut builder = Builder::new();
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
