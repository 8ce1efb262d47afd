//! A summary composed: the pointer line, the size line and the body the layout chose; the grep it suggests.

use super::input::SummaryInput;
use super::lines::Lines;
use crate::forms::reference::ArtifactKind;
use crate::forms::summary_header::POINTER_PREFIX;
use crate::text::measure::cut;
use crate::text::utf16_len;

/// The grep pattern a summary suggests when it found no failure line: the trigger
/// words, ignoring case.
pub const DEFAULT_GREP_PATTERN: &str = "error|exception|fail|panic|fatal";

/// The summary of a materialized output: its first line is the pointer (outside the
/// data, so it is never mistaken for tool output); then the sizes; then the failure
/// lines found ([`detect`](super::detect)) with their context, the likely root cause named, and the
/// line numbers of those that did not fit; then head and tail with the count of lines
/// between; last, how to read more, with a grep pattern that finds every failure line
/// found. Lines are shown as a terminal shows them (no ANSI escapes). Everything stays
/// under `max_chars`: failure excerpts come before head and tail lines.
///
/// ```
/// use tool_offload_core::materialize::{summary, ArtifactKind, Measure, SummaryInput, ToolOutputRef};
/// let mut lines: Vec<String> = (1..=500).map(|i| format!("   Compiling crate_{i} v0.1.0")).collect();
/// lines[250] = "error[E0308]: mismatched types".into();
/// let text = lines.join("\n");
/// let output = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: &text, was_value: false };
/// let s = summary(&SummaryInput {
///     reference: "ctx://c1/tool/call_1.txt", output, kind: ArtifactKind::Tool, measure: Measure::of(&text), is_json: false,
///     snippet_lines: 40, snippet_bytes: None, max_chars: 4000, repeated_end: None,
/// });
/// assert!(s.starts_with("[Output of bash (call call_1) stored as ctx://c1/tool/call_1.txt"));
/// assert!(s.contains("--- errors: 1 line found; likely root cause at line 251 ---\n251| error[E0308]: mismatched types\n"));
/// assert!(s.ends_with("context_grep(\"ctx://c1/tool/call_1.txt\", \"error\", ignore_case: true)."));
/// assert!(s.len() < 4000);
/// ```
pub fn summary(input: &SummaryInput<'_>) -> String {
    // Only the lines a summary can show are read out of a text of any size: the first
    // and last `snippet_lines`, and the failure lines with their neighbours.
    let lines = Lines::of(
        input.output.text,
        input.measure.lines,
        input.snippet_lines,
        (input.is_json, input.repeated_end),
    );
    summary_of(input, &lines)
}

/// [`summary`] from the lines it may show.
pub(super) fn summary_of(input: &SummaryInput<'_>, lines: &Lines<'_>) -> String {
    let pattern = grep_pattern(input.output.text, lines);
    let r = input.reference;
    // JSON is read by path (its tail is the end of one long line); the rest by its end.
    let first = match (&lines.format.read_path, section(lines)) {
        (Some(path), _) => format!(
            "context_read(\"{r}\", path={})",
            crate::json::stringify(&serde_json::Value::from(path.as_str()))
        ),
        // A document is read by part: the first section of its map.
        (None, Some((e, to))) => format!(
            "context_read(\"{r}\", offset={}, limit={}) reads lines {}-{}",
            e.line,
            to - e.line + 1,
            e.numbers.0,
            e.numbers.0 + (to - e.line)
        ),
        (None, None) => format!("context_tail(\"{r}\", 200)"),
    };
    let framed = |body: &str| {
        format!(
            "{}\n{body}If you need more: {first} or context_grep(\"{r}\", \"{pattern}\", ignore_case: true).",
            pointer_line(input, &origin(input)),
        )
    };
    match super::layout::fit(input, lines, &framed) {
        Ok(text) => text,
        Err(text) => {
            // Even the bare frame is too long (a tiny limit). The pointer line stays,
            // whole: without it the model could not find the artifact. When it is too
            // long itself (long tool or server names), it names only the kind of
            // output instead of its origin.
            let full = text.lines().next().unwrap_or_default();
            let pointer = if utf16_len(full) < input.max_chars {
                full.to_owned()
            } else {
                pointer_line(input, input.kind.dir())
            };
            let rest = input.max_chars.saturating_sub(utf16_len(&pointer) + 1);
            let tail = cut(&text[full.len()..], rest.saturating_sub(40));
            if rest > 40 {
                format!("{pointer}{tail}")
            } else {
                pointer
            }
        }
    }
}

/// The grep pattern a summary suggests: for a document, a name it defines (a document
/// has no failure to find); else the failure lines found, by their markers (ignoring
/// case), or [`DEFAULT_GREP_PATTERN`].
pub(super) fn grep_pattern(text: &str, lines: &Lines<'_>) -> String {
    if lines.document {
        let outline = &lines.outline;
        let defined = outline
            .entries
            .iter()
            .filter(|e| {
                e.depth
                    == if outline.code {
                        1
                    } else {
                        super::outline::IN_CODE_BLOCK
                    }
            })
            .find_map(|e| super::definitions::defined_name(e.text));
        let name = defined.or_else(|| lines.names.entries.first().map(|(n, _)| n.as_str()));
        // Without a name, the pattern that lists its parts.
        return name.map_or_else(|| super::body::list_pattern(outline), regex_escaped);
    }
    super::detect::grep_pattern(text, &lines.found)
        .unwrap_or_else(|| DEFAULT_GREP_PATTERN.to_owned())
}

/// `name` as a pattern that matches it literally.
fn regex_escaped(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A document's first part to read (its entry, and its last line, 0-based, at most 200
/// lines on): a source file's first top-level definition, a document's first
/// second-level part.
fn section<'l>(lines: &'l Lines<'_>) -> Option<(&'l super::outline::Entry<'l>, usize)> {
    if !lines.document {
        return None;
    }
    let outline = &lines.outline;
    let wanted = |e: &&super::outline::Entry<'_>| {
        e.depth == if outline.code { 1 } else { 2 } && e.end > e.line
    };
    let e = outline
        .entries
        .iter()
        .find(wanted)
        .or_else(|| outline.entries.iter().find(|e| e.end > e.line))
        .or(outline.entries.first())?;
    Some((e, e.end.min(e.line + 199)))
}

/// The summary's body (sizes, failure excerpts, head and tail: every line ends with a
/// newline) put in a `frame` of the caller's, which gets the body and the grep pattern
/// (to be used ignoring case): the workspace's `<knowledge_list>` frames it as XML,
/// where the Materializer's pointer and "if you need more" lines would not belong.
/// Snippets shrink until the framed whole stays under `input.max_chars`; when even the
/// frame around an empty body does not, that is what comes back.
pub(crate) fn framed_summary(
    input: &SummaryInput<'_>,
    frame: &dyn Fn(&str, &str) -> String,
) -> String {
    let lines = Lines::of(
        input.output.text,
        input.measure.lines,
        input.snippet_lines,
        (input.is_json, input.repeated_end),
    );
    let pattern = grep_pattern(input.output.text, &lines);
    super::layout::fit(input, &lines, &|body| frame(body, &pattern)).unwrap_or_else(|bare| bare)
}

/// What produced the output, as the pointer line names it.
fn origin(input: &SummaryInput<'_>) -> String {
    let output = &input.output;
    origin_of(
        input.kind,
        output.tool_call_id,
        output.tool_name,
        output.server_name,
    )
}

/// `bash (call c1)`, `github/search (call c1)`, `terminal (snippet s1)`.
pub(super) fn origin_of(
    kind: ArtifactKind,
    id: &str,
    tool_name: &str,
    server_name: Option<&str>,
) -> String {
    match (kind, server_name) {
        (ArtifactKind::Terminal, _) => format!("terminal (snippet {id})"),
        (_, Some(server)) => format!("{server}/{tool_name} (call {id})"),
        (_, None) => format!("{tool_name} (call {id})"),
    }
}

/// The summary's first line, naming the output's `origin` and its ref.
pub(super) fn pointer_line(input: &SummaryInput<'_>, origin: &str) -> String {
    format!(
        "{POINTER_PREFIX}{origin} stored as {} and not shown in full: read it with context_read, context_tail or context_grep.]",
        input.reference
    )
}
