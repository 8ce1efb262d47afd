//! The outline of a document or a source file: its headings or definitions with their
//! line numbers, so a model sees the shape of a file it was shown only the ends of, and
//! can read the part it needs by line.

use crate::materialize::detect::gutter;

/// Definitions a source line may start with (after at most four spaces of indentation).
const DEFINITIONS: [&str; 34] = [
    "def ",
    "async def ",
    "class ",
    "fn ",
    "pub fn ",
    "pub(crate) fn ",
    "async fn ",
    "pub async fn ",
    "struct ",
    "pub struct ",
    "pub(crate) struct ",
    "enum ",
    "pub enum ",
    "trait ",
    "pub trait ",
    "impl ",
    "impl<",
    "mod ",
    "pub mod ",
    "function ",
    "async function ",
    "export function ",
    "export async function ",
    "export default ",
    "export class ",
    "export const ",
    "export interface ",
    "export type ",
    "interface ",
    "func ",
    "public class ",
    "public interface ",
    "public static ",
    "CREATE TABLE ",
];

/// One outline entry: its 0-based line, its text, and its depth (a heading's level; 1
/// for a top-level definition, 2 for an indented one).
pub(super) type Entry<'a> = (usize, &'a str, u8);

/// An outline: its entries in order, and what they are (`heading` or `definition`).
#[derive(Default)]
pub(super) struct Outline<'a> {
    pub entries: Vec<Entry<'a>>,
    pub kind: &'static str,
}

/// Whether `text` is a file read: every one of its first (non-empty) lines, up to five,
/// has a gutter.
pub(super) fn is_file_read(text: &str) -> bool {
    let mut first = text.lines().filter(|l| !l.is_empty()).take(5).peekable();
    first.peek().is_some() && first.all(|l| gutter(l).is_some())
}

/// The outline of `text`, when it is a file read (every one of its first lines has a
/// gutter) or a Markdown document (two headings or more): definitions when it has any,
/// else Markdown headings outside fenced code. Empty for anything else.
pub(super) fn outline(text: &str) -> Outline<'_> {
    let file_read = is_file_read(text);
    if !file_read
        && memchr::memmem::find_iter(text.as_bytes(), b"\n#")
            .take(2)
            .count()
            < 2
    {
        return Outline::default();
    }
    let (mut definitions, mut headings) = (Vec::new(), Vec::new());
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        let content = if file_read {
            &line[gutter(line).unwrap_or(0)..]
        } else {
            line
        };
        if content.starts_with("```") || content.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        let hashes = content.bytes().take_while(|&b| b == b'#').count();
        if !fenced && (1..=6).contains(&hashes) && content[hashes..].starts_with(' ') {
            headings.push((i, line, hashes as u8));
            continue;
        }
        let indent = content.bytes().take_while(|&b| b == b' ').count();
        if indent <= 4 && DEFINITIONS.iter().any(|d| content[indent..].starts_with(d)) {
            definitions.push((i, line, if indent == 0 { 1 } else { 2 }));
        }
    }
    if definitions.is_empty() {
        Outline {
            entries: headings,
            kind: "heading",
        }
    } else {
        Outline {
            entries: definitions,
            kind: "definition",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_of_a_read_markdown_file_outside_code() {
        let text = "     1→# Title\n     2→intro\n     3→```sh\n     4→# not a heading\n     5→```\n     6→## Part\n     7→#hashtag\n";
        let o = outline(text);
        assert_eq!(o.kind, "heading");
        let o = o.entries;
        assert_eq!(
            o.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>(),
            [(0, 1), (5, 2)]
        );
        assert_eq!(o[1].1, "     6→## Part");
    }

    #[test]
    fn definitions_win_over_comments_in_code() {
        let text = "1\t# comment\n2\tclass A:\n3\t    def run(self):\n4\t        def inner():\n5\tdef main():\n";
        let o = outline(text);
        assert_eq!(o.kind, "definition");
        let o = o.entries;
        assert_eq!(
            o.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>(),
            [(1, 1), (2, 2), (4, 1)]
        );
    }

    #[test]
    fn plain_text_and_logs_have_none() {
        assert!(outline("error: x\n# one heading\nmore\n")
            .entries
            .is_empty());
        assert!(outline("a\nb\n").entries.is_empty());
        assert!(outline("").entries.is_empty());
        assert_eq!(outline("# A\ntext\n## B\n### C\n").entries.len(), 3);
    }
}
