//! A read-back page's header line, recognised: what `read`, `tail` and `grep` pages begin
//! with (`[ctx://…: lines 1-40 of 90]`), so a page is never stored again.

/// Whether `text` is a page our read-back tools returned (`context_read`, `context_tail`,
/// `context_grep`, `get_knowledge_by_lines`, `grep_knowledge`, `get_knowledge_by_id`):
/// its first line is a header `[<name>: lines 1-40 of 600. More: …]`, `[<name>: 7
/// matching rows in 600 lines, …]`, `[<name>: empty.]`, `[<name>: text; metadata {…}]`
/// and so on. Such a page is already bounded and already stored: every pass that
/// stores outputs leaves it alone, so a page read back is never stored again.
///
/// ```
/// use tool_offload_core::materialize::is_read_back_page;
/// assert!(is_read_back_page("[ctx://c/tool/a.txt: lines 1-40 of 600. More: context_read(\"ctx://c/tool/a.txt\", 40)]\n1| x"));
/// assert!(is_read_back_page("[tool_result_k1: 3 matching rows in 300 lines, with 2 rows of context; all shown.]\n4| y"));
/// assert!(is_read_back_page("[tool_result_k1: text; metadata {\"chars\":3}]\nabc"));
/// assert!(!is_read_back_page("[INFO] lines 1-40 compiled"));
/// assert!(!is_read_back_page("plain output"));
/// ```
pub fn is_read_back_page(text: &str) -> bool {
    let first = text.split('\n').next().unwrap_or_default();
    let Some(inner) = first.strip_prefix('[').and_then(|f| f.strip_suffix(']')) else {
        return false;
    };
    let Some((name, rest)) = crate::search::split_once(inner, ": ") else {
        return false;
    };
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    fn after_count(s: &str) -> &str {
        &s[s.bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b',')
            .count()..]
    }
    !name.is_empty()
        && !name.contains(' ')
        && (rest.strip_prefix("lines ").is_some_and(|r| digits(r) > 0)
            || (digits(rest) > 0 && after_count(rest).starts_with(" matching row"))
            || rest == "empty."
            || rest == "nothing to show."
            || rest.strip_prefix("offset ").is_some_and(|r| digits(r) > 0)
            || rest.strip_prefix("char ").is_some_and(|r| digits(r) > 0)
            || ["text; metadata {", "json; metadata {"]
                .iter()
                .any(|k| rest.starts_with(k)))
}
