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

/// What batch offload leaves in place of a tool result's content: the file name,
/// relative to the output directory.
///
/// ```
/// use tool_offload_core::batch_placeholder;
/// assert_eq!(batch_placeholder("tool-result-toolu_1.md"), "[Content offloaded to: ./tool-result-toolu_1.md]");
/// ```
pub fn batch_placeholder(file_name: &str) -> String {
    format!("[Content offloaded to: ./{file_name}]")
}
