//! Issue 5's corpus measures: every tool result of the real transcripts through the
//! tokio host's [`Materializer`](tool_offload::Materializer) at its default thresholds,
//! then a needle check of read-back.
//!
//! `cargo run --release -p tool-offload --example materialize_corpus [-- CORPUS_DIR]`
//!
//! The corpus is the first argument, else `$TOOL_OFFLOAD_CORPUS` (relative to the
//! repository root), else `../shared/corpus` beside the repository
//! (`tests/conformance/tests/corpus.rs` looks in the same places).
//!
//! 1. **Share removed.** Each transcript gets its own conversation in a temporary
//!    directory; each tool result (Anthropic `tool_result` blocks, OpenAI `role: "tool"`
//!    messages) is materialized as it is: a string as the text, an array of blocks as the
//!    JSON value. Reported: the tool-result characters (UTF-16 units) the summaries keep
//!    out of context, Σ (original − summary) over the materialized results, against all
//!    tool-result characters.
//! 2. **Needle check.** For every result that is materialized, a unique token
//!    `NEEDLE-<16 hex>` (fixed-seed xorshift) is planted on its own new line at a random
//!    line of its text, the text is materialized again, and a scripted reader that knows
//!    only the ref and the pattern [`NEEDLE_PATTERN`](needles::NEEDLE_PATTERN) must
//!    recover the exact token from `grep`/`read` pages: at most
//!    [`MAX_CALLS`](needles::MAX_CALLS) calls, every page at most
//!    [`MAX_PAGE_CHARS`](needles::MAX_PAGE_CHARS) UTF-16 units (see
//!    [`scripted_reader`](needles::scripted_reader)).
//!
//! Prints a markdown summary. Exits 1 when a needle is not recovered, 0 with a line
//! saying so when the corpus is absent. `tests/materialize_corpus.rs` includes the modules
//! beside this file ([`corpus`], [`measures`], [`needles`]) and asserts the same check.

pub mod corpus;
pub mod measures;
pub mod needles;
pub mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use corpus::{corpus_dir, load_corpus, Error};
use measures::measure;
use needles::needle_check;
use report::print_report;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<ExitCode, Error> {
    let dir = match std::env::args_os().nth(1) {
        Some(arg) => PathBuf::from(arg),
        None => corpus_dir(),
    };
    if !dir.exists() {
        println!(
            "corpus not found at {}, skipping (set TOOL_OFFLOAD_CORPUS or pass a directory to run it)",
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let corpus = load_corpus(&dir)?;
    let measures = measure(&corpus).await?;
    let needles = needle_check(&corpus, &measures).await?;
    print_report(&dir, &corpus, &measures, &needles);
    Ok(if needles.all_recovered() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
