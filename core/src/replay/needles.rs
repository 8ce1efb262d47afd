//! Needle recovery: a few lines of every artifact, chosen deterministically, each looked
//! for again with one `context_grep` of the line itself. A needle is recovered when the
//! page holds it and stays within a page's bound. The host runs the greps.

use crate::{text::js_trim, text::utf16_len};

/// Lines shorter than this many code units are not needles (too easily found anywhere).
pub const NEEDLE_MIN_CHARS: usize = 20;
/// A page longer than this many code units does not count as recovering its needle.
pub const NEEDLE_PAGE_MAX: usize = 4_000;
/// The longest pattern `context_grep` accepts, in code units.
const PATTERN_MAX: usize = 1_000;
/// Of a line longer than a grep row, this many code units are searched and expected.
pub const LONG_LINE_PROBE: usize = 200;

/// One line to look for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    /// Its 0-based line number in the artifact.
    pub line: usize,
    /// What the page must hold: the line, or its first [`LONG_LINE_PROBE`] code units
    /// when it is longer than a grep row.
    pub expect: String,
    /// The pattern to grep for: `expect` escaped, cut to the longest pattern accepted.
    pub pattern: String,
    /// Whether the line is longer than a grep row.
    pub long: bool,
}

/// Up to `count` needles of `text`, the artifact `reference` of `conversation`, for pages
/// under `max_inline_chars`: non-blank lines of at least [`NEEDLE_MIN_CHARS`] code units,
/// drawn by mulberry32 seeded with the FNV-1a hash of `conversation + "\n" + reference`,
/// in line order.
///
/// ```
/// use tool_offload_core::replay::pick_needles;
/// let text = "short\nthe first line long enough to count\n\nanother line that is long enough (yes)\n";
/// let needles = pick_needles("conv", "ctx://conv/tool/a.txt", text, 3, 4000);
/// assert_eq!(needles.len(), 2);
/// assert_eq!(needles[1].pattern, r"another line that is long enough \(yes\)");
/// ```
pub fn pick_needles(
    conversation: &str,
    reference: &str,
    text: &str,
    count: usize,
    max_inline_chars: usize,
) -> Vec<Needle> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut candidates: Vec<usize> = (0..lines.len())
        .filter(|&i| !js_trim(lines[i]).is_empty() && utf16_len(lines[i]) >= NEEDLE_MIN_CHARS)
        .collect();
    let mut random = Mulberry32(fnv1a(&format!("{conversation}\n{reference}")));
    let mut picked = Vec::new();
    while picked.len() < count && !candidates.is_empty() {
        let at = (random.next() * candidates.len() as f64) as usize;
        picked.push(candidates.remove(at));
    }
    picked.sort_unstable();
    let rows = row_chars(max_inline_chars, reference);
    picked
        .into_iter()
        .map(|line| {
            let text = lines[line];
            let long = utf16_len(text) > rows;
            let expect = if long {
                utf16_head(text, LONG_LINE_PROBE)
            } else {
                text
            };
            Needle {
                line,
                expect: expect.to_owned(),
                pattern: pattern_of(expect),
                long,
            }
        })
        .collect()
}

/// Whether `page` recovers `needle`: it holds the expected text and is no longer than
/// [`NEEDLE_PAGE_MAX`].
pub fn recovered(page: &str, needle: &Needle) -> bool {
    utf16_len(page) <= NEEDLE_PAGE_MAX && crate::search::contains(page, &needle.expect)
}

/// Code units of a grep row under `limit` for `reference` (core's row width: a line is
/// matched and shown in rows of at most 2,000; under small limits the header's room, 200
/// + the ref, and the label's, 24, come off the limit).
fn row_chars(limit: usize, reference: &str) -> usize {
    let with_ref = 200 + utf16_len(reference);
    let room = if with_ref + 24 + 100 <= limit {
        with_ref
    } else {
        200
    };
    2000.min(limit.saturating_sub(room + 24))
}

/// The first `n` code units of `s`, one fewer rather than half a surrogate pair.
fn utf16_head(s: &str, n: usize) -> &str {
    let mut units = 0;
    for (at, c) in s.char_indices() {
        if units + c.len_utf16() > n {
            return &s[..at];
        }
        units += c.len_utf16();
    }
    s
}

/// The longest prefix of `line` whose escaped form is a pattern `context_grep` accepts.
fn pattern_of(line: &str) -> String {
    let mut out = String::new();
    let mut units = 0;
    for c in line.chars() {
        let special = matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        );
        let n = c.len_utf16() + usize::from(special);
        if units + n > PATTERN_MAX {
            break;
        }
        if special {
            out.push('\\');
        }
        out.push(c);
        units += n;
    }
    out
}

/// FNV-1a over UTF-16 code units.
fn fnv1a(text: &str) -> u32 {
    text.encode_utf16().fold(0x811c_9dc5u32, |h, unit| {
        (h ^ u32::from(unit)).wrapping_mul(0x0100_0193)
    })
}

/// The mulberry32 generator: numbers in [0, 1).
struct Mulberry32(u32);

impl Mulberry32 {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generators_match_their_javascript() {
        // Values printed by bench/replay-reference.mjs's fnv1a and mulberry32.
        assert_eq!(fnv1a(""), 0x811c_9dc5);
        assert_eq!(fnv1a("a"), 0xe40c_292c);
        let mut r = Mulberry32(1);
        let first = r.next();
        assert!((first - 0.627_073_940_588_161_3).abs() < 1e-15, "{first}");
    }

    #[test]
    fn long_lines_are_probed_by_their_head() {
        let line = "y".repeat(3000);
        let needles = pick_needles("c", "r", &line, 3, 4000);
        assert_eq!(needles.len(), 1);
        assert!(needles[0].long);
        assert_eq!(needles[0].expect.len(), LONG_LINE_PROBE);
        assert!(recovered(
            &format!("page {}", needles[0].expect),
            &needles[0]
        ));
        assert!(!recovered(&"y".repeat(4001), &needles[0]));
    }

    #[test]
    fn patterns_are_cut_to_the_longest_accepted() {
        assert_eq!(pattern_of("a.b"), r"a\.b");
        assert_eq!(utf16_len(&pattern_of(&"(".repeat(600))), 1000);
        assert_eq!(utf16_head("a😀b", 2), "a");
        assert_eq!(row_chars(4000, "r"), 2000);
        assert_eq!(row_chars(500, "ctx://x"), 269);
        assert_eq!(row_chars(300, "ctx://x"), 76);
    }
}
