//! A Workspace's `<knowledge_list>`, recognised by its ends.

/// How a `<knowledge_list>` begins.
pub const KNOWLEDGE_LIST_OPEN: &str = "<knowledge_list>";
/// How a `<knowledge_list>` ends.
pub const KNOWLEDGE_LIST_CLOSE: &str = "</knowledge_list>";

/// [`is_knowledge_list`](crate::workspace::is_knowledge_list) from a text's start and end (`stored_form` reads no more), whitespace
/// aside at both.
pub(crate) fn is_knowledge_list_ends(head: &str, tail: &str) -> bool {
    crate::text::js_trim(head).starts_with(KNOWLEDGE_LIST_OPEN)
        && crate::text::js_trim(tail).ends_with(KNOWLEDGE_LIST_CLOSE)
}
