//! The failure lines of a text and their ranking: which most likely is the root cause.

use super::classify::classify;
use super::rules::{Level, RULES};

/// A line of a text that a rule marks as a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detection {
    /// 0-based line index.
    pub line: usize,
    /// Byte range of the line in the text (without its newline or a final `\r`).
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// How strongly it points at the failure.
    pub level: Level,
    /// The rule's index in [`RULES`].
    pub rule: u16,
    /// The literal to grep for to find it again.
    pub key: &'static str,
}

/// Every failure line of `text`, in order (lines marked [`Level::Not`] left out).
///
/// ```
/// use tool_offload_core::materialize::detect::{detect, Level};
/// let log = "   Compiling foo v0.1.0\nerror[E0308]: mismatched types\n  --> src/main.rs:4:18\nwarning: unused import\nerror: could not compile `foo`";
/// let found = detect(log);
/// assert_eq!(found.iter().map(|d| (d.line, d.level)).collect::<Vec<_>>(), [(1, Level::Root), (4, Level::Verdict)]);
/// ```
pub fn detect(text: &str) -> Vec<Detection> {
    // The exact markers (a linker's `undefined reference`, kubectl's `OOMKilled`, a run's
    // `passed`) add to failures the trigger words found, and cost a pass each: they are
    // looked for only in an output that has some, not in the clean logs that are most.
    let found = detect_with(text, false);
    if found.is_empty() {
        return found;
    }
    detect_with(text, true)
}

/// [`detect`] over the trigger words' candidates, and the exact markers' when `exact`.
fn detect_with(text: &str, exact: bool) -> Vec<Detection> {
    let bytes = text.as_bytes();
    let (mut found, mut from, mut line, mut counted) = (Vec::new(), 0, 0, 0);
    let mut candidates = super::scan::Candidates::new(bytes, exact);
    let mut passed = false;
    while let Some(at) = candidates.next_from(from) {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        line += memchr::memchr_iter(b'\n', &bytes[counted..start]).count();
        counted = start;
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        let trimmed = if end > start && bytes[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        if let Some(mut c) = classify(&text[start..trimmed]) {
            // Ansible's `...ignoring` under a failed task: a failure the play expected.
            if bytes
                .get(end + 1..)
                .is_some_and(|next| next.starts_with(b"...ignoring"))
            {
                c.level = c.level.min(Level::Mention);
            }
            passed |= c.level == Level::Passed;
            if c.level > Level::Not {
                found.push(Detection {
                    line,
                    start,
                    end: trimmed,
                    level: c.level,
                    rule: c.rule,
                    key: c.key,
                });
            }
        }
        from = end;
        if from >= bytes.len() {
            break;
        }
    }
    // A run that says it passed, and nowhere that it failed: its errors were expected
    // (a test's own error logs, a retry that succeeded).
    if passed && !found.iter().any(|d| RULES[usize::from(d.rule)].outcome) {
        for d in &mut found {
            d.level = d.level.min(Level::Mention);
        }
    }
    found
}

/// The order in which a summary shows detections when not all fit: the first
/// root-cause candidate, the last verdict, then the other candidates in order, then the
/// other verdicts, then mere mentions. Indices into `found`.
///
/// ```
/// use tool_offload_core::materialize::detect::{detect, ranked};
/// let log = "FAIL src/a.test.js\n  ● adds\nnoise\nTests: 1 failed, 2 passed";
/// let found = detect(log);
/// let order: Vec<usize> = ranked(&found).into_iter().map(|i| found[i].line).collect();
/// assert_eq!(order, [1, 3, 0]);
/// ```
pub fn ranked(found: &[Detection]) -> Vec<usize> {
    let mut order = Vec::with_capacity(found.len());
    let top = found.iter().map(|d| d.level).max();
    let at_top = |d: &Detection| Some(d.level) == top;
    // The first line of the highest level, or the last one of a rule whose last match
    // is the root cause (Java's innermost `Caused by:`).
    let first = found
        .iter()
        .rposition(|d| at_top(d) && RULES[usize::from(d.rule)].last_wins)
        .or_else(|| found.iter().position(at_top));
    order.extend(first);
    let verdict = found.iter().rposition(|d| d.level == Level::Verdict);
    if verdict != first {
        order.extend(verdict);
    }
    for level in [Level::Root, Level::Verdict, Level::Mention] {
        for (i, d) in found.iter().enumerate() {
            if d.level == level && Some(i) != first && Some(i) != verdict {
                order.push(i);
            }
        }
    }
    order
}
