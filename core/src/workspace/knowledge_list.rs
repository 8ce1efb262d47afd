//! The `<knowledge_list>` reference that replaces an oversized tool result: well-formed
//! XML naming the artifact, its metadata and a summary, and how to read more.

use super::record::KnowledgeRecord;
use crate::forms::knowledge_list::{
    is_knowledge_list_ends, KNOWLEDGE_LIST_CLOSE, KNOWLEDGE_LIST_OPEN,
};
use crate::forms::reference::ArtifactKind;
use crate::summary::SummaryInput;
use crate::summary::ToolOutputRef;
use crate::text::measure::{cut, Measure};
use crate::text::utf16_len;
use serde_json::Value;

/// Longest attribute value shown; longer metadata values are cut (the record keeps them).
const MAX_ATTRIBUTE_CHARS: usize = 200;
/// Summary lines of head and of tail, at most.
const SNIPPET_LINES: usize = 20;

/// Whether `text` already is a `<knowledge_list>` reference (offloading it again is a
/// no-op).
///
/// ```
/// use tool_offload_core::workspace::is_knowledge_list;
/// assert!(is_knowledge_list("<knowledge_list>\n<knowledge id=\"a\">x</knowledge>\n</knowledge_list>"));
/// assert!(!is_knowledge_list("see <knowledge_list> below"));
/// ```
pub fn is_knowledge_list(text: &str) -> bool {
    is_knowledge_list_ends(text, text)
}

/// The `<knowledge_list>` for `record`, whose content is `text`: one `<knowledge>`
/// entry with the id and the metadata as attributes around the Materializer's summary
/// body, then one line naming the tools to read more; strictly under `max_chars` UTF-16
/// units (snippets shrink, then the metadata attributes go, to make it fit).
pub(crate) fn knowledge_list(
    record: &KnowledgeRecord,
    text: &str,
    measure: Measure,
    max_chars: usize,
) -> String {
    let id = escaped(&record.id, true);
    let frame = |attributes: &str, body: &str, pattern: &str| {
        let mut out = format!("{KNOWLEDGE_LIST_OPEN}\n<knowledge id=\"{id}\"{attributes}>\n");
        out += &escaped(body, false);
        out += "</knowledge>\n";
        out += &format!(
            "Read more with get_knowledge_by_lines(\"{id}\", 1, 200), grep_knowledge(\"{id}\", \"{}\", ignore_case: true) or get_knowledge_by_id(\"{id}\").\n",
            escaped(pattern, false)
        );
        out += KNOWLEDGE_LIST_CLOSE;
        out
    };
    let input = SummaryInput {
        repeated_end: None,
        reference: &record.id,
        output: ToolOutputRef {
            tool_call_id: &record.id,
            tool_name: record.str_field("tool_name").unwrap_or_default(),
            server_name: None,
            text,
            was_value: false,
        },
        kind: ArtifactKind::Knowledge,
        measure,
        is_json: record.kind == super::record::KnowledgeType::Json,
        snippet_lines: SNIPPET_LINES,
        snippet_bytes: None,
        max_chars,
    };
    let attributes = attributes(record);
    let full =
        crate::summary::framed_summary(&input, &|body, pattern| frame(&attributes, body, pattern));
    if utf16_len(&full) < max_chars {
        return full;
    }
    // Metadata too large to show beside the summary (the record keeps all of it).
    crate::summary::framed_summary(&input, &|body, pattern| frame("", body, pattern))
}

/// ` key="value"` for each metadata entry whose key is an XML name (others, and a key
/// `id`, are only in the record); values are strings as they are, anything else as
/// JSON, each cut to [`MAX_ATTRIBUTE_CHARS`].
fn attributes(record: &KnowledgeRecord) -> String {
    let mut out = String::new();
    for (key, value) in &record.metadata {
        if key == "id" || !is_xml_name(key) {
            continue;
        }
        let value = match value {
            Value::String(s) => cut(s, MAX_ATTRIBUTE_CHARS),
            other => cut(&crate::json::stringify(other), MAX_ATTRIBUTE_CHARS),
        };
        out += &format!(" {key}=\"{}\"", escaped(&value, true));
    }
    out
}

/// Whether `name` is an XML name of the ASCII kind: a letter or `_`, then letters,
/// digits, `_`, `-` and `.` (no `:`: namespaces are not ours to declare).
fn is_xml_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && !name.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("xml"))
}

/// Whether XML 1.0 cannot hold `c` at all, not even as a character reference: control
/// characters other than tab, newline and carriage return, U+FFFE and U+FFFF.
pub(crate) fn unrepresentable(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` escaped for XML: `& < > "` always; in attributes also tab, newline and
/// carriage return (which parsers would otherwise turn into spaces); characters XML
/// 1.0 does not allow at all (other control characters, U+FFFE, U+FFFF) become U+FFFD.
fn escaped(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' if attribute => out.push_str("&#13;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if unrepresentable(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::KnowledgeType;
    use serde_json::json;

    fn record(metadata: Value) -> KnowledgeRecord {
        let Value::Object(metadata) = metadata else {
            unreachable!()
        };
        KnowledgeRecord {
            id: "tool_result_c&1".into(),
            kind: KnowledgeType::Text,
            metadata,
        }
    }

    #[test]
    fn escapes_markup_and_characters_xml_forbids() {
        assert_eq!(
            escaped("a<b>&\"c\"\u{1b}[0m\t\n\r", false),
            "a&lt;b&gt;&amp;&quot;c&quot;\u{fffd}[0m\t\n\r"
        );
        assert_eq!(escaped("x\ty\nz\r", true), "x&#9;y&#10;z&#13;");
        assert_eq!(escaped("\u{fffe}\u{ffff}é", true), "\u{fffd}\u{fffd}é");
    }

    #[test]
    fn only_xml_names_become_attributes() {
        let r = record(json!({
            "tool_name": "bash", "id": "forged", "my key": 1, "1st": 2, "xmlns": "x",
            "n": 3, "ok": true, "list": [1, "a"], "nested.v-1": null
        }));
        assert_eq!(
            attributes(&r),
            " tool_name=\"bash\" n=\"3\" ok=\"true\" list=\"[1,&quot;a&quot;]\" nested.v-1=\"null\""
        );
    }

    #[test]
    fn long_values_are_cut_and_huge_metadata_dropped_to_fit() {
        let text = "line\n".repeat(50_000);
        let long = "v".repeat(5_000);
        let r = record(json!({"a": long}));
        let shown = attributes(&r);
        assert!(utf16_len(&shown) < MAX_ATTRIBUTE_CHARS + 40, "{shown}");
        let many: serde_json::Map<String, Value> = (0..400)
            .map(|i| (format!("k{i}"), Value::String("v".repeat(300))))
            .collect();
        let r = record(Value::Object(many));
        let list = knowledge_list(&r, &text, Measure::of(&text), 4_000);
        assert!(utf16_len(&list) < 4_000);
        assert!(list.starts_with("<knowledge_list>\n<knowledge id=\"tool_result_c&amp;1\">\n"));
    }

    #[test]
    fn the_shape_is_the_summary_body_in_xml() {
        let text = (1..=100)
            .map(|i| format!("line {i}{}", if i == 50 { " ERROR <boom>" } else { "" }))
            .collect::<Vec<_>>()
            .join("\n");
        let r = record(json!({"context_type": "tool_result", "tool_name": "bash"}));
        let list = knowledge_list(&r, &text, Measure::of(&text), 40_000);
        let expected_head = "<knowledge_list>\n<knowledge id=\"tool_result_c&amp;1\" context_type=\"tool_result\" tool_name=\"bash\">\nSize: 804 bytes, 804 characters, 100 lines. JSON: no.\n--- errors: 1 line found; likely root cause at line 50 ---\n49| line 49\n50| line 50 ERROR &lt;boom&gt;\n51| line 51\n52| line 52\n--- first 20 lines ---\n1| line 1\n";
        assert!(list.starts_with(expected_head), "{list}");
        assert!(list.contains("50| line 50 ERROR &lt;boom&gt;\n"), "{list}");
        assert!(list.ends_with("</knowledge>\nRead more with get_knowledge_by_lines(\"tool_result_c&amp;1\", 1, 200), grep_knowledge(\"tool_result_c&amp;1\", \"ERROR\", ignore_case: true) or get_knowledge_by_id(\"tool_result_c&amp;1\").\n</knowledge_list>"), "{list}");
        assert!(is_knowledge_list(&list));
    }

    #[test]
    fn only_a_whole_list_is_a_list() {
        assert!(!is_knowledge_list("<knowledge_list> opened, never closed"));
        assert!(!is_knowledge_list("closed only </knowledge_list>"));
        assert!(is_knowledge_list("  <knowledge_list></knowledge_list>\n"));
    }

    #[test]
    fn attributes_go_when_the_bare_frame_with_them_is_exactly_the_limit() {
        let text = "a\nb\n".repeat(10);
        let measure = Measure::of(&text);
        let r = record(json!({"k0": "v".repeat(150), "k1": "w".repeat(150)}));
        // The frame around the emptiest body (sizes only), attributes included.
        let id = escaped(&r.id, true);
        let bare = format!(
            "{KNOWLEDGE_LIST_OPEN}\n<knowledge id=\"{id}\"{}>\nSize: {}, {}, {}. JSON: no.\n--- 20 lines omitted ---\n</knowledge>\nRead more with get_knowledge_by_lines(\"{id}\", 1, 200), grep_knowledge(\"{id}\", \"error|exception|fail|panic|fatal\", ignore_case: true) or get_knowledge_by_id(\"{id}\").\n{KNOWLEDGE_LIST_CLOSE}",
            attributes(&r),
            crate::text::measure::count(measure.bytes, "byte"),
            crate::text::measure::count(measure.chars, "character"),
            crate::text::measure::count(measure.lines, "line"),
        );
        let at = utf16_len(&bare);
        let list = knowledge_list(&r, &text, measure, at);
        assert!(!list.contains(" k0="), "{list}");
        assert!(utf16_len(&list) < at);
        let roomy = knowledge_list(&r, &text, measure, at + 200);
        assert!(roomy.contains(" k0="), "{roomy}");
    }
}
