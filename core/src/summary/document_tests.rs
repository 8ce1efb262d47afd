//! The summaries of files an agent read: a map of parts, definitions and names, no
//! log vocabulary.

use super::tests::input;
use super::*;
use crate::text::utf16_len;

#[test]
fn a_read_document_shows_its_map_by_part() {
    let doc: String = (1..=600)
        .map(|i| match i % 60 {
            1 => format!("{i:>6}→# Chapter {i}\n"),
            30 => format!("{i:>6}→## Section {i}\n"),
            _ => format!("{i:>6}→Some prose on line {i}, long enough to matter in a summary.\n"),
        })
        .collect();
    let s = summary(&input(&doc, 4000));
    // Every part with the lines it spans; no head or tail lines, no log vocabulary.
    assert!(
        s.contains("--- outline: 20 headings (first-last line) ---\n1-60 # Chapter 1\n30-60 ## Section 30\n61-120 # Chapter 61\n"),
        "{s}"
    );
    assert!(
        s.contains("\n541-600 # Chapter 541\n570-600 ## Section 570\nIf you need more"),
        "{s}"
    );
    assert!(!s.contains("--- first") && !s.contains("omitted"), "{s}");
    // The hint reads a part; a document has no failure to grep for.
    assert!(s.contains("offset=29, limit=31) reads lines 30-60"), "{s}");
    assert!(
        s.ends_with("or context_grep(\"ctx://c1/tool/call_1.txt\", \"^[ 0-9]*.?#{1,6} \", ignore_case: true)."),
        "{s}"
    );
    assert!(utf16_len(&s) < 4000 * 3 / 5);
    // Under a small limit the top-level headings come first (every chapter, the
    // sections of the first ones), and the header says how to list them all.
    let s = summary(&input(&doc, 800));
    assert!(
        s.contains("--- outline: 20 headings, 13 shown (first-last line); list all: context_grep(ref, \"^[ 0-9]*.?#{1,6} \") ---\n1-60 # Chapter 1\n30-60 ## Section 30\n"),
        "{s}"
    );
    assert!(s.contains("\n361-420 # Chapter 361\n421-480 # Chapter 421\n481-540 # Chapter 481\n541-600 # Chapter 541\nIf"), "{s}");
    assert!(utf16_len(&s) < 800);
}

#[test]
fn a_source_files_map_lists_its_definitions_and_a_defined_name_to_grep() {
    let mut lines = vec![
        "import os".to_owned(),
        "from pathlib import Path".to_owned(),
        String::new(),
    ];
    for n in 0..40 {
        lines.push(format!("def step_{n}(path: Path) -> None:"));
        lines.push(format!("    \"\"\"Run step {n}; on error, retry.\"\"\""));
        for k in 0..8 {
            lines.push(format!("    value_{n}_{k} = os.path.join(path, 'x')"));
        }
        lines.push(String::new());
    }
    let text: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>6}→{l}\n", i + 1))
        .collect();
    let s = summary(&input(&text, 4000));
    // The top-level definitions first (25 of 40 fit), then the names in each.
    assert!(s.contains("--- outline: 40 definitions, 25 shown (first-last line — 57 of 360 names, each in the part where first seen); list all: context_grep(ref, \"^[ 0-9]*.? *(import|def) \") ---\n4-13 def step_0"), "{s}");
    assert!(
        s.contains("\n268-277 def step_24(path: Path) -> None:\nIf you need more"),
        "{s}"
    );
    // Each definition with its lines, the names first seen in it after it.
    assert!(
        s.contains("\n4-13 def step_0(path: Path) -> None: — value_0_0, "),
        "{s}"
    );
    assert!(
        !s.contains("names errors") && !s.contains("error|exception"),
        "{s}"
    );
    assert!(
        s.ends_with("offset=3, limit=10) reads lines 4-13 or context_grep(\"ctx://c1/tool/call_1.txt\", \"step_0\", ignore_case: true)."),
        "{s}"
    );
    assert!(utf16_len(&s) < 4000 * 3 / 5);
}

/// A 400-line spec read through a file reader: prose naming files and functions, an
/// error example in a fence, headings.
fn spec() -> String {
    (1..=400)
        .map(|i| {
            let body = match i {
                1 => "# Pipeline Specification".to_owned(),
                n if n % 50 == 0 => format!("## Stage {n}"),
                120 => "Error: Cannot read wsd.json at /path/to/source/wsd.json".to_owned(),
                n if n % 7 == 0 => format!("Stage {n} calls collect_files() from scripts/stage_{n}.py, then build_package.py."),
                n => format!("Prose of line {n}, which says what the stage does in words."),
            };
            format!("{i:>6}→{body}\n")
        })
        .collect()
}

#[test]
fn a_documents_names_are_listed_in_the_part_where_each_is_first_seen() {
    let s = summary(&input(&spec(), 4000));
    assert!(
        s.contains("--- outline: 9 headings (first-last line — 60 of 60 names, each in the part where first seen) ---\n1-400 # Pipeline Specification — collect_files, build_package.py, scripts/stage_7.py, "),
        "{s}"
    );
    // A path seen once is listed in its part, after the names used more.
    assert!(
        s.contains("\n100-149 ## Stage 100 — scripts/stage_105.py, "),
        "{s}"
    );
    assert!(s.contains(", wsd.json, /path/to/source/wsd.json, "), "{s}");
    assert_eq!(s.matches("scripts/stage_").count(), 56, "{s}");
    assert!(utf16_len(&s) < 4000 * 3 / 5);
}

#[test]
fn a_documents_error_lines_are_neither_named_nor_shown() {
    let s = summary(&input(&spec(), 4000));
    assert!(!s.contains("errors") && !s.contains("Cannot read"), "{s}");
    // The same lines as a command's output (no file read): an excerpt.
    let plain: String = spec().lines().map(|l| format!("{}\n", &l[9..])).collect();
    let s = summary(&input(&plain, 4000));
    assert!(s.contains("120| Error: Cannot read wsd.json"), "{s}");
}
