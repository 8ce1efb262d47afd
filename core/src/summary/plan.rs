//! What a summary's body shows, as [`layout`](super::layout) decides it and
//! [`body`](super::body) writes it.

use std::ops::Range;

/// What the body shows: excerpt line ranges (sorted, disjoint), which detections they
/// show, and how many head and tail lines.
#[derive(Default, Clone)]
pub(super) struct Plan {
    /// Whether the format's lines are shown.
    pub(super) format: bool,
    pub(super) excerpts: Vec<Range<usize>>,
    /// Indices into the outline, in order.
    pub(super) outline: Vec<usize>,
    /// Indices into the names, most frequent first.
    pub(super) names: Vec<usize>,
    pub(super) head: usize,
    pub(super) tail: usize,
}

/// Whether line `i` is inside one of `excerpts`.
pub(super) fn covered(excerpts: &[Range<usize>], i: usize) -> bool {
    excerpts.iter().any(|r| r.contains(&i))
}

/// `range` added to the sorted, disjoint `excerpts`, merged with any it overlaps or
/// touches.
pub(super) fn insert(excerpts: &mut Vec<Range<usize>>, range: Range<usize>) {
    let mut merged = range;
    excerpts.retain(|r| {
        let apart = r.end < merged.start || merged.end < r.start;
        if !apart {
            merged = merged.start.min(r.start)..merged.end.max(r.end);
        }
        apart
    });
    let at = excerpts.partition_point(|r| r.start < merged.start);
    excerpts.insert(at, merged);
}
