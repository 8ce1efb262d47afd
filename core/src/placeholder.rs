//! The exact strings left in the conversation where content was. These are contracts:
//! tests pin them character for character.

/// What direct offload leaves in place of a tool result's content.
///
/// ```
/// use tool_offload_core::direct_placeholder;
/// assert_eq!(
///     direct_placeholder("/srv/out/s1/toolu_1.md"),
///     "[Tool result offloaded to file: /srv/out/s1/toolu_1.md]"
/// );
/// ```
pub fn direct_placeholder(absolute_path: &str) -> String {
    format!("[Tool result offloaded to file: {absolute_path}]")
}
