//! Issue 5's corpus measures: every tool result of the real transcripts through the
//! tokio host's [`Materializer`] at its default thresholds, then a needle check of
//! read-back.
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
//!    only the ref and the pattern [`NEEDLE_PATTERN`] must recover the exact token from
//!    `grep`/`read` pages: at most [`MAX_CALLS`] calls, every page at most
//!    [`MAX_PAGE_CHARS`] UTF-16 units (see [`scripted_reader`]).
//!
//! Prints a markdown summary. Exits 1 when a needle is not recovered, 0 with a line
//! saying so when the corpus is absent. `tests/materialize_corpus.rs` includes this file
//! as a module and asserts the same check.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use regex::Regex;
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    json, utf16_len, GrepOptions, Materializer, MaterializerOptions, OffloadError, ToolOutput,
    Value,
};

/// What the scripted reader searches for; it never sees the token itself.
pub const NEEDLE_PATTERN: &str = "NEEDLE-[0-9a-f]{16}";
/// Longest page (UTF-16 units) any read-back call may return.
pub const MAX_PAGE_CHARS: usize = 4000;
/// Most calls the scripted reader may make per needle.
pub const MAX_CALLS: usize = 2;
/// Seed of the needle PRNG: the same corpus gives the same needles at the same lines.
pub const SEED: u64 = 0x5EED_0000_0005_0001;

type Error = Box<dyn std::error::Error + Send + Sync>;

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

// ── Finding the tool results ─────────────────────────────────────────────────────────

/// `$TOOL_OFFLOAD_CORPUS` (relative to the repository root), else `../shared/corpus`
/// beside the repository.
pub fn corpus_dir() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match std::env::var_os("TOOL_OFFLOAD_CORPUS") {
        Some(dir) if !dir.is_empty() => normalise(&repo.join(dir)),
        _ => normalise(&repo.join("../shared/corpus")),
    }
}

/// `path` without `.` and `..` components (lexically).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The transcript format a tool result was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// A `tool_result` block in a `content` array.
    Anthropic,
    /// A `role: "tool"` message.
    OpenAi,
}

impl Format {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Format::Anthropic => "Anthropic Messages",
            Format::OpenAi => "OpenAI Chat",
        }
    }
}

/// One tool result of a transcript.
#[derive(Debug, Clone)]
pub struct ToolResult {
    /// Where it was found.
    pub format: Format,
    /// `tool_use_id` / `tool_call_id`.
    pub call_id: String,
    /// The name on the matching assistant call, or `unknown`.
    pub tool_name: String,
    /// The content: a string, or an array of blocks.
    pub output: Value,
    /// The output as text: the string, or the array's `JSON.stringify`.
    pub text: String,
}

/// One transcript file and its tool results.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// Path relative to the corpus directory, `/`-separated.
    pub name: String,
    /// The conversation id its artifacts go under.
    pub conversation_id: String,
    /// Its tool results in document order.
    pub results: Vec<ToolResult>,
}

/// Every transcript of a corpus, and what could not be used.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Transcripts that parsed as JSON arrays.
    pub transcripts: Vec<Transcript>,
    /// Reasons things were skipped (unparseable files, results without id or with
    /// content that is neither string nor array, …) and how often.
    pub skipped: BTreeMap<String, usize>,
    /// Tool results whose call has no matching assistant call (named `unknown`).
    pub unnamed: usize,
}

impl Corpus {
    /// All tool results.
    pub fn results(&self) -> impl Iterator<Item = (&Transcript, &ToolResult)> {
        self.transcripts
            .iter()
            .flat_map(|t| t.results.iter().map(move |r| (t, r)))
    }
}

/// Read every `.json` file under `dir` (sorted by path) and find its tool results.
///
/// # Errors
/// Only when the directory cannot be listed; bad files are counted in
/// [`Corpus::skipped`].
pub fn load_corpus(dir: &Path) -> Result<Corpus, Error> {
    let mut files = Vec::new();
    json_files(dir, dir, &mut files)?;
    files.sort();
    let mut corpus = Corpus::default();
    for name in files {
        let text = match std::fs::read_to_string(dir.join(&name)) {
            Ok(text) => text,
            Err(_) => {
                *corpus.skipped.entry("unreadable file".into()).or_default() += 1;
                continue;
            }
        };
        let messages = match json::parse(&text) {
            Ok(Value::Array(messages)) => messages,
            _ => {
                *corpus
                    .skipped
                    .entry("file is not a JSON array".into())
                    .or_default() += 1;
                continue;
            }
        };
        let results = tool_results(&messages, &mut corpus);
        corpus.transcripts.push(Transcript {
            conversation_id: conversation_id(&name),
            name,
            results,
        });
    }
    Ok(corpus)
}

/// Every `.json` file under `dir`, as `/`-separated paths relative to `root`.
fn json_files(root: &Path, dir: &Path, found: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            json_files(root, &path, found)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            found.push(parts.join("/"));
        }
    }
    Ok(())
}

/// The transcript's path without `.json`, every character outside `[A-Za-z0-9._-]`
/// replaced by `_`.
pub fn conversation_id(name: &str) -> String {
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match id.as_str() {
        "" | "." | ".." => format!("transcript{id}"),
        _ => id,
    }
}

/// The tool results of one transcript, named after the assistant calls they answer.
fn tool_results(messages: &[Value], corpus: &mut Corpus) -> Vec<ToolResult> {
    let str_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut names: HashMap<String, String> = HashMap::new();
    for message in messages {
        if let Some(blocks) = message.get("content").and_then(Value::as_array) {
            for block in blocks {
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    if let (Some(id), Some(name)) = (str_of(block, "id"), str_of(block, "name")) {
                        names.insert(id, name);
                    }
                }
            }
        }
        if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
            for call in calls {
                let name = call.get("function").and_then(|f| str_of(f, "name"));
                if let (Some(id), Some(name)) = (str_of(call, "id"), name) {
                    names.insert(id, name);
                }
            }
        }
    }

    let mut found = Vec::new();
    let mut take = |format: Format, holder: &Value, id_key: &str, corpus: &mut Corpus| {
        let mut skip = |why: &str| *corpus.skipped.entry(why.into()).or_default() += 1;
        let Some(call_id) = str_of(holder, id_key) else {
            return skip("tool result without a string id");
        };
        let text = match holder.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(array @ Value::Array(_)) => json::stringify(array),
            None => return skip("tool result without content"),
            Some(_) => return skip("tool result content neither string nor array"),
        };
        let tool_name = names.get(&call_id).cloned().unwrap_or_else(|| {
            corpus.unnamed += 1;
            "unknown".into()
        });
        found.push(ToolResult {
            format,
            call_id,
            tool_name,
            output: holder["content"].clone(),
            text,
        });
    };
    for message in messages {
        if message.get("role").and_then(Value::as_str) == Some("tool") {
            take(Format::OpenAi, message, "tool_call_id", corpus);
        } else if let Some(blocks) = message.get("content").and_then(Value::as_array) {
            for block in blocks {
                if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                    take(Format::Anthropic, block, "tool_use_id", corpus);
                }
            }
        }
    }
    found
}

// ── 1. Share removed ─────────────────────────────────────────────────────────────────

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
        let m = Materializer::new(MaterializerOptions::new(
            root.path(),
            &transcript.conversation_id,
        ))?;
        let mut seen = BTreeSet::new();
        let mut flags = Vec::with_capacity(transcript.results.len());
        for r in &transcript.results {
            seen.insert(r.format);
            let totals = out.by_format.entry(r.format).or_default();
            let chars = utf16_len(&r.text) as u64;
            totals.results += 1;
            totals.chars += chars;
            let output = ToolOutput {
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
                Ok(Materialized::Inline) => flags.push(false),
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

// ── 2. Needle check ──────────────────────────────────────────────────────────────────

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

/// Plant a needle in every result [`measure`] materialized, materialize it again (a
/// fresh conversation per transcript) and run [`scripted_reader`] on its ref.
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
        let m = Materializer::new(MaterializerOptions::new(
            root.path(),
            &transcript.conversation_id,
        ))?;
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
            let output = ToolOutput {
                tool_call_id: &r.call_id,
                tool_name: &r.tool_name,
                server_name: None,
                output: &planted,
            };
            let reference = match m.materialize(&output).await {
                Ok(Materialized::Artifact { reference, .. }) => reference.id,
                Ok(Materialized::Inline) => {
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

// ── Report ───────────────────────────────────────────────────────────────────────────

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
