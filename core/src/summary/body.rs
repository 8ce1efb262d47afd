//! The summary's body as a [`Plan`] lays it out: each section's header and lines.

use std::ops::Range;

use super::definitions::import;
use super::input::SummaryInput;
use super::lines::Lines;
use super::names::listed;
use super::outline::{Entry, Outline};
use super::plan::{covered, Plan};
use super::repeats::REPEATED;
use crate::summary::detect::{gutter, Level};
use crate::text::measure::{count, cut, MAX_PREVIEW_CHARS};
use crate::text::plain::plain;

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
    if lines.document {
        // A document's error lines are what it says, not a failure: not named.
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
        out += &outline_header(input, lines, plan);
        for &k in &plan.outline {
            // A document's names are listed in the part where each is first seen.
            let names: Vec<&str> = plan
                .names
                .iter()
                .filter(|_| lines.document)
                .map(|&n| &lines.names.entries[n])
                .filter(|(_, line)| shown_part(&lines.outline, &plan.outline, *line) == k)
                .map(|(name, _)| name.as_str())
                .collect();
            out.push_str(&entry_line(&lines.outline.entries[k], &names));
        }
    }
    if !plan.names.is_empty() && !lines.document {
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
    if omitted > 0 && !(lines.document && plan.head + plan.tail == 0) {
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

/// The outline's header: what it holds, and when not all of it is shown, how to list
/// the rest.
fn outline_header(input: &SummaryInput<'_>, lines: &Lines<'_>, plan: &Plan) -> String {
    let outline = &lines.outline;
    let mut what = Vec::new();
    if outline.headings > 0 {
        what.push(count(outline.headings, "heading"));
    }
    if outline.definitions > 0 {
        what.push(if outline.code {
            count(outline.definitions, "definition")
        } else {
            format!(
                "{} in code blocks",
                count(outline.definitions, "definition")
            )
        });
    }
    // Import blocks are not counted: they are shown when a definition is.
    let counted = |k: &usize| {
        !(outline.code && outline.entries[*k].depth == 2 && import(outline.entries[*k].text))
    };
    let all = (0..outline.entries.len()).filter(counted).count();
    let shown = plan.outline.iter().filter(|k| counted(k)).count();
    let mut out = format!("--- outline: {}", what.join(", "));
    if shown < all {
        out += &format!(", {shown} shown");
    }
    if lines.document {
        out += " (first-last line";
        if !plan.names.is_empty() {
            out += &format!(
                " \u{2014} {} of {} names, each in the part where first seen",
                plan.names.len(),
                lines.names.entries.len()
            );
        }
        out.push(')');
    }
    if shown < all {
        let _ = input;
        out += &format!(
            "; list all: context_grep(ref, \"{}\")",
            list_pattern(outline)
        );
    }
    out += " ---\n";
    out
}

/// The shown entry (of `shown`, in order) whose part holds line `line` most closely:
/// the last one starting at or before it and ending at or after it (the first shown
/// entry for a line in none).
pub(super) fn shown_part(outline: &Outline<'_>, shown: &[usize], line: usize) -> usize {
    shown
        .iter()
        .copied()
        .rev()
        .find(|&k| outline.entries[k].line <= line && line <= outline.entries[k].end)
        .or(shown.first().copied())
        .unwrap_or(0)
}

/// The entry whose part holds line `line`: the last one starting at or before it (the
/// first entry for a line before every entry).
pub(super) fn section_of(outline: &Outline<'_>, line: usize) -> usize {
    outline
        .entries
        .partition_point(|e| e.line <= line)
        .saturating_sub(1)
}

/// A grep pattern that lists an outline's entries: its headings, or its definitions by
/// the words they start with.
pub(super) fn list_pattern(outline: &Outline<'_>) -> String {
    if !outline.code {
        return "^[ 0-9]*.?#{1,6} ".to_owned();
    }
    let mut words: Vec<&str> = Vec::new();
    for e in &outline.entries {
        let word = e
            .text
            .trim_start()
            .split([' ', '(', '<'])
            .next()
            .unwrap_or("");
        if !word.is_empty() && !words.contains(&word) && words.len() < 8 {
            words.push(word);
        }
    }
    format!("^[ 0-9]*.? *({}) ", words.join("|"))
}

/// Characters of an entry's own text shown at most: a signature, not a body.
const MAX_ENTRY_CHARS: usize = 120;

/// One outline entry as the summary shows it: the lines it spans (as the file numbers
/// them), then its text (a
/// definition without its opening brace), then, in a document's map, the names first
/// seen in it.
pub(super) fn entry_line(e: &Entry<'_>, names: &[&str]) -> String {
    let span = if e.end > e.line {
        format!("{}-{}", e.numbers.0, e.numbers.1)
    } else {
        e.numbers.0.to_string()
    };
    let text = e.text.strip_suffix('{').unwrap_or(e.text).trim_end();
    let mut out = format!("{span} {}", cut(text, MAX_ENTRY_CHARS));
    for (n, name) in names.iter().enumerate() {
        out.push_str(if n == 0 { " — " } else { ", " });
        out.push_str(name);
    }
    out.push('\n');
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
