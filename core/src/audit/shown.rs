//! Which tool results a conversation shows only in part: those our writers replaced, for
//! that very call, by a form that names where the whole output is — a summary, the
//! budget's pointer, an offload placeholder. Each form is recognised by the code beside
//! its renderer, never by a substring: a read tool's error message, or a file that merely
//! mentions a `ctx://` ref, is an output shown whole.

use crate::forms::summary_header::summary_parts;

use crate::forms::pointer::cleared_parts;
use crate::forms::stored_form::{stored_form, StoredForm};

/// A result shown in part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shown<'a> {
    /// What a later call names to read it: the ref, or the placeholder's file name.
    pub reference: &'a str,
    /// The tool the form names (a placeholder names none).
    pub tool: Option<&'a str>,
    /// The whole output's length in UTF-16 units, when the form says it.
    pub chars: Option<usize>,
}

/// `text` as a form our writers rendered for the tool call `call_id` (any call when the
/// result carries no id), or `None`: a page the read tools returned, a binary summary
/// (nothing to read back), a summary or pointer naming another call, anything else.
pub(super) fn shown_in_part<'a>(text: &'a str, call_id: &str) -> Option<Shown<'a>> {
    let this_call = |named: Option<&str>| call_id.is_empty() || named == Some(call_id);
    match stored_form(text)? {
        StoredForm::Placeholder => {
            // `[… ./tool-result-<id>.md]` or `[… /dir/<session>/<id>.md]`: the file's name.
            let path = &text[..text.len() - 1];
            let start = path.bytes().rposition(|b| b == b'/' || b == b' ');
            Some(Shown {
                reference: &path[start.map_or(0, |i| i + 1)..],
                tool: None,
                chars: None,
            })
        }
        StoredForm::Summary => {
            let parts = summary_parts(text).filter(|p| this_call(p.call_id))?;
            Some(Shown {
                reference: parts.reference,
                tool: Some(parts.tool),
                chars: parts.chars,
            })
        }
        StoredForm::Cleared => {
            let (tool, call, chars, reference) = cleared_parts(text)?;
            this_call(Some(call)).then_some(Shown {
                reference,
                tool: Some(tool),
                chars: Some(chars),
            })
        }
        StoredForm::KnowledgeList | StoredForm::ReadBackPage => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "[Output of bash (call t1) stored as ctx://c1/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9,100 bytes, 9,000 characters, 300 lines. JSON: no.";

    #[test]
    fn only_our_forms_for_this_call_are_shown_in_part() {
        let shown = shown_in_part(SUMMARY, "t1").unwrap();
        assert_eq!(
            (shown.reference, shown.tool, shown.chars),
            ("ctx://c1/tool/t1.txt", Some("bash"), Some(9_000))
        );
        assert_eq!(
            shown_in_part(SUMMARY, ""),
            Some(shown),
            "a result with no id"
        );
        assert_eq!(shown_in_part(SUMMARY, "t2"), None, "another call's summary");
        // The read tools' own messages, and files mentioning a ref, are shown whole.
        for text in [
            "not a ctx:// ref: \"x.txt\"",
            "no artifact for ref ctx://c1/tool/t9.txt",
            "# Notes\nsee ctx://c1/tool/t1.txt for the log",
            "[ctx://c1/tool/t1.txt: lines 1-2 of 9. More: context_read(\"ctx://c1/tool/t1.txt\", 2)]\n1| a\n2| b",
            "[Output of shot (call t1) stored as ctx://c/tool/t1.bin: binary data, 2 bytes; not shown, and not text to read back.]",
        ] {
            assert_eq!(shown_in_part(text, "t1"), None, "{text}");
        }
        let cleared = "[Earlier output of bash (call t1, 48,211 chars) cleared from the conversation; stored as ctx://c1/tool/t1.txt: context_read, context_grep]";
        assert_eq!(
            shown_in_part(cleared, "t1").map(|s| (s.reference, s.chars)),
            Some(("ctx://c1/tool/t1.txt", Some(48_211)))
        );
        assert_eq!(shown_in_part(cleared, "t2"), None);
        assert_eq!(
            shown_in_part("[Content offloaded to: ./tool-result-c1.md]", "c1").map(|s| s.reference),
            Some("tool-result-c1.md")
        );
    }
}
