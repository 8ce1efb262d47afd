//! Issue 5's needle check over the real corpus (`../shared/corpus` beside the
//! repository, or `$TOOL_OFFLOAD_CORPUS`): every materialized tool result, with a token
//! planted at a random line, is recovered by the scripted reader from `grep` pages
//! within 2 calls of at most 4000 UTF-16 units each. Skipped, with a line on stderr,
//! when the corpus is absent.
//!
//! The walking, planting and reader live in `examples/materialize_corpus/` (which
//! prints the figures for `bench/README.md`); this test includes its modules under the
//! same names (they refer to each other as `crate::corpus`, …) so both check exactly the
//! same thing.

use std::io::Write;

#[allow(dead_code)]
#[path = "../examples/materialize_corpus/corpus.rs"]
mod corpus;
#[allow(dead_code)]
#[path = "../examples/materialize_corpus/measures.rs"]
mod measures;
#[allow(dead_code)]
#[path = "../examples/materialize_corpus/needles.rs"]
mod needles;

use corpus::{conversation_id, corpus_dir, load_corpus};
use measures::measure;
use needles::{needle_check, plant, MAX_CALLS, MAX_PAGE_CHARS};

/// Shown even though libtest captures `eprintln!` of passing tests.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn needles_are_planted_on_their_own_line_and_ids_are_sanitized() {
    assert_eq!(plant("a\nb", "N", 0), "N\na\nb");
    assert_eq!(plant("a\nb", "N", 1), "a\nN\nb");
    assert_eq!(plant("a\nb", "N", 2), "a\nb\nN");
    assert_eq!(plant("a\r\nb\n", "N", 1), "a\r\nN\nb\n");
    assert_eq!(plant("a\r\nb\n", "N", 2), "a\r\nb\nN");
    assert_eq!(plant("[{\"x\":1}]", "N", 1), "[{\"x\":1}]\nN");
    assert_eq!(plant("", "N", 0), "N\n");
    assert_eq!(
        conversation_id("anthropic/run 1+2.json"),
        "anthropic_run_1_2"
    );
    assert_eq!(conversation_id(".json"), "transcript");
}

#[tokio::test]
async fn every_needle_is_recovered_within_two_bounded_calls() {
    let dir = corpus_dir();
    if !dir.exists() {
        say(&format!(
            "corpus not found at {}: skipping (set TOOL_OFFLOAD_CORPUS to run it)",
            dir.display()
        ));
        return;
    }
    let corpus = load_corpus(&dir).expect("a listable corpus");
    assert!(
        !corpus.transcripts.is_empty(),
        "no transcripts in the corpus at {}",
        dir.display()
    );
    let measures = measure(&corpus).await.expect("a temporary directory");
    assert!(measures.errors.is_empty(), "{:?}", measures.errors);
    let total = measures.total();
    assert!(total.materialized > 0 && total.removed <= total.chars);
    assert_eq!(measures.stats_saved_chars, total.removed);

    let needles = needle_check(&corpus, &measures)
        .await
        .expect("a temporary directory");
    assert_eq!(needles.total, total.materialized);
    assert!(
        needles.failures.is_empty(),
        "{} needles not recovered:\n{}",
        needles.failures.len(),
        needles.failures.join("\n")
    );
    assert_eq!(needles.recovered, needles.total);
    assert_eq!(needles.pages_over_limit, 0);
    assert!(needles.longest_page <= MAX_PAGE_CHARS);
    assert!(needles.calls.keys().all(|&calls| calls <= MAX_CALLS));
    say(&format!(
        "needle check: {} of {} recovered over {} transcripts; calls {:?}",
        needles.recovered,
        needles.total,
        corpus.transcripts.len(),
        needles.calls
    ));
}
