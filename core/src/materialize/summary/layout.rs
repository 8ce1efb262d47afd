//! The summary's body, laid out within the limit: sizes, then the failure excerpts
//! (never dropped for head or tail lines), then head and tail with what the rest
//! leaves.

use std::ops::Range;

use super::lines::{Lines, READ_AHEAD};
use super::SummaryInput;
use crate::materialize::detect::{Level, RULES};
use crate::materialize::plain::plain;
use crate::materialize::text::{count, cut, MAX_PREVIEW_CHARS};
use crate::utf16_len;

/// Excerpts a summary shows at most (each a failure line with its context).
pub const MAX_EXCERPTS: usize = 6;
/// Line numbers listed at most after `more at lines`.
const MAX_MORE: usize = 12;
/// Outline entries a summary shows at most.
pub const MAX_OUTLINE: usize = 40;

/// What the body shows: excerpt line ranges (sorted, disjoint), which detections they
/// show, and how many head and tail lines.
#[derive(Default, Clone)]
struct Plan {
    /// Whether the format's lines are shown.
    format: bool,
    excerpts: Vec<Range<usize>>,
    /// Indices into the outline, in order.
    outline: Vec<usize>,
    head: usize,
    tail: usize,
}

/// The body with the most that stays under `input.max_chars` once `frame`d; `Err` with
/// the frame around the emptiest body when nothing fits.
pub(super) fn fit(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    frame: &dyn Fn(&str) -> String,
) -> Result<String, String> {
    let fits = |plan: &Plan| {
        let text = frame(&body(input, lines, plan));
        (utf16_len(&text) < input.max_chars).then_some(text)
    };
    let mut plan = Plan::default();
    if fits(&plan).is_none() {
        return Err(frame(&body(input, lines, &plan)));
    }
    // What the format says first (binary data: that alone).
    if !lines.format.lines.is_empty() {
        let with = Plan {
            format: true,
            ..Plan::default()
        };
        if fits(&with).is_some() {
            plan = with;
        }
        if lines.format.binary {
            return Ok(frame(&body(input, lines, &plan)));
        }
    }
    // Failures first, most telling first: with their context, or alone when that is
    // too long, or not at all (their line numbers are still listed).
    let mut added = 0;
    for &k in lines.ranked.iter().take(READ_AHEAD) {
        if added == MAX_EXCERPTS {
            break;
        }
        let d = &lines.found[k];
        if covered(&plan.excerpts, d.line) {
            continue;
        }
        let (before, after) = RULES[usize::from(d.rule)].context;
        let wide = d.line.saturating_sub(before.into())
            ..(d.line + 1 + usize::from(after)).min(lines.len());
        for range in [wide, d.line..d.line + 1] {
            let mut next = plan.clone();
            insert(&mut next.excerpts, range);
            if fits(&next).is_some() {
                plan = next;
                added += 1;
                break;
            }
        }
    }
    // The outline, shallowest entries first, as many as fit.
    let entries = &lines.outline.entries;
    if !entries.is_empty() {
        // Shallowest first (a heading's level, a definition's indentation), then in
        // order; no sort, so the wasm holds no second instantiation of one.
        let order =
            (1..=6u8).flat_map(|depth| (0..entries.len()).filter(move |&k| entries[k].2 == depth));
        let mut used = plan_chars(input, lines, &plan, frame);
        let mut chosen = vec![false; entries.len()];
        let mut outline_used = 0;
        for k in order.take(MAX_OUTLINE) {
            let (i, line, _) = entries[k];
            let cost = utf16_len(&numbered(i, line));
            // At most a quarter of the limit: the outline is a map, not the content.
            if used + cost + OUTLINE_HEADER >= input.max_chars
                || outline_used + cost > input.max_chars / 4
            {
                break;
            }
            used += cost;
            outline_used += cost;
            chosen[k] = true;
        }
        plan.outline = (0..entries.len()).filter(|&k| chosen[k]).collect();
        while !plan.outline.is_empty() && fits(&plan).is_none() {
            plan.outline.pop();
        }
    }
    // Head and tail: `snippet_lines` each (fewer when the byte budget says so; for
    // JSON on long lines, pretty-printed head lines and no tail), halved until the whole
    // fits. Halving, not the most that fit: a summary is re-sent every turn, and filling
    // the limit to the last character costs more than the lines it adds are worth. The
    // outline takes the place of head and tail lines, not room of its own: the summary
    // with it is no longer than it would be without it.
    let (most_head, most_tail) = if lines.format.pretty.is_empty() {
        ends(input, lines)
    } else {
        (lines.format.pretty.len(), 0)
    };
    let ends_of = |plan: &Plan, within: usize| {
        let mut n = most_head.max(most_tail);
        loop {
            let trial = Plan {
                head: n.min(most_head),
                tail: n.min(most_tail),
                ..plan.clone()
            };
            let shown = frame(&body(input, lines, &trial));
            if n == 0 || utf16_len(&shown) < within {
                return trial;
            }
            n /= 2;
        }
    };
    if plan.outline.is_empty() {
        plan = ends_of(&plan, input.max_chars);
    } else {
        let without = Plan {
            outline: Vec::new(),
            ..plan.clone()
        };
        let length = utf16_len(&frame(&body(
            input,
            lines,
            &ends_of(&without, input.max_chars),
        )));
        // As many head and tail lines as fit beside the outline in that length.
        let within = (length + 1).min(input.max_chars);
        let (mut low, mut high) = (0, most_head.max(most_tail));
        while low < high {
            let n = (low + high).div_ceil(2);
            let trial = Plan {
                head: n.min(most_head),
                tail: n.min(most_tail),
                ..plan.clone()
            };
            if utf16_len(&frame(&body(input, lines, &trial))) < within {
                low = n;
            } else {
                high = n - 1;
            }
        }
        plan.head = low.min(most_head);
        plan.tail = low.min(most_tail);
    }
    Ok(fits(&plan).unwrap_or_else(|| frame(&body(input, lines, &plan))))
}

/// Room kept for the outline's header line.
const OUTLINE_HEADER: usize = 60;

/// The framed length of `plan`'s body, in UTF-16 units.
fn plan_chars(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    plan: &Plan,
    frame: &dyn Fn(&str) -> String,
) -> usize {
    utf16_len(&frame(&body(input, lines, plan)))
}

/// Whether line `i` is inside one of `excerpts`.
fn covered(excerpts: &[Range<usize>], i: usize) -> bool {
    excerpts.iter().any(|r| r.contains(&i))
}

/// `range` added to the sorted, disjoint `excerpts`, merged with any it overlaps or
/// touches.
fn insert(excerpts: &mut Vec<Range<usize>>, range: Range<usize>) {
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

/// Head and tail lines at most: `snippet_lines` each, fewer when the text is short (the
/// tail never repeats the head) or `snippet_bytes` says so.
fn ends(input: &SummaryInput<'_>, lines: &Lines<'_>) -> (usize, usize) {
    let within_bytes = |shown: &mut dyn Iterator<Item = &&str>| match input.snippet_bytes {
        None => usize::MAX,
        Some(budget) => {
            let mut used = 0;
            shown
                .take_while(|line| {
                    used += shown_line(line).len() + 1;
                    used <= budget
                })
                .count()
        }
    };
    let head = input
        .snippet_lines
        .min(lines.len())
        .min(within_bytes(&mut lines.first()));
    let tail = input
        .snippet_lines
        .min(lines.len() - head)
        .min(within_bytes(&mut lines.last_down_to(head)));
    (head, tail)
}

/// A line as a summary shows it: as a terminal would, cut at [`MAX_PREVIEW_CHARS`].
fn shown_line(line: &str) -> String {
    cut(&plain(line), MAX_PREVIEW_CHARS)
}

fn body(input: &SummaryInput<'_>, lines: &Lines<'_>, plan: &Plan) -> String {
    let m = input.measure;
    let mut out = format!(
        "Size: {}, {}, {}. JSON: {}.\n",
        count(m.bytes, "byte"),
        count(m.chars, "character"),
        count(m.lines, "line"),
        if input.is_json { "yes" } else { "no" }
    );
    if plan.format {
        for line in &lines.format.lines {
            out.push_str(line);
            out.push('\n');
        }
    }
    if lines.format.binary {
        return out;
    }
    if let Some(&first) = lines.ranked.first() {
        let found = lines.found.len();
        out += &if lines.found[first].level == Level::Mention {
            format!(
                "--- failure words on {}; none is an error marker ---\n",
                count(found, "line")
            )
        } else {
            format!(
                "--- errors: {} found; likely root cause at line {} ---\n",
                count(found, "line"),
                lines.found[first].line + 1
            )
        };
        for (n, range) in plan.excerpts.iter().enumerate() {
            if n > 0 {
                out.push_str("...\n");
            }
            push_lines(&mut out, lines, range.clone());
        }
        let more: Vec<usize> = lines
            .found
            .iter()
            .map(|d| d.line)
            .filter(|&i| !covered(&plan.excerpts, i))
            .collect();
        if !more.is_empty() {
            out.push_str("--- more at lines ");
            for (n, i) in more.iter().take(MAX_MORE).enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                out += &(i + 1).to_string();
            }
            out.push_str(if more.len() > MAX_MORE {
                " … ---\n"
            } else {
                " ---\n"
            });
        }
    }
    if !plan.outline.is_empty() {
        let all = lines.outline.entries.len();
        let kind = lines.outline.kind;
        out += &format!(
            "--- outline: {}{} ---\n",
            count(all, kind),
            if plan.outline.len() < all {
                format!(", {} shown", plan.outline.len())
            } else {
                String::new()
            }
        );
        for &k in &plan.outline {
            let (i, line, _) = lines.outline.entries[k];
            out.push_str(&numbered(i, line));
        }
    }
    if !lines.format.pretty.is_empty() {
        if plan.head > 0 {
            out += &format!(
                "--- first {}, pretty-printed ---\n",
                count(plan.head, "line")
            );
            for line in &lines.format.pretty[..plan.head] {
                out.push_str(&shown_line(line));
                out.push('\n');
            }
        }
        return out;
    }
    if plan.head > 0 {
        out += &format!("--- first {} ---\n", count(plan.head, "line"));
        push_lines(&mut out, lines, 0..plan.head);
    }
    let omitted = lines.len() - plan.head - plan.tail;
    if omitted > 0 {
        out += &format!("--- {} omitted ---\n", count(omitted, "line"));
    }
    if plan.tail > 0 {
        out += &format!("--- last {} ---\n", count(plan.tail, "line"));
        push_lines(&mut out, lines, lines.len() - plan.tail..lines.len());
    }
    if let Some(t) = lines.trailer {
        out += &format!(
            "--- lines {}-{}: a {} block ({}), not shown ---\n",
            lines.len() + 1,
            lines.len() + t.lines,
            t.name,
            count(t.chars, "character")
        );
    }
    out
}

/// Line `i` (0-based) as a summary shows it: numbered from 1, as [`shown_line`]
/// shows it, with its newline.
fn numbered(i: usize, line: &str) -> String {
    format!("{}| {}\n", i + 1, shown_line(line))
}

/// Lines `range` of `lines`, [`numbered`].
fn push_lines(out: &mut String, lines: &Lines<'_>, range: Range<usize>) {
    for i in range {
        out.push_str(&numbered(i, lines.get(i)));
    }
}
