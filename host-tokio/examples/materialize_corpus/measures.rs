//! Share removed (the first measure): every tool result materialized at the default
//! options, and the characters its summary keeps out of context.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use tool_offload::core::materialize::Materialized;
use tool_offload::{utf16_len, Materializer, ToolOutputInput};

use crate::corpus::{Corpus, Error, Format};

/// Totals of one format, or of the whole corpus.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Transcripts with at least one result of this format.
    pub transcripts: usize,
    /// Tool results.
    pub results: usize,
    /// Tool results materialized.
    pub materialized: usize,
    /// Tool-result characters, UTF-16 units.
    pub chars: u64,
    /// Σ (original − summary) over the materialized results.
    pub removed: u64,
}

impl Totals {
    /// `removed / chars`, in percent.
    pub fn share_removed(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            100.0 * self.removed as f64 / self.chars as f64
        }
    }

    fn add(&mut self, other: &Totals) {
        self.transcripts += other.transcripts;
        self.results += other.results;
        self.materialized += other.materialized;
        self.chars += other.chars;
        self.removed += other.removed;
    }
}

/// The outcome of [`measure`].
#[derive(Debug, Clone, Default)]
pub struct Measures {
    /// Per format.
    pub by_format: BTreeMap<Format, Totals>,
    /// Summary lengths (UTF-16 units) of the materialized results, sorted.
    pub summary_lens: Vec<usize>,
    /// Σ `stats().saved_chars` and Σ `stats().hits` over the transcripts' materializers.
    pub stats_saved_chars: u64,
    /// See `stats_saved_chars`.
    pub stats_hits: u64,
    /// For each transcript, for each result: whether it was materialized.
    pub materialized: Vec<Vec<bool>>,
    /// Results the materializer refused (`INVALID_ID`, `WRITE_FAILED`), with why.
    pub errors: Vec<String>,
    /// Wall time.
    pub time: Duration,
}

impl Measures {
    /// All formats together.
    pub fn total(&self) -> Totals {
        let mut total = Totals::default();
        for t in self.by_format.values() {
            total.add(t);
        }
        total.transcripts = self.materialized.len();
        total
    }
}

/// Materialize every result at the default options, one conversation per transcript in
/// a temporary directory.
///
/// # Errors
/// When the temporary directory cannot be made; refused results go to
/// [`Measures::errors`].
pub async fn measure(corpus: &Corpus) -> Result<Measures, Error> {
    let started = Instant::now();
    let root = tempfile::tempdir()?;
    let mut out = Measures::default();
    for transcript in &corpus.transcripts {
        let m = Materializer::in_dir(root.path(), &transcript.conversation_id)?;
        let mut seen = BTreeSet::new();
        let mut flags = Vec::with_capacity(transcript.results.len());
        for r in &transcript.results {
            seen.insert(r.format);
            let totals = out.by_format.entry(r.format).or_default();
            let chars = utf16_len(&r.text) as u64;
            totals.results += 1;
            totals.chars += chars;
            let output = ToolOutputInput {
                tool_call_id: &r.call_id,
                tool_name: &r.tool_name,
                server_name: None,
                output: &r.output,
            };
            match m.materialize(&output).await {
                Ok(Materialized::Artifact { summary, .. }) => {
                    let len = utf16_len(&summary);
                    totals.materialized += 1;
                    totals.removed += chars.saturating_sub(len as u64);
                    out.summary_lens.push(len);
                    flags.push(true);
                }
                Ok(Materialized::Inline | Materialized::Redacted { .. }) => flags.push(false),
                Err(e) => {
                    out.errors
                        .push(format!("{} {}: {e}", transcript.name, r.call_id));
                    flags.push(false);
                }
            }
        }
        for format in seen {
            out.by_format.entry(format).or_default().transcripts += 1;
        }
        let stats = m.stats();
        out.stats_saved_chars += stats.saved_chars;
        out.stats_hits += stats.hits;
        out.materialized.push(flags);
    }
    out.summary_lens.sort_unstable();
    out.time = started.elapsed();
    Ok(out)
}
