//! The budget's one-line pointer to a cleared result: how it is written and how it is
//! known again.

use super::text::thousands;

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

/// Whether `text` is a pointer [`cleared_pointer`] wrote.
pub fn is_cleared(text: &str) -> bool {
    text.starts_with(CLEARED_PREFIX)
        && crate::search::contains(text, CLEARED_MIDDLE)
        && text.ends_with(": context_read, context_grep]")
        && !text.bytes().any(|b| b == b'\n')
}
