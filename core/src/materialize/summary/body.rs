//! The summary's body as a [`Plan`] lays it out: each section's header and lines.

use std::ops::Range;

use super::lines::Lines;
use super::names::listed;
use super::plan::{covered, Plan};
use super::repeats::REPEATED;
use super::SummaryInput;
use crate::materialize::detect::{gutter, Level};
use crate::materialize::plain::plain;
use crate::materialize::text::{count, cut, MAX_PREVIEW_CHARS};

/// Line numbers listed at most after `more at lines`.
const MAX_MORE: usize = 12;

/// A line as a summary shows it: as a terminal would, cut at [`MAX_PREVIEW_CHARS`].
pub(super) fn shown_line(line: &str) -> String {
    cut(&plain(line), MAX_PREVIEW_CHARS)
}

/// The body `plan` lays out: sizes, format, failures, outline, names, head and tail,
/// the trailer named.
pub(super) fn body(input: &SummaryInput<'_>, lines: &Lines<'_>, plan: &Plan) -> String {
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
    if lines.document && !lines.found.is_empty() {
        out += &format!(
            "--- the file's text names errors on {}: ",
            count(lines.found.len(), "line")
        );
        push_more(&mut out, lines.found.iter().map(|d| d.line));
    } else if let Some(&first) = lines.ranked.first() {
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
            push_more(&mut out, more.into_iter());
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
    if !plan.names.is_empty() {
        let all = lines.names.entries.len();
        out += &format!(
            "--- {} of {}{}, most frequent first (line first seen) ---\n",
            plan.names.len(),
            count(all, "name"),
            if lines.names.partial {
                " in the first 4 MiB"
            } else {
                ""
            }
        );
        for (n, &k) in plan.names.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            let (name, line) = &lines.names.entries[k];
            out.push_str(&listed(name, *line));
        }
        out.push('\n');
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
        let what = match t.name {
            REPEATED => "the same as the end of an earlier output".to_owned(),
            name => format!("a {name} block"),
        };
        out += &format!(
            "--- lines {}-{}: {what} ({}), not shown ---\n",
            lines.len() + 1,
            lines.len() + t.lines,
            count(t.chars, "character")
        );
    }
    out
}

/// Up to [`MAX_MORE`] of `lines` (0-based) numbered from 1, then ` … ---` when there
/// were more, or ` ---`.
fn push_more(out: &mut String, lines: impl Iterator<Item = usize>) {
    for (n, i) in lines.enumerate() {
        if n == MAX_MORE {
            out.push_str(" …");
            break;
        }
        if n > 0 {
            out.push_str(", ");
        }
        out.push_str(&(i + 1).to_string());
    }
    out.push_str(" ---\n");
}

/// Line `i` (0-based) as a summary shows it: numbered from 1, as [`shown_line`]
/// shows it, with its newline.
pub(super) fn numbered(i: usize, line: &str) -> String {
    // A file read numbers its own lines (`   146→text`, `cat -n`): where its number is
    // the line's own, that number is shown once, not twice (`146→text`).
    if let Some(g) = gutter(line) {
        let b = line.as_bytes();
        let spaces = b.iter().take_while(|&&c| c == b' ').count();
        let digits = spaces
            + b[spaces..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        if line[spaces..digits].parse::<usize>().ok() == Some(i + 1) {
            return format!("{}{}\n", &line[spaces..g], shown_line(&line[g..]));
        }
    }
    format!("{}| {}\n", i + 1, shown_line(line))
}

/// Lines `range` of `lines`, [`numbered`].
fn push_lines(out: &mut String, lines: &Lines<'_>, range: Range<usize>) {
    for i in range {
        out.push_str(&numbered(i, lines.get(i)));
    }
}
