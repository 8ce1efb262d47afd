//! The figures as a markdown report.

use std::path::Path;

use crate::corpus::Corpus;
use crate::measures::{Measures, Totals};
use crate::needles::{NeedleReport, Route, MAX_CALLS, MAX_PAGE_CHARS, SEED};

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    tool_offload::core::materialize::thousands(n as usize)
}

/// Print the figures as markdown.
pub fn print_report(dir: &Path, corpus: &Corpus, measures: &Measures, needles: &NeedleReport) {
    let total = measures.total();
    println!("## Materialization over the corpus\n");
    println!(
        "Corpus: `{}`: {} transcripts, {} tool results; default thresholds (> 4,000 UTF-16 units or > 16,384 UTF-8 bytes).\n",
        dir.display(),
        corpus.transcripts.len(),
        total.results
    );
    println!("| transcripts | format | tool results | materialized | tool-result chars | removed from context | share removed |");
    println!("|---|---|---|---|---|---|---|");
    let row = |name: &str, t: &Totals| {
        println!(
            "| {} | {name} | {} | {} | {} | {} | {:.1} % |",
            t.transcripts,
            t.results,
            t.materialized,
            thousands(t.chars),
            thousands(t.removed),
            t.share_removed()
        );
    };
    for (format, t) in &measures.by_format {
        row(format.name(), t);
    }
    row("**all**", &total);
    let lens = &measures.summary_lens;
    let median = match lens.len() {
        0 => 0.0,
        n if n % 2 == 1 => lens[n / 2] as f64,
        n => (lens[n / 2 - 1] + lens[n / 2]) as f64 / 2.0,
    };
    let avg_saved = if measures.stats_hits == 0 {
        0.0
    } else {
        measures.stats_saved_chars as f64 / measures.stats_hits as f64
    };
    println!();
    println!(
        "Summaries: median {median} units, max {}, {} in all; `stats()`: {} hits, {} saved chars, avg {avg_saved:.0} saved per hit{}.",
        lens.last().copied().unwrap_or(0),
        thousands(lens.iter().sum::<usize>() as u64),
        measures.stats_hits,
        thousands(measures.stats_saved_chars),
        if measures.stats_saved_chars == total.removed {
            " (= Σ original − summary)"
        } else {
            " (differs from Σ original − summary!)"
        }
    );
    if !corpus.skipped.is_empty() || corpus.unnamed > 0 || !measures.errors.is_empty() {
        let skipped: Vec<String> = corpus
            .skipped
            .iter()
            .map(|(why, n)| format!("{n} × {why}"))
            .collect();
        println!(
            "Skipped: {}; results without a matching call (named `unknown`): {}; refused by the materializer: {}.",
            if skipped.is_empty() { "none".into() } else { skipped.join(", ") },
            corpus.unnamed,
            measures.errors.len()
        );
        for e in &measures.errors {
            println!("- refused: {e}");
        }
    }
    println!();
    println!(
        "Needle check (seed {SEED:#x}): **{} of {} recovered** with at most {MAX_CALLS} calls of ≤ {MAX_PAGE_CHARS} units; longest page {} units, pages over the limit: {}.\n",
        needles.recovered, needles.total, needles.longest_page, needles.pages_over_limit
    );
    println!("| calls | needles | route |");
    println!("|---|---|---|");
    for (route, n) in &needles.routes {
        let (calls, what) = match route {
            Route::Grep => ("1", "`context_grep(ref, \"NEEDLE-[0-9a-f]{16}\")`"),
            Route::GrepThenGrepWithoutContext => (
                "2",
                "first grep page showed no row (context did not fit), then the same grep with 0 rows of context",
            ),
            Route::Lost => ("2", "not recovered"),
        };
        println!("| {calls} | {n} | {what} |");
    }
    println!();
    println!(
        "Follow-up `context_read(ref, <grep row label> − 1, 1)` showed the needle in {} of {} cases.",
        needles.read_at_label.0, needles.read_at_label.1
    );
    println!(
        "Time: measure {:.2} s, needle check {:.2} s.",
        measures.time.as_secs_f64(),
        needles.time.as_secs_f64()
    );
    if !needles.empty_first_pages.is_empty() {
        println!("\nFirst grep page without a row:");
        for case in &needles.empty_first_pages {
            println!("- {case}");
        }
    }
    if !needles.read_at_label_misses.is_empty() {
        println!("\nFollow-up reads at the grep label that missed the needle:");
        for case in &needles.read_at_label_misses {
            println!("- {case}");
        }
    }
    if !needles.failures.is_empty() {
        println!("\nNOT RECOVERED:");
        for failure in &needles.failures {
            println!("- {failure}");
        }
    }
}
