//! The exact strings left in the conversation where content was. These are contracts:
//! tests pin them character for character.

/// What precedes the file in direct offload's placeholder, inside its brackets.
pub(crate) const DIRECT_LABEL: &str = "Tool result offloaded to file: ";
/// What precedes the file in batch offload's placeholder, inside its brackets.
pub(crate) const BATCH_LABEL: &str = "Content offloaded to: ";

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
    ["[", DIRECT_LABEL, absolute_path, "]"].concat()
}

/// What batch offload leaves in place of a tool result's content: the file name,
/// relative to the output directory.
///
/// ```
/// use tool_offload_core::batch_placeholder;
/// assert_eq!(batch_placeholder("tool-result-toolu_1.md"), "[Content offloaded to: ./tool-result-toolu_1.md]");
/// ```
pub fn batch_placeholder(file_name: &str) -> String {
    ["[", BATCH_LABEL, "./", file_name, "]"].concat()
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
    let after = |label: &str, path: &str| {
        content
            .strip_prefix('[')
            .and_then(|c| c.strip_prefix(label))
            .is_some_and(|c| c.starts_with(path))
    };
    let direct = after(DIRECT_LABEL, "/");
    let batch = after(BATCH_LABEL, "./");
    (direct || batch) && content.ends_with(".md]") && !content.contains(['\n', '\r'])
}

/// The longest placeholder worth checking for, in UTF-16 units: a prefix plus a path of
/// at most 4096 bytes. Longer content is never a placeholder.
pub const MAX_PLACEHOLDER_CHARS: usize = 4200;
