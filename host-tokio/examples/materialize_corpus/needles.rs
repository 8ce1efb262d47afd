//! Needle check (the second measure): a token planted in every materialized result,
//! recovered by a scripted reader from bounded `grep` pages.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use regex::Regex;
use tool_offload::core::materialize::Materialized;
use tool_offload::{utf16_len, GrepOptions, Materializer, OffloadError, ToolOutputInput, Value};

use crate::corpus::{Corpus, Error};
use crate::measures::Measures;

/// What the scripted reader searches for; it never sees the token itself.
pub const NEEDLE_PATTERN: &str = "NEEDLE-[0-9a-f]{16}";
/// Longest page (UTF-16 units) any read-back call may return.
pub const MAX_PAGE_CHARS: usize = 4000;
/// Most calls the scripted reader may make per needle.
pub const MAX_CALLS: usize = 2;
/// Seed of the needle PRNG: the same corpus gives the same needles at the same lines.
pub const SEED: u64 = 0x5EED_0000_0005_0001;

/// xorshift64*: a tiny fixed-seed generator, so runs are repeatable without a dependency.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (0 is replaced: xorshift never leaves 0).
    pub fn new(seed: u64) -> Self {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough in `0..n` for picking a line (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `text` with `token` on its own new line before line `at` (0-based, as `str::lines`
/// counts them; `at` = the line count appends it after the last line). Every original
/// line keeps its bytes, line endings included.
pub fn plant(text: &str, token: &str, at: usize) -> String {
    let start = if at == 0 {
        Some(0)
    } else {
        text.match_indices('\n').nth(at - 1).map(|(i, _)| i + 1)
    };
    match start {
        Some(i) if i < text.len() || at == 0 => format!("{}{token}\n{}", &text[..i], &text[i..]),
        // After the last line.
        _ if text.is_empty() || text.ends_with('\n') => format!("{text}{token}"),
        _ => format!("{text}\n{token}"),
    }
}

/// How the scripted reader found its needle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Route {
    /// In the first grep page (default options: 2 rows of context, 50 matches).
    Grep,
    /// The first grep page showed no row (its group of context rows did not fit the
    /// page); a second grep without context did.
    GrepThenGrepWithoutContext,
    /// Not in either page.
    Lost,
}

/// What the scripted reader did for one needle.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The token recovered, if any.
    pub token: Option<String>,
    /// How.
    pub route: Route,
    /// Every page it was given, in order.
    pub pages: Vec<String>,
}

/// The scripted reader: it knows the ref and [`NEEDLE_PATTERN`], not the token.
///
/// Call 1 is `grep(ref, NEEDLE_PATTERN)` with default options; the token is parsed out of
/// the page. Grep pages show whole rows (a row is never cut), so a matching row is either
/// on the page with its token or absent; when it is absent, the page shows no row number
/// either (the header says "the first 0 shown") and there is nothing to `read` at, so
/// call 2 is the same grep without context, whose single short row always fits.
///
/// # Errors
/// What the materializer's `grep` returns.
pub async fn scripted_reader(m: &Materializer, reference: &str) -> Result<Reading, OffloadError> {
    let needle = Regex::new(NEEDLE_PATTERN).expect("a valid pattern");
    let found = |page: &str| needle.find(page).map(|t| t.as_str().to_owned());
    let mut pages = Vec::new();
    let first = m
        .grep(reference, NEEDLE_PATTERN, GrepOptions::default())
        .await?;
    pages.push(first);
    if let Some(token) = found(&pages[0]) {
        return Ok(Reading {
            token: Some(token),
            route: Route::Grep,
            pages,
        });
    }
    let without_context = GrepOptions {
        context: 0,
        ..GrepOptions::default()
    };
    let second = m.grep(reference, NEEDLE_PATTERN, without_context).await?;
    let token = found(&second);
    pages.push(second);
    Ok(Reading {
        route: if token.is_some() {
            Route::GrepThenGrepWithoutContext
        } else {
            Route::Lost
        },
        token,
        pages,
    })
}

/// The outcome of [`needle_check`].
#[derive(Debug, Clone, Default)]
pub struct NeedleReport {
    /// Needles planted (one per materialized result).
    pub total: usize,
    /// Needles whose exact token the reader recovered within the bounds.
    pub recovered: usize,
    /// Needles per route.
    pub routes: BTreeMap<Route, usize>,
    /// Needles per number of calls used.
    pub calls: BTreeMap<usize, usize>,
    /// Longest page the reader was given (UTF-16 units).
    pub longest_page: usize,
    /// Pages over [`MAX_PAGE_CHARS`].
    pub pages_over_limit: usize,
    /// A `read` at the row the grep page labelled (`read(ref, label − 1, 1)`, as a model
    /// would follow up) showed the needle, out of how many were tried.
    pub read_at_label: (usize, usize),
    /// The follow-up reads that missed the needle, with what they showed.
    pub read_at_label_misses: Vec<String>,
    /// Each needle not recovered, or recovered out of bounds: what and why.
    pub failures: Vec<String>,
    /// Cases where the first grep page showed no row, with their shape.
    pub empty_first_pages: Vec<String>,
    /// Wall time.
    pub time: Duration,
}

impl NeedleReport {
    /// Whether every needle was recovered within the bounds.
    pub fn all_recovered(&self) -> bool {
        self.recovered == self.total && self.failures.is_empty()
    }
}

/// Plant a needle in every result [`measure`](crate::measures::measure) materialized,
/// materialize it again (a fresh conversation per transcript) and run
/// [`scripted_reader`] on its ref.
///
/// # Errors
/// When the temporary directory cannot be made; every per-needle problem is a
/// [`NeedleReport::failures`] entry instead.
pub async fn needle_check(corpus: &Corpus, measures: &Measures) -> Result<NeedleReport, Error> {
    let started = Instant::now();
    let root = tempfile::tempdir()?;
    let mut rng = XorShift::new(SEED);
    let mut report = NeedleReport::default();
    let label_of = |page: &str, token: &str| {
        page.lines()
            .find(|l| l.contains(token))
            .and_then(|l| l.split_once("| "))
            .and_then(|(label, _)| label.parse::<usize>().ok())
    };
    for (transcript, flags) in corpus.transcripts.iter().zip(&measures.materialized) {
        let m = Materializer::in_dir(root.path(), &transcript.conversation_id)?;
        for (r, _) in transcript.results.iter().zip(flags).filter(|(_, &f)| f) {
            report.total += 1;
            let token = format!("NEEDLE-{:016x}", rng.next_u64());
            let lines = r.text.lines().count();
            let at = rng.below(lines + 1);
            let planted = Value::String(plant(&r.text, &token, at));
            let what = format!(
                "{} {} ({} lines, needle before line {})",
                transcript.name,
                r.call_id,
                lines,
                at + 1
            );
            if r.text.contains("NEEDLE-") {
                report
                    .failures
                    .push(format!("{what}: the output already contains NEEDLE-"));
                continue;
            }
            let output = ToolOutputInput {
                tool_call_id: &r.call_id,
                tool_name: &r.tool_name,
                server_name: None,
                output: &planted,
            };
            let reference = match m.materialize(&output).await {
                Ok(Materialized::Artifact { reference, .. }) => reference.id,
                Ok(Materialized::Inline | Materialized::Redacted { .. }) => {
                    report
                        .failures
                        .push(format!("{what}: left inline once planted"));
                    continue;
                }
                Err(e) => {
                    report.failures.push(format!("{what}: {e}"));
                    continue;
                }
            };
            let reading = match scripted_reader(&m, &reference).await {
                Ok(reading) => reading,
                Err(e) => {
                    report.failures.push(format!("{what}: {e}"));
                    continue;
                }
            };
            let calls = reading.pages.len();
            *report.calls.entry(calls).or_default() += 1;
            *report.routes.entry(reading.route).or_default() += 1;
            let lens: Vec<usize> = reading.pages.iter().map(|p| utf16_len(p)).collect();
            report.longest_page = report
                .longest_page
                .max(lens.iter().copied().max().unwrap_or(0));
            let over = lens.iter().filter(|&&l| l > MAX_PAGE_CHARS).count();
            report.pages_over_limit += over;
            if reading.route == Route::GrepThenGrepWithoutContext {
                let header = reading.pages[0].lines().next().unwrap_or("");
                report.empty_first_pages.push(format!(
                    "{what}, around it {}: first page {} units, {header}",
                    neighbours(&r.text, at),
                    lens[0]
                ));
            }
            match &reading.token {
                Some(got) if *got == token && calls <= MAX_CALLS && over == 0 => {
                    report.recovered += 1;
                }
                got => report.failures.push(format!(
                    "{what}: {ref_}: got {got:?} in {calls} calls, pages of {lens:?} units; first page header: {}",
                    reading.pages[0].lines().next().unwrap_or(""),
                    ref_ = reference,
                )),
            }
            // Follow-up a model would make: read at the row the grep page labelled.
            let last = reading.pages.last().map(String::as_str).unwrap_or("");
            if let Some(label) = label_of(last, &token) {
                report.read_at_label.1 += 1;
                match m.read(&reference, label.saturating_sub(1), 1).await {
                    Ok(page) if page.contains(&token) => report.read_at_label.0 += 1,
                    Ok(page) => report.read_at_label_misses.push(format!(
                        "{what}: grep labelled it {label}; read({label} − 1, 1) gave {}",
                        cut_page(&page)
                    )),
                    Err(e) => report
                        .read_at_label_misses
                        .push(format!("{what}: read failed: {e}")),
                }
            }
        }
    }
    report.time = started.elapsed();
    Ok(report)
}

/// The header of `page` and the start of its first row, for a report line.
fn cut_page(page: &str) -> String {
    let mut lines = page.lines();
    let header = lines.next().unwrap_or("");
    let row = lines.next().unwrap_or("");
    format!("{header} {}", tool_offload::core::materialize::cut(row, 60))
}

/// The lengths (UTF-16 units) of the two lines before and after line `at` of `text`,
/// where the needle went: what decides whether the grep group fits a page.
fn neighbours(text: &str, at: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let len = |i: Option<usize>| {
        i.and_then(|i| lines.get(i))
            .map_or("-".to_owned(), |l| utf16_len(l).to_string())
    };
    format!(
        "lines of {} {} [needle] {} {} units",
        len(at.checked_sub(2)),
        len(at.checked_sub(1)),
        len(Some(at)),
        len(Some(at + 1)),
    )
}
