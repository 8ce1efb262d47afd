//! Pages of `read`, `tail` and `grep` over text in memory.
use super::*;
use crate::forms::page::is_read_back_page;
use crate::read::line_index::LineIndex;
use crate::read::source::{ready, Text};
use crate::text::thousands;

/// Page through `text` by following each header's "More:" pointer; the row labels
/// seen, in order.
fn follow(text: &str, limit: usize) -> Vec<String> {
    let (mut offset, mut part, mut labels) = (0, 1, Vec::new());
    for _ in 0..10_000 {
        let page = read_page(text, "r", offset, part, limit, 4000);
        assert!(utf16_len(&page) <= 4000, "{}", utf16_len(&page));
        let (header, body) = page.split_once('\n').unwrap_or((&page, ""));
        labels.extend(
            body.lines()
                .map(|l| l.split_once('|').unwrap().0.to_owned()),
        );
        let Some(next) = header.split_once("More: context_read(\"r\", ") else {
            return labels;
        };
        let args = next.1.trim_end_matches(")]");
        let (o, p) = args.split_once(", part=").unwrap_or((args, "1"));
        (offset, part) = (o.parse().unwrap(), p.parse().unwrap());
    }
    panic!("paging did not end");
}

#[test]
fn reads_page_by_page_to_the_end_within_the_limit() {
    let text: String = (1..=1000)
        .map(|i| format!("line {i} {}\n", "x".repeat(i % 50)))
        .collect();
    let labels = follow(&text, 200);
    assert_eq!(
        labels,
        (1..=1000).map(|i| i.to_string()).collect::<Vec<_>>()
    );
}

#[test]
fn one_huge_line_is_paged_in_parts_and_labels_match_offsets() {
    let text = format!("a\n{}\nb\n{}", "y".repeat(10_000), "z".repeat(2500));
    let labels = follow(&text, 200);
    assert_eq!(
        labels,
        ["1", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4.1", "4.2"]
    );
    let first = read_page(&text, "r", 0, 1, 200, 4000);
    assert!(
        first.starts_with(
            "[r: lines 1-2.1 of 4. More: context_read(\"r\", 1, part=2)]\n1| a\n2.1| yyy"
        ),
        "{first}"
    );
    // Line 3 (label "3") is offset 2, whatever came before it.
    assert!(read_page(&text, "r", 2, 1, 1, 4000).ends_with("\n3| b"));
    let tail = tail_page(&text, "r", 1, 4000);
    assert!(
        tail.starts_with("[r: lines 4.1-4.2 of 4, the end.]\n4.1| zzz"),
        "{tail}"
    );
}

#[test]
fn empty_artifact_and_offset_past_the_end() {
    assert_eq!(read_page("", "r", 0, 1, 200, 4000), "[r: empty.]");
    assert_eq!(
        read_page("a\nb", "r", 9, 1, 200, 4000),
        "[r: offset 9 is past the end: 2 lines.]"
    );
    assert_eq!(tail_page("", "r", 200, 4000), "[r: empty.]");
}

#[test]
fn grep_shows_the_first_match_even_when_its_context_is_too_long() {
    let wide = "w".repeat(1900);
    let text = format!("{wide}\n{wide}\nneedle\n{wide}\n{wide}");
    let page = grep_page(&text, "r", |l| l.contains("needle"), 2, 50, 4000);
    assert_eq!(
        page,
        "[r: 1 matching row in 5 lines, with no context (2 rows asked for do not fit); all shown.]\n3| needle"
    );
}

#[test]
fn a_ref_too_long_to_name_twice_stays_out_of_the_header() {
    // Found by `make fuzz` (summary_paging): with ids near the 255-byte limit, a
    // header naming the ref twice was longer than a 1000-unit page by itself.
    let reference = format!("ctx://{}/terminal/{}.log", "c".repeat(255), "i".repeat(251));
    let text = "x".repeat(3000);
    let page = read_page(&text, &reference, 0, 1, 200, 1000);
    assert_eq!(
        page,
        format!(
            "[this artifact: lines 1.1-1.1 of 1. More: context_read(<the same ref>, 0, part=2)]\n1.1| {}",
            "x".repeat(776)
        )
    );
    let tail = tail_page(&text, &reference, 200, 1000);
    assert_eq!(
        tail,
        format!(
            "[this artifact: lines 1.4-1.4 of 1, the end.]\n1.4| {}",
            "x".repeat(3000 - 3 * 776)
        )
    );
    // A ref that leaves room for rows is named as before.
    assert!(read_page(&text, "ctx://c/tool/a.txt", 0, 1, 200, 1000)
        .starts_with("[ctx://c/tool/a.txt: lines 1.1-1.1 of 1. More: context_read(\"ctx://c/tool/a.txt\", 0, part=2)]"));
}

#[test]
fn grep_with_the_largest_context_shows_every_row() {
    // Found by `make fuzz` (summary_paging): `hit + context + 1` overflowed.
    let page = grep_page(
        "a\nneedle\nb",
        "r",
        |l| l.contains("needle"),
        usize::MAX,
        50,
        4000,
    );
    assert_eq!(
        page,
        format!(
            "[r: 1 matching row in 3 lines, with {} rows of context; all shown.]\n1| a\n2| needle\n3| b",
            thousands(usize::MAX)
        )
    );
}

#[test]
fn tail_keeps_the_end_when_it_does_not_all_fit() {
    let text: String = (1..=500).map(|i| format!("{i:0>60}\n")).collect();
    let page = tail_page(&text, "r", 200, 4000);
    assert!(page.ends_with(&format!("500| {:0>60}", 500)));
    assert!(utf16_len(&page) <= 4000);
}

#[test]
fn grep_reports_when_matches_are_cut() {
    let text: String = (1..=300)
        .map(|i| format!("error {i} {}\n", "z".repeat(80)))
        .collect();
    let page = grep_page(&text, "r", |l| l.contains("error"), 0, 50, 4000);
    assert!(
        page.contains("300 matching rows in 300 lines, with 0 rows of context; the first"),
        "{}",
        page.lines().next().unwrap()
    );
    assert!(utf16_len(&page) <= 4000);
    let none = grep_page("a\nb", "r", |l| l.contains("q"), 2, 50, 4000);
    assert_eq!(
        none,
        "[r: 0 matching rows in 2 lines, with 2 rows of context; none.]"
    );
}

/// Rows of a page (`label| text`), by label.
fn rows_of_page(page: &str) -> Vec<(String, String)> {
    page.lines()
        .skip(1)
        .filter_map(|l| l.split_once("| "))
        .map(|(label, text)| (label.to_owned(), text.to_owned()))
        .collect()
}

#[test]
fn a_part_label_names_the_same_characters_in_read_and_grep() {
    // Distinct characters everywhere, so a part's text tells where it starts.
    let line: String = (0..12_000)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    let marked = format!("{}NEEDLE{}", &line[..6_000], &line[6_000..]);
    let artifact = format!("first\n{marked}\nlast");
    let reference = "ctx://conversation-with-a-long-id/tool/call_0123456789abcdef.txt";
    for max in [700, 1_000, 1_500, 2_000, 2_300, 4_000] {
        let grep = grep_page(
            &artifact,
            reference,
            |row| row.contains("NEEDLE"),
            0,
            5,
            max,
        );
        let hits = rows_of_page(&grep);
        assert!(!hits.is_empty(), "{max}: {grep}");
        for (label, shown) in hits {
            let (line, part) = label.split_once('.').unwrap();
            let offset: usize = line.parse::<usize>().unwrap() - 1;
            let read = read_page(&artifact, reference, offset, part.parse().unwrap(), 1, max);
            let first = rows_of_page(&read).into_iter().next();
            assert_eq!(
                first,
                Some((label.clone(), shown.clone())),
                "{max}: part {label}"
            );
        }
    }
}

/// A grep window's `57.3@4010` label, read back with `Within::Char`, starts at exactly
/// that character, and the page goes on with the line's next part.
#[test]
fn a_character_offset_reads_from_that_character() {
    let line: String = (0..3000).map(|i| format!("{i:04},")).collect();
    let text = format!("head\n{line}\ntail\n");
    let needle = "1234,";
    let at = utf16_len(&line[..line.find(needle).unwrap()]);
    let source = Text::new(text.as_bytes());
    let index = LineIndex::of(text.as_bytes());
    let read = |within| ready(read_in(&source, &index, "r", (1, within, 1), 4000)).unwrap();
    let page = read(Within::Char(at));
    let (header, body) = page.split_once('\n').unwrap();
    let part = at / crate::read::naming::part_chars("r", 4000) + 1;
    assert!(
        body.starts_with(&format!("2.{part}@{at}| {needle}")),
        "{body}"
    );
    // The rest of that part, which ends where the part ends (no offset: the page does
    // not stop inside it); the next page goes on with the line's next part.
    assert_eq!(
        header,
        format!(
            "[r: lines 2.{part}@{at}-2.{part} of 3. More: context_read(\"r\", 1, part={})]",
            part + 1
        )
    );
    assert!(utf16_len(&page) <= 4000);
    // At a part's start the label is the part's; past the line's end, the next line.
    assert!(read(Within::Char(0)).contains("\n2.1| 0000,"));
    assert_eq!(
        read(Within::Char(line.len() + 5)),
        "[r: char 15005 is past the end of line 2: 15,000 characters.]"
    );
    let last = ready(read_in(&source, &index, "r", (2, Within::Char(4), 1), 4000)).unwrap();
    assert_eq!(last, "[r: char 4 is past the end of line 3: 4 characters.]");
    assert!(is_read_back_page(&last));
    // A number is a part, as before.
    assert_eq!(read(Within::Part(2)), read(2.into()));
}
