//! Finding artifact refs in messages: in summaries, in read-back advice, in prose, in
//! JSON quoted inside text (legacy `<function_call>` records), wherever a string holds
//! one. Export and import bundle what they find; retention keeps it.

use std::borrow::Cow;

use crate::forms::reference;
use crate::forms::reference::{ParsedRef, SCHEME};
use serde_json::Value;

/// Artifact file extensions; a ref ends with one of them.
const EXTENSIONS: [&str; 4] = [".json", ".txt", ".log", ".bin"];

/// Whether `c` ends a ref in text. A minted ref never holds one (they are all escaped),
/// so quotes, brackets, spaces or a JSON escape around a ref never cut it short.
fn ends_ref(c: char) -> bool {
    // (`matches!`, not `"…".contains(c)`: a `char` that may be non-ASCII is searched for
    // as a `&str`, which would bring the standard library's substring searcher.)
    c.is_whitespace()
        || matches!(
            c,
            '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '{' | '}' | '<' | '>' | ',' | '\\'
        )
}

/// A ref found in the messages: its canonical spelling (borrowed from the text when it
/// is spelled so) and its parts.
pub(crate) struct Found<'a> {
    pub reference: Cow<'a, str>,
    pub parsed: ParsedRef<'a>,
}

/// Calls `visit` for each artifact ref in any string of `value`, in order of appearance
/// (repeats included). A ref runs from `ctx://` up to the first character that ends it
/// ([`ends_ref`]), then back to the end of its last file extension (which drops trailing
/// punctuation: "…call_1.txt."). What does not parse as a ref (a malformed escape, an
/// unknown kind) is not one.
/// (`dyn`: every caller shares one copy of the walk.)
pub(crate) fn refs_in<'a>(value: &'a Value, visit: &mut dyn FnMut(Found<'a>)) {
    visit_strings(value, &mut |text| {
        let mut rest = text;
        while let Some(at) = crate::search::find(rest, SCHEME) {
            let after = &rest[at + SCHEME.len()..];
            let token_end = after.find(ends_ref).unwrap_or(after.len());
            if let Some((len, parsed)) = ref_in_token(&after[..token_end]) {
                let reference = match parsed.canonical_spelling {
                    true => Cow::Borrowed(&rest[at..at + SCHEME.len() + len]),
                    false => Cow::Owned(parsed.canonical()),
                };
                visit(Found { reference, parsed });
            }
            rest = &after[token_end..];
        }
    });
}

/// The artifact `token` (what follows `ctx://`) names, if any, and the length of the
/// ref within `token`.
fn ref_in_token(token: &str) -> Option<(usize, ParsedRef<'_>)> {
    let (conv, rest) = token.split_once('/')?;
    let (kind, file) = rest.split_once('/')?;
    let file = file.split('/').next().unwrap_or(file);
    let end = EXTENSIONS
        .iter()
        // The last match from the left is the rightmost one (no extension overlaps
        // itself); `rfind` would add a reverse searcher to the wasm.
        .filter_map(|ext| crate::search::last_from_left(file, ext).map(|i| i + ext.len()))
        .max()?;
    let parsed = reference::parse_parts(conv, kind, &file[..end]).ok()?;
    Some((conv.len() + 1 + kind.len() + 1 + end, parsed))
}

fn visit_strings<'a>(value: &'a Value, visit: &mut impl FnMut(&'a str)) {
    match value {
        Value::String(s) => visit(s),
        Value::Array(items) => items.iter().for_each(|v| visit_strings(v, visit)),
        Value::Object(fields) => fields.values().for_each(|v| visit_strings(v, visit)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(value: &Value) -> Vec<String> {
        let mut out = Vec::new();
        refs_in(value, &mut |f| out.push(f.reference.into_owned()));
        out
    }

    #[test]
    fn finds_refs_quoted_as_json_inside_text_and_in_notes() {
        let record = r#"<function_call>{"name":"bash","arguments":{},"response":"[Output of bash (call c1) stored as ctx://c/tool/c1.txt and not shown in full: 9 lines]"}</function_call>"#;
        let note = "[structuredContent of rows (2,100 bytes) stored as ctx://c/tool/r-structured.json and left out of this result]";
        assert_eq!(
            found(&json!([{"content": record}, {"content": [{"text": note}]}])),
            ["ctx://c/tool/c1.txt", "ctx://c/tool/r-structured.json"]
        );
    }

    #[test]
    fn an_escaped_spelling_is_found_canonically_and_a_bad_escape_is_no_ref() {
        assert_eq!(
            found(&json!(
                "ctx://c/tool/a%7eb.txt ctx://c/tool/x%zz.txt ctx://c/nope/y.txt"
            )),
            ["ctx://c/tool/a~b.txt"]
        );
    }
}
