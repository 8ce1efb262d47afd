use super::*;
use crate::forms::pointer::cleared_pointer;

fn page(rest: &str) -> String {
    format!("[ctx://c/tool/a.txt: lines 1-2 of 9. More: context_read(\"ctx://c/tool/a.txt\", 2)]\n{rest}")
}

#[test]
fn every_form_a_writer_renders_is_known() {
    let summary = "[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9 bytes";
    let binary = "[Output of shot (call s) stored as ctx://c/tool/s.bin: binary data, 2 bytes; not shown, and not text to read back.]";
    let list =
        "\n <knowledge_list>\n<knowledge id=\"tool_result_c1\">x</knowledge>\n</knowledge_list>\n";
    let cases = [
        (
            "[Content offloaded to: ./tool-result-t1.md]",
            StoredForm::Placeholder,
        ),
        (
            "[Tool result offloaded to file: /o/s/t1.md]",
            StoredForm::Placeholder,
        ),
        (summary, StoredForm::Summary),
        (binary, StoredForm::Summary),
        (list, StoredForm::KnowledgeList),
        (
            &cleared_pointer("bash", "c1", 48_211, "ctx://c/tool/c1.txt"),
            StoredForm::Cleared,
        ),
        (&page("1| a\n2| b"), StoredForm::ReadBackPage),
        (
            "[tool_result_k1: text; metadata {\"chars\":3}]\nabc",
            StoredForm::ReadBackPage,
        ),
    ];
    for (text, form) in cases {
        assert_eq!(stored_form(text), Some(form), "{text}");
    }
}

#[test]
fn ordinary_output_and_look_alikes_are_not() {
    for text in [
        "",
        "error[E0308]: mismatched types",
        "[Content offloaded to: ./tool-result-t1.md]\nmore",
        "<knowledge_list> opened, never closed",
        "[Output of bash (call c1) stored as /tmp/x and not shown in full: …]",
        "[INFO] lines 1-40 compiled",
        "[Earlier output of x] not ours",
    ] {
        assert_eq!(stored_form(text), None, "{text}");
    }
}

#[test]
fn a_long_text_is_known_by_its_start_and_end() {
    let body = "x\n".repeat(HEAD_CHARS);
    assert_eq!(stored_form(&page(&body)), Some(StoredForm::ReadBackPage));
    let list = format!("<knowledge_list>\n{body}</knowledge_list>");
    assert_eq!(stored_form(&list), Some(StoredForm::KnowledgeList));
    // A close tag further from the end than the tail reads is not seen.
    let far = format!(
        "<knowledge_list>\n{body}</knowledge_list>{}",
        " ".repeat(TAIL_CHARS)
    );
    assert_eq!(stored_form(&far), None);
    let near = format!(
        "<knowledge_list>\n{body}</knowledge_list>{}",
        " ".repeat(TAIL_CHARS - 17)
    );
    assert_eq!(stored_form(&near), Some(StoredForm::KnowledgeList));
    // A header whose line runs past the head is no header.
    let long_first = page("").replace("]\n", &format!("]{}\n", "y".repeat(HEAD_CHARS)));
    assert_eq!(stored_form(&long_first), None);
    // A placeholder or pointer is a whole short text, never the start of a long one.
    let placeholder = "[Content offloaded to: ./tool-result-t1.md]";
    assert_eq!(
        stored_form(&format!("{placeholder}{}", "z".repeat(HEAD_CHARS))),
        None
    );
}

#[test]
fn head_and_tail_count_utf16_units_and_never_cut_a_character() {
    let text = format!("{}😀ab", "a".repeat(HEAD_CHARS - 1));
    let (head, whole) = head_of(&text);
    assert_eq!((head.len(), whole), (HEAD_CHARS - 1, false));
    let exact = "é".repeat(HEAD_CHARS);
    assert_eq!(head_of(&exact), (exact.as_str(), true));
    let over = format!("{exact}e");
    assert_eq!(head_of(&over), (exact.as_str(), false));
    let tail_text = format!("ab😀{}", "a".repeat(TAIL_CHARS - 1));
    assert_eq!(tail_of(&tail_text), "a".repeat(TAIL_CHARS - 1));
    let short = "a".repeat(TAIL_CHARS);
    assert_eq!(tail_of(&short), short);
    assert_eq!(tail_of(&format!("b{short}")), short);
}
