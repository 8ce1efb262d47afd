//! The budget's one-line pointer to a cleared result: how it is written and how it is
//! known again.

use crate::text::thousands;

/// How a cleared result starts.
pub const CLEARED_PREFIX: &str = "[Earlier output of ";
/// What follows its origin.
const CLEARED_MIDDLE: &str = " cleared from the conversation; stored as ";

/// The pointer that replaces a cleared result.
///
/// ```
/// use tool_offload_core::materialize::cleared_pointer;
/// assert_eq!(
///     cleared_pointer("bash", "toolu_01", 48_211, "ctx://c1/tool/toolu_01.txt"),
///     "[Earlier output of bash (call toolu_01, 48,211 chars) cleared from the conversation; stored as ctx://c1/tool/toolu_01.txt: context_read, context_grep]"
/// );
/// ```
pub fn cleared_pointer(tool: &str, call_id: &str, chars: usize, reference: &str) -> String {
    format!(
        "{CLEARED_PREFIX}{tool} (call {call_id}, {} chars){CLEARED_MIDDLE}{reference}: context_read, context_grep]",
        thousands(chars)
    )
}

/// What a pointer [`cleared_pointer`] wrote names: the tool, the call, the output's length
/// and the ref.
///
/// ```
/// use tool_offload_core::materialize::{cleared_parts, cleared_pointer};
/// let p = cleared_pointer("bash", "toolu_01", 48_211, "ctx://c1/tool/toolu_01.txt");
/// assert_eq!(cleared_parts(&p), Some(("bash", "toolu_01", 48_211, "ctx://c1/tool/toolu_01.txt")));
/// assert_eq!(cleared_parts("[Earlier output of bash]"), None);
/// ```
pub fn cleared_parts(text: &str) -> Option<(&str, &str, usize, &str)> {
    if !is_cleared(text) {
        return None;
    }
    let (origin, rest) = crate::search::split_once(&text[CLEARED_PREFIX.len()..], CLEARED_MIDDLE)?;
    let reference = rest.strip_suffix(": context_read, context_grep]")?;
    let (tool, call) = crate::search::split_once(origin.strip_suffix(" chars)")?, " (call ")?;
    // The count holds no ", ": the last one ends the id.
    let at = call.as_bytes().windows(2).rposition(|w| w == b", ")?;
    let chars = crate::text::measure::parse_thousands(&call[at + 2..])?;
    Some((tool, &call[..at], chars, reference))
}

/// What follows a cleared page's origin.
const PAGE_MIDDLE: &str = " cleared from the conversation; the same call reads it again: ";

/// The pointer that replaces a cleared page the read tools returned: the exact call that
/// brings it back, byte for byte (an artifact never changes), `input` as the call gave
/// it (JSON text).
///
/// ```
/// use tool_offload_core::materialize::{cleared_page_pointer, is_cleared};
/// let p = cleared_page_pointer("context_read", "r1", 9_000, r#"{"ref":"ctx://c1/tool/t1.txt","offset":400}"#);
/// assert_eq!(
///     p,
///     r#"[Earlier output of context_read (call r1, 9,000 chars) cleared from the conversation; the same call reads it again: context_read {"ref":"ctx://c1/tool/t1.txt","offset":400}]"#
/// );
/// assert!(is_cleared(&p));
/// ```
pub fn cleared_page_pointer(tool: &str, call_id: &str, chars: usize, input: &str) -> String {
    format!(
        "{CLEARED_PREFIX}{tool} (call {call_id}, {} chars){PAGE_MIDDLE}{tool} {input}]",
        thousands(chars)
    )
}

/// Whether `text` is a pointer [`cleared_pointer`] or [`cleared_page_pointer`] wrote.
pub fn is_cleared(text: &str) -> bool {
    text.starts_with(CLEARED_PREFIX)
        && !text.bytes().any(|b| b == b'\n')
        && ((crate::search::contains(text, CLEARED_MIDDLE)
            && text.ends_with(": context_read, context_grep]"))
            || (crate::search::contains(text, PAGE_MIDDLE) && text.ends_with(']')))
}
