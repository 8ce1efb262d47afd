use super::*;

fn ids(text: &str) -> Vec<(&'static str, String)> {
    identifiers(text)
        .into_iter()
        .map(|(id, kind)| (kind.name(), id))
        .collect()
}

fn pair(kind: &'static str, id: &str) -> (&'static str, String) {
    (kind, id.to_owned())
}

#[test]
fn paths_win_over_their_parts_and_lose_a_final_dot() {
    assert_eq!(
        ids("see /work/src/main_loop.rs:42 and ./a/b."),
        [
            pair("path", "/work/src/main_loop.rs"),
            pair("path", "./a/b")
        ]
    );
    // A run of dots and slashes holds no letter or digit: consumed, not counted.
    assert_eq!(ids("../.. then x"), []);
    // Preceded by a word character or a dot: not the start of a path.
    assert_eq!(ids("é/x"), [pair("path", "/x")]);
    assert_eq!(ids("a/ b"), []);
}

#[test]
fn files_are_the_longest_dotted_name_ending_in_an_extension() {
    assert_eq!(ids("index.d.ts"), [pair("file", "index.d.ts")]);
    assert_eq!(ids("main.rs.bak"), [pair("file", "main.rs")]);
    assert_eq!(
        ids("a.jsonl a.json"),
        [pair("file", "a.jsonl"), pair("file", "a.json")]
    );
    // A call, a word after the extension, a dash: not files.
    assert_eq!(ids("console.log(x)"), []);
    assert_eq!(ids("a.rsx a.rs-b"), []);
    assert_eq!(ids("x.tar.gz"), [pair("file", "x.tar.gz")]);
}

#[test]
fn codes_numbers_and_identifiers() {
    assert_eq!(
        ids("E0308 TS2322 ENOENT INVALID_ID AB1 EX12ab"),
        [
            pair("code", "E0308"),
            pair("code", "TS2322"),
            pair("code", "ENOENT"),
            pair("code", "INVALID_ID"),
        ]
    );
    assert_eq!(
        ids("12 123 51234 123abc"),
        [pair("number", "123"), pair("number", "51234")]
    );
    assert_eq!(
        ids("parse_args getValue value abc_ _ab x9Y Abc"),
        [
            pair("identifier", "parse_args"),
            pair("identifier", "getValue"),
            pair("identifier", "abc_"),
        ]
    );
    // An errno name only whole; an uppercase run with an underscore after digits.
    assert_eq!(ids("ENOENTS E2E_TEST"), [pair("code", "E2E_TEST")]);
}

#[test]
fn each_identifier_once_with_its_first_kind() {
    assert_eq!(
        ids("a_bc a_bc 1234 1234"),
        [pair("identifier", "a_bc"), pair("number", "1234")]
    );
}

#[test]
fn occurs_needs_whole_words_on_both_sides() {
    let text = "at /work/src/a.rs:42, crate_1/src/b.rs and 51234 ok_1234";
    let words = Words::of(text);
    assert!(occurs(text, &words, "src/a.rs"));
    assert!(occurs(text, &words, "/work/src/a.rs"));
    assert!(!occurs(text, &words, "/src/b.rs"));
    assert!(!occurs(text, &words, "1234"));
    assert!(!occurs(text, &words, "123"));
    assert!(occurs(text, &words, "51234"));
    assert!(!occurs(text, &words, ""));
    // A later occurrence counts when an earlier one is inside a word.
    let text = "x12345 12345";
    assert!(occurs(text, &Words::of(text), "12345"));
}
