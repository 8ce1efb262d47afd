//! `tail` over any source: find where the last lines start by reading backwards from
//! the end, then keep the last rows a page can show as they stream.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use super::line_index::LineIndex;
use super::naming::{row_chars, Named};
use super::page::{assemble, OwnedRow};
use super::scan::{scan, LineStart, Visitor};
use super::source::Source;
use crate::text::measure::Row;
use crate::{error::OffloadError, text::utf16_len};

/// [`tail_page`](super::tail_page) over any source, with its line index.
pub(crate) async fn tail_in<S: Source>(
    source: &S,
    index: &LineIndex,
    reference: &str,
    count: usize,
    max_chars: usize,
) -> Result<String, OffloadError> {
    let named = Named::new(reference, 2, max_chars);
    let budget = max_chars.saturating_sub(named.room);
    if index.lines == 0 {
        return Ok(format!("[{}: empty.]", named.title));
    }
    let wanted = count.max(1).min(index.lines);
    let start = last_lines_start(source, index.lines, wanted, budget).await?;
    // Rows are at least 4 units numbered (`1| ` and a newline), so no more than this
    // many can fit: older rows are dropped as the scan goes.
    let keep = budget / 4 + 2;
    let mut tail = TailRows {
        rows: VecDeque::with_capacity(keep.min(4096)),
        keep,
    };
    scan(source, start, row_chars(max_chars, named.room), &mut tail).await?;
    // Collected, not `into()`: that rotates the ring in place, code for this call alone.
    let rows: Vec<OwnedRow> = tail.rows.into_iter().collect();
    // Keep the end: take rows from the last while they fit (always one).
    let mut taken = 0;
    let mut used = 0;
    for row in rows.iter().rev() {
        let len = utf16_len(&row.numbered);
        if taken > 0 && used + len > budget {
            break;
        }
        used += len;
        taken += 1;
    }
    Ok(assemble(
        &rows[rows.len() - taken..],
        None,
        index.lines,
        &named,
    ))
}

/// The last rows of a scan.
struct TailRows {
    rows: VecDeque<OwnedRow>,
    keep: usize,
}

impl Visitor for TailRows {
    fn row(&mut self, row: &Row<'_>, _: usize, _: &LineStart) -> ControlFlow<()> {
        if self.rows.len() == self.keep {
            self.rows.pop_front();
        }
        self.rows.push_back(OwnedRow::of(row));
        ControlFlow::Continue(())
    }
}

/// The start of the `wanted` last lines of `source` (of `lines`), or of fewer when the
/// later ones already hold more than `budget` units: rows before those could not show.
async fn last_lines_start<S: Source>(
    source: &S,
    lines: usize,
    wanted: usize,
    budget: usize,
) -> Result<LineStart, OffloadError> {
    let size = source.size();
    let chunk = source.chunk().max(1) as u64;
    // Bytes `window.0..` of the artifact, read backwards a chunk at a time.
    let mut window: (u64, Vec<u8>) = (size, Vec::new());
    // The newline ending the line before the ones found so far (a final newline ends
    // the last line and starts none).
    let mut end = size;
    let mut found = 0;
    loop {
        let newline = loop {
            let (at, bytes) = &window;
            let before = (end - at) as usize;
            if let Some(i) = memchr::memrchr(b'\n', &bytes[..before.min(bytes.len())]) {
                break Some(at + i as u64);
            }
            if *at == 0 {
                break None;
            }
            // Bytes from `at` on hold no newline before `end`: only the new chunk is kept.
            let from = at.saturating_sub(chunk);
            window = (from, source.range(from, *at).await?.into_owned());
        };
        // Skip the final newline: it ends the last line.
        if found == 0 && newline == Some(size - 1) && end == size {
            end = size - 1;
            continue;
        }
        found += 1;
        let start = newline.map_or(0, |n| n + 1);
        // Each line holds at most 2 bytes of line end and a unit per 3 bytes at least.
        let text_bytes = (size - start).saturating_sub(2 * found as u64);
        if found == wanted || newline.is_none() || text_bytes / 3 >= budget as u64 {
            return Ok(LineStart {
                offset: start,
                line: lines + 1 - found,
                row: 0,
            });
        }
        end = newline.unwrap_or(0);
    }
}
