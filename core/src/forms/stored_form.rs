//! The one rule every writer applies before storing a tool result: a text that already
//! stands for stored content — a reference one of the writers rendered, or a page the
//! read tools returned — is never stored again, by any of them. Storing it would copy a
//! pointer into a file and put a pointer to that file where the model had the
//! original's pointer and preview (or, for direct offload's placeholders, overwrite the
//! original).
//!
//! Only a text's start and end are read ([`HEAD_CHARS`], [`TAIL_CHARS`]), so a host holding
//! megabytes of output elsewhere (a JS string) copies a few kilobytes to decide.

use crate::forms::knowledge_list::is_knowledge_list_ends;
use crate::forms::page::is_read_back_page;
use crate::forms::placeholder::is_placeholder;
use crate::forms::pointer::is_cleared;
use crate::forms::summary_header::{is_binary_summary, summary_ref};

/// What a tool result's text already is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredForm {
    /// Direct or batch offload's placeholder (`[Tool result offloaded to file: …]`,
    /// `[Content offloaded to: ./…]`).
    Placeholder,
    /// A Materializer summary (its first line names its `ctx://` ref), binary ones too.
    Summary,
    /// A Workspace `<knowledge_list>`.
    KnowledgeList,
    /// The budget's one-line pointer to a cleared result.
    Cleared,
    /// A page `context_read`, `context_tail`, `context_grep` or a knowledge tool returned.
    ReadBackPage,
}

/// UTF-16 units of a text's start that decide its form: every form is known by its first
/// line (a placeholder, a pointer: the whole text), each far shorter than this.
pub const HEAD_CHARS: usize = 8192;
/// UTF-16 units of a text's end read: where a `<knowledge_list>` closes.
pub const TAIL_CHARS: usize = 64;

/// What `text` already is, if it stands for stored content.
///
/// ```
/// use tool_offload_core::{stored_form, StoredForm};
/// assert_eq!(stored_form("[Content offloaded to: ./tool-result-t1.md]"), Some(StoredForm::Placeholder));
/// assert_eq!(stored_form("<knowledge_list>\n<knowledge id=\"k\">…</knowledge>\n</knowledge_list>"), Some(StoredForm::KnowledgeList));
/// assert_eq!(stored_form("[ctx://c/tool/a.txt: lines 1-2 of 9. More: context_read(\"ctx://c/tool/a.txt\", 2)]\n1| a\n2| b"), Some(StoredForm::ReadBackPage));
/// assert_eq!(stored_form("error: build failed"), None);
/// ```
pub fn stored_form(text: &str) -> Option<StoredForm> {
    let (head, whole) = head_of(text);
    let tail = if whole { text } else { tail_of(text) };
    stored_form_of_ends(head, tail, whole)
}

/// [`stored_form`] from a text's first [`HEAD_CHARS`] UTF-16 units (`head`; the whole
/// text when `whole`) and its last [`TAIL_CHARS`] (`tail`), for hosts whose text lives
/// elsewhere. A character cut in two at either end may come as U+FFFD: no form depends on it.
///
/// ```
/// use tool_offload_core::{stored_form_of_ends, StoredForm, HEAD_CHARS};
/// let list = format!("<knowledge_list>\n{}\n</knowledge_list>", "x".repeat(HEAD_CHARS));
/// let (head, tail) = (&list[..HEAD_CHARS], &list[list.len() - 64..]);
/// assert_eq!(stored_form_of_ends(head, tail, false), Some(StoredForm::KnowledgeList));
/// // A first line that does not end within the head is no header.
/// assert_eq!(stored_form_of_ends("[a.txt: lines 1-2 of 9.]", "", false), None);
/// assert_eq!(stored_form_of_ends("[a.txt: lines 1-2 of 9.]\n1| x", "1| x", true), Some(StoredForm::ReadBackPage));
/// ```
pub fn stored_form_of_ends(head: &str, tail: &str, whole: bool) -> Option<StoredForm> {
    if whole && is_placeholder(head) {
        return Some(StoredForm::Placeholder);
    }
    if whole && is_cleared(head) {
        return Some(StoredForm::Cleared);
    }
    if is_knowledge_list_ends(head, tail) {
        return Some(StoredForm::KnowledgeList);
    }
    // A first line longer than the head is no header of ours.
    if !whole && !head.contains('\n') {
        return None;
    }
    if summary_ref(head).is_some() || (whole && is_binary_summary(head)) {
        return Some(StoredForm::Summary);
    }
    is_read_back_page(head).then_some(StoredForm::ReadBackPage)
}

/// The first [`HEAD_CHARS`] UTF-16 units of `text` (a character that would be cut in
/// two left out), and whether that is all of it.
fn head_of(text: &str) -> (&str, bool) {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > HEAD_CHARS {
            return (&text[..at], false);
        }
    }
    (text, true)
}

/// The last [`TAIL_CHARS`] UTF-16 units of `text` (a character cut in two left out).
fn tail_of(text: &str) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices().rev() {
        units += c.len_utf16();
        if units > TAIL_CHARS {
            return &text[at + c.len_utf8()..];
        }
    }
    text
}

#[cfg(test)]
#[path = "stored_form_tests.rs"]
mod tests;
