//! The summary's body, laid out within the limit: sizes, then the failure excerpts
//! (never dropped for head or tail lines), then head and tail with what the rest
//! leaves.

use super::body::{body, entry_line, section_of, shown_line};
use super::input::SummaryInput;
use super::lines::{Lines, READ_AHEAD};
use super::names::listed;
use super::plan::{covered, insert, Plan};
use crate::identifiers::occurs_whole;
use crate::summary::detect::{Level, RULES};
use crate::text::utf16_len;

/// Excerpts a summary shows at most (each a failure line with its context).
pub const MAX_EXCERPTS: usize = 6;
/// Lines shown at most when the failure words found are no error marker (`error
/// handling` in prose): each alone, so the names and the ends keep their room.
const MAX_MENTIONS: usize = 3;
/// Outline entries a summary shows at most.
pub const MAX_OUTLINE: usize = 40;

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
    if lines.document {
        return Ok(fit_document(input, lines, frame, plan));
    }
    // Failures first, most telling first: with their context, or alone when that is
    // too long, or not at all (their line numbers are still listed).
    let mut added = 0;
    let excerpts = if lines.document { 0 } else { READ_AHEAD };
    // Words alone (no error marker anywhere): a few lines, without context.
    let mentions = lines
        .ranked
        .first()
        .is_some_and(|&k| lines.found[k].level == Level::Mention);
    let most = if mentions { MAX_MENTIONS } else { MAX_EXCERPTS };
    for &k in lines.ranked.iter().take(excerpts) {
        if added == most {
            break;
        }
        let d = &lines.found[k];
        if covered(&plan.excerpts, d.line) {
            continue;
        }
        let (before, after) = RULES[usize::from(d.rule)].context;
        let (before, after) = if mentions { (0, 0) } else { (before, after) };
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
        let order = (1..=7u8)
            .flat_map(|depth| (0..entries.len()).filter(move |&k| entries[k].depth == depth));
        let mut used = plan_chars(input, lines, &plan, frame);
        let mut chosen = vec![false; entries.len()];
        let mut outline_used = 0;
        for k in order.take(MAX_OUTLINE) {
            let cost = utf16_len(&entry_line(&entries[k], &[]));
            // At most an eighth of the limit: the outline is a map, not the content.
            if used + cost + OUTLINE_HEADER >= input.max_chars
                || outline_used + cost > input.max_chars / 8
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
    // A document's names take the place of head and tail lines; a log's come after
    // them, in room of their own: its ends hold the command and its verdict.
    let outlined = !lines.outline.entries.is_empty();
    if outlined {
        add_names(input, lines, &mut plan, frame, (input.max_chars, 4));
    }
    if plan.outline.is_empty() && plan.names.is_empty() {
        plan = ends_of(&plan, input.max_chars);
    } else {
        let without = Plan {
            outline: Vec::new(),
            names: Vec::new(),
            ..plan.clone()
        };
        let length = utf16_len(&frame(&body(
            input,
            lines,
            &ends_of(&without, input.max_chars),
        )));
        // As many head and tail lines as fit beside the outline and the names in that
        // length, or in three fifths of the limit.
        let within = (length + 1).min(input.max_chars * 3 / 5);
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
    if !outlined {
        add_names(input, lines, &mut plan, frame, (input.max_chars, 8));
    }
    Ok(fits(&plan).unwrap_or_else(|| frame(&body(input, lines, &plan))))
}

/// The names the rest of the summary does not show, heaviest first, in at most
/// `1/share` of the limit (a quarter for a document, an eighth for a log: a name is
/// what a model goes on to use, and a line shows few), the whole staying under
/// `within`.
fn add_names(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    plan: &mut Plan,
    frame: &dyn Fn(&str) -> String,
    (within, share): (usize, usize),
) {
    let entries = &lines.names.entries;
    if entries.is_empty() {
        return;
    }
    let shown = body(input, lines, plan);
    let mut used = plan_chars(input, lines, plan, frame) + NAMES_HEADER;
    let mut spent = 0;
    for (k, (name, line)) in entries.iter().enumerate() {
        if occurs_whole(&shown, name) {
            continue;
        }
        let cost = utf16_len(&listed(name, *line)) + 2;
        if used + cost >= within || spent + cost > input.max_chars / share {
            break;
        }
        used += cost;
        spent += cost;
        plan.names.push(k);
    }
    while !plan.names.is_empty() && utf16_len(&frame(&body(input, lines, plan))) >= within {
        plan.names.pop();
    }
}

/// A document's map (a file read with an outline) takes what the summary's frame
/// (pointer, sizes, hint, the map's header) leaves of the limit, up to this share of
/// it: it says where everything is, and is re-sent every turn. Chosen so that the
/// summaries of the files read in ../shared/corpus are no longer than before maps
/// (about three fifths of the default limit; docs/materializer.md).
const MAP_SHARE: (usize, usize) = (17, 40);
/// Of the map's room, what its shallowest entries take first (a title and its
/// top-level parts, a source file's top-level definitions); names fill the rest, each
/// in the shown part where it is first seen (a definition whose own line shows the
/// name is shown for it), then deeper entries while room is left. Names keep the most
/// identifiers per character; parts and definitions, the shape.
const SHALLOW_SHARE: (usize, usize) = (1, 5);
/// The same for a source file: its definitions are its names that matter most (a
/// function's name and signature), its other names mostly locals.
const CODE_SHALLOW_SHARE: (usize, usize) = (3, 5);

/// A document's body: its map — the outline's shallowest entries, then the names most
/// used, each in the shown part where it is first seen, then deeper
/// entries while room is left; every entry shown with the entries it is part of; no
/// head or tail lines (a document's ends are a
/// title and a last paragraph; the map shows where each part is).
fn fit_document(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    frame: &dyn Fn(&str) -> String,
    mut plan: Plan,
) -> String {
    let share = |(n, d): (usize, usize), of: usize| of * n / d;
    let entries = &lines.outline.entries;
    // The frame (pointer, sizes, hint) and the outline's header, then the map in what
    // they leave, up to its share of the limit.
    let base = plan_chars(input, lines, &plan, frame) + OUTLINE_HEADER;
    let room = input
        .max_chars
        .saturating_sub(base)
        .min(share(MAP_SHARE, input.max_chars));
    let within = (base + room).min(input.max_chars);
    let cost = |k: usize| utf16_len(&entry_line(&entries[k], &[]));
    // An entry is shown with the entries it is part of: a map is a tree.
    let parent = parents(entries);
    let mut chosen = vec![false; entries.len()];
    // What showing `k` adds (it and its parts not shown yet), and showing it.
    let added = |k: usize, chosen: &[bool]| {
        let mut c = 0;
        let mut at = Some(k);
        while let Some(j) = at.filter(|&j| !chosen[j]) {
            c += cost(j);
            at = parent[j];
        }
        c
    };
    let choose = |k: usize, chosen: &mut [bool]| {
        let mut at = Some(k);
        while let Some(j) = at.filter(|&j| !chosen[j]) {
            chosen[j] = true;
            at = parent[j];
        }
    };
    let mut spent = 0;
    let by_depth =
        || (1..=7u8).flat_map(|d| (0..entries.len()).filter(move |&k| entries[k].depth == d));
    for k in by_depth() {
        let c = added(k, &chosen);
        let first = if lines.outline.code {
            CODE_SHALLOW_SHARE
        } else {
            SHALLOW_SHARE
        };
        if spent + c > share(first, room) {
            break;
        }
        spent += c;
        choose(k, &mut chosen);
    }
    // Names, most used first, each listed in the shown part that holds it (a name its
    // entry's own line shows makes that entry shown instead); one that does not fit is
    // passed over for a cheaper one.
    for (n, (name, line)) in lines.names.entries.iter().enumerate() {
        let k = section_of(&lines.outline, *line);
        let in_text = entries[k].text.contains(name.as_str());
        let c = if in_text {
            added(k, &chosen)
        } else {
            utf16_len(name) + 2
        };
        if spent + c > room {
            continue;
        }
        spent += c;
        if in_text {
            choose(k, &mut chosen);
        } else {
            plan.names.push(n);
        }
    }
    for k in by_depth() {
        let c = added(k, &chosen);
        if c > 0 && spent + c <= room {
            spent += c;
            choose(k, &mut chosen);
        }
    }
    plan.outline = (0..entries.len()).filter(|&k| chosen[k]).collect();
    while !plan.names.is_empty() && plan_chars(input, lines, &plan, frame) >= within {
        plan.names.pop();
    }
    frame(&body(input, lines, &plan))
}

/// Each entry's parent: the nearest entry before it that is shallower.
fn parents(entries: &[super::outline::Entry<'_>]) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            while open
                .last()
                .is_some_and(|&top| entries[top].depth >= e.depth)
            {
                open.pop();
            }
            let parent = open.last().copied();
            open.push(k);
            parent
        })
        .collect()
}

/// Room kept for the names' header line.
const NAMES_HEADER: usize = 60;

/// Room kept for the outline's header line (the ref it names aside).
const OUTLINE_HEADER: usize = 110;

/// The framed length of `plan`'s body, in UTF-16 units.
fn plan_chars(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    plan: &Plan,
    frame: &dyn Fn(&str) -> String,
) -> usize {
    utf16_len(&frame(&body(input, lines, plan)))
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
