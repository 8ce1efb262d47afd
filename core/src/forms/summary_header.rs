//! A summary's header, as the summary engine writes it and every reader recognises it:
//! the pointer line naming the ref, the size line, and a binary output's one line.

/// How a summary's first line (the pointer) begins.
pub const POINTER_PREFIX: &str = "[Output of ";

/// How a binary summary ends.
pub(crate) const BINARY_END: &str = "; not shown, and not text to read back.]";

/// The ref named by a summary's pointer line, if `text` is a summary: lets
/// `materialize_messages` leave already-materialized content alone.
///
/// ```
/// use tool_offload_core::materialize::summary_ref;
/// let s = "[Output of bash (call c1) stored as ctx://conv/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: …";
/// assert_eq!(summary_ref(s), Some("ctx://conv/tool/c1.txt"));
/// assert_eq!(summary_ref("[Output of lunch]"), None);
/// ```
pub fn summary_ref(text: &str) -> Option<&str> {
    summary_parts(text).map(|parts| parts.reference)
}

/// What a summary's pointer line and size line say, read by the code beside the one that
/// writes them ([`summary`](crate::summary::summary)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SummaryParts<'a> {
    /// The ref it names.
    pub reference: &'a str,
    /// The tool call it stands for (`None` for a terminal snippet's summary).
    pub call_id: Option<&'a str>,
    /// The tool's name as the pointer line gives it (`server/tool` for an MCP tool).
    pub tool: &'a str,
    /// The full output's length in UTF-16 units, from the size line.
    pub chars: Option<usize>,
}

/// The parts of `text` if it is a summary: its pointer line's call, tool and ref, and
/// the output's length its size line gives.
///
/// ```
/// use tool_offload_core::materialize::summary_parts;
/// let s = "[Output of bash (call c1) stored as ctx://conv/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9,100 bytes, 9,000 characters, 300 lines. JSON: no.";
/// let parts = summary_parts(s).unwrap();
/// assert_eq!((parts.call_id, parts.tool, parts.chars), (Some("c1"), "bash", Some(9_000)));
/// assert_eq!(summary_parts("[Output of lunch]"), None);
/// ```
pub fn summary_parts(text: &str) -> Option<SummaryParts<'_>> {
    let mut lines = text.strip_prefix(POINTER_PREFIX)?.lines();
    let first = lines.next()?;
    let (origin, rest) = crate::search::split_once(first, " stored as ")?;
    let (reference, _) = crate::search::split_once(rest, " and not shown in full: ")?;
    if !reference.starts_with("ctx://") {
        return None;
    }
    let (tool, call_id) = match origin
        .strip_suffix(')')
        .and_then(|o| crate::search::split_once(o, " (call "))
    {
        Some((tool, id)) => (tool, Some(id)),
        None => (origin, None),
    };
    let chars = lines
        .next()
        .and_then(|l| l.strip_prefix("Size: "))
        .and_then(|l| crate::search::split_once(l, ", "))
        .and_then(|(_, rest)| crate::search::split_once(rest, " character"))
        .and_then(|(count, _)| crate::text::measure::parse_thousands(count));
    Some(SummaryParts {
        reference,
        call_id,
        tool,
        chars,
    })
}

/// Whether `text` is a summary [`binary_summary`](crate::summary::binary_summary) wrote: one line naming a `ctx://` ref.
pub(crate) fn is_binary_summary(text: &str) -> bool {
    text.starts_with(POINTER_PREFIX)
        && text.ends_with(BINARY_END)
        && crate::search::contains(text, " stored as ctx://")
        && crate::search::contains(text, ": binary data, ")
        && !text.bytes().any(|b| b == b'\n')
}
