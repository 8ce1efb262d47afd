use super::*;

/// `(first line, last line, depth)` of each entry, 1-based lines.
fn spans(o: &Outline<'_>) -> Vec<(usize, usize, u8)> {
    o.entries
        .iter()
        .map(|e| (e.line + 1, e.end + 1, e.depth))
        .collect()
}

/// `lines` numbered as Claude Code's `Read` numbers them.
fn read(lines: &[&str]) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>6}→{l}\n", i + 1))
        .collect()
}

#[test]
fn headings_of_a_read_markdown_file_outside_code_with_their_parts() {
    let text = read(&[
        "# Title",
        "intro",
        "```sh",
        "# not a heading",
        "```",
        "## Part",
        "#hashtag",
        "",
        "## Last",
        "end",
        "",
    ]);
    let o = outline(&text);
    assert!(!o.code);
    assert_eq!((o.headings, o.definitions), (2 + 1, 0));
    // The title's part is the whole file (its last line included); a part ends before
    // the next heading as deep, blank lines left out.
    assert_eq!(spans(&o), [(1, 11, 1), (6, 7, 2), (9, 11, 2)]);
    assert_eq!(o.entries[1].text, "## Part");
}

#[test]
fn a_documents_code_blocks_define_records_and_types() {
    let text = read(&[
        "# Spec",
        "## Data",
        "```yaml",
        "Record:",
        "  id: string",
        "  try: x",
        "",
        "Other:  # a comment",
        "  name: string",
        "```",
        "prose",
        "```python",
        "try:",
        "    run()",
        "class Job(Base):",
        "    def go(self):",
        "```",
    ]);
    let o = outline(&text);
    assert!(!o.code);
    assert_eq!(o.definitions, 3);
    assert_eq!(
        spans(&o),
        [(1, 17, 1), (2, 17, 2), (4, 6, 7), (8, 9, 7), (15, 16, 7)]
    );
}

#[test]
fn a_source_files_definitions_and_import_blocks() {
    let text = read(&[
        "import os",
        "",
        "from x import y",
        "# a comment that looks like a heading",
        "",
        "class A:",
        "    def run(self):",
        "        pass",
        "",
        "    def stop(self):",
        "        pass",
        "",
        "",
        "def main():",
        "    A().run()",
    ]);
    let o = outline(&text);
    assert!(o.code);
    assert_eq!(o.definitions, 4);
    assert_eq!(
        spans(&o),
        [(1, 3, 2), (6, 11, 1), (7, 8, 2), (10, 11, 2), (14, 15, 1)]
    );
    assert_eq!(o.entries[0].text, "import os");
}

#[test]
fn more_headings_than_definitions_make_a_document() {
    // A README's prose line that reads like a definition does not make it code.
    let mut lines = vec!["# Guide"];
    for n in 0..5 {
        lines.extend([
            "## Step",
            if n < 2 { "type Id = string;" } else { "" },
            "text",
        ]);
    }
    let text = read(&lines);
    assert!(!outline(&text).code);
    // Comments at the top level of a Python file do not make it a document.
    let text = read(&[
        "# setup", "# more", "def a():", "    pass", "def b():", "    pass",
    ]);
    assert!(outline(&text).code);
}

#[test]
fn a_file_read_may_start_with_a_line_saying_what_was_read() {
    let text = "Here's the result of running `cat -n` on /w/a.c:\n     1\t#include \"a.h\"\n     2\t\n     3\tstatic int f(int x)\n     4\t{\n     5\t  return x;\n     6\t}\n";
    assert!(is_file_read(text));
    let o = outline(text);
    assert!(o.code);
    assert_eq!(spans(&o), [(2, 2, 2), (4, 7, 1)]);
    // Shown as the file numbers them: the header line is not the file's.
    assert_eq!(o.entries[1].numbers, (3, 6));
    assert!(!is_file_read("log line\nanother\n     1\tx\n"));
    assert!(!is_file_read(""));
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

#[test]
fn dunder_methods_are_definitions() {
    let text = read(&[
        "class Stager:",
        "    \"\"\"Copies files.\"\"\"",
        "",
        "    def __init__(self, source_dir: Path) -> None:",
        "        self.source_dir = source_dir",
    ]);
    assert_eq!(spans(&outline(&text)), [(1, 5, 1), (4, 5, 2)]);
}

#[test]
fn a_partial_read_is_numbered_as_the_file_numbers_it() {
    let text = "   282\tstatic int f(int x)\n   283\t{\n   284\t  return x;\n   285\t}\n   286\t\n   287\tint main(void)\n   288\t{\n";
    let o = outline(text);
    assert_eq!(spans(&o), [(1, 4, 1), (6, 7, 1)]);
    assert_eq!(
        o.entries.iter().map(|e| e.numbers).collect::<Vec<_>>(),
        [(282, 285), (287, 288)]
    );
}
