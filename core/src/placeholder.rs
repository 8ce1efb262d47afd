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
    ["[Tool result offloaded to file: ", absolute_path, "]"].concat()
}

/// What batch offload leaves in place of a tool result's content: the file name,
/// relative to the output directory.
///
/// ```
/// use tool_offload_core::batch_placeholder;
/// assert_eq!(batch_placeholder("tool-result-toolu_1.md"), "[Content offloaded to: ./tool-result-toolu_1.md]");
/// ```
pub fn batch_placeholder(file_name: &str) -> String {
    ["[Content offloaded to: ./", file_name, "]"].concat()
}

/// Whether `content` is one of our own placeholders (direct or batch): already
/// offloaded, so it must never be written again — that would overwrite the original
/// file with the placeholder. No `JSON.stringify` output can look like one, since JSON
/// arrays never start with `[C` or `[T`.
///
/// ```
/// use tool_offload_core::is_placeholder;
/// assert!(is_placeholder("[Content offloaded to: ./tool-result-toolu_1.md]"));
/// assert!(is_placeholder("[Tool result offloaded to file: /srv/out/s1/toolu_1.md]"));
/// assert!(!is_placeholder("[Tool result offloaded to file: /x.md] and more\nlines"));
/// ```
pub fn is_placeholder(content: &str) -> bool {
    // Prefix and suffix first: O(1) for ordinary content, which may be megabytes.
    let direct = content.starts_with("[Tool result offloaded to file: /");
    let batch = content.starts_with("[Content offloaded to: ./");
    (direct || batch) && content.ends_with(".md]") && !content.contains(['\n', '\r'])
}

/// The longest placeholder worth checking for, in UTF-16 units: a prefix plus a path of
/// at most 4096 bytes. Longer content is never a placeholder.
pub const MAX_PLACEHOLDER_CHARS: usize = 4200;
