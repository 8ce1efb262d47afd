//! Benchmark helper for `bench/readback.mjs` and `bench/materializer.mjs` (issue 10):
//! the tokio host's side of the read-back and `materialize_messages` figures. Each
//! subcommand prints one JSON line on stdout; numbers, not pass/fail.
//!
//! ```text
//! readback_artifact make DIR BYTES
//!     A deterministic log-like text of BYTES bytes with one rare needle line near the
//!     end, materialized by `Materializer::materialize` under DIR (conversation "bench"),
//!     so that whatever the library writes beside an artifact is there too. Prints
//!     { ref, path, bytes, lines, needle, offset }.
//! readback_artifact measure DIR REF tail|read|grep ARG RUNS BUDGET_MS EXPECT
//!     In this fresh process: the first call, then up to RUNS more (stopping once
//!     BUDGET_MS have been spent, after at least 2), and the peak resident memory over the
//!     baseline taken just before the first call. ARG: lines for tail, the offset for
//!     read (200 lines from there), the pattern for grep (default options). A page
//!     without EXPECT is an error (a fast wrong page must not pass for a fast one).
//! readback_artifact messages FILE RUNS
//!     `materialize_messages` on the JSON array of messages in FILE (in a temporary
//!     directory): once to materialize what is over the limits, then RUNS times on that
//!     result, nothing new (what an agent loop does every turn).
//! ```
//!
//! Built by the scripts with `cargo build --profile bench` (opt-level 3, as users build
//! the crate); `cargo run --release -p tool-offload --example readback_artifact -- …` works
//! too.

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::json;
use tool_offload::{GrepOptions, Materialized, Materializer, ToolOutputInput, Value};

type Error = Box<dyn std::error::Error>;

const CONVERSATION: &str = "bench";
/// The rare pattern: one line of the artifact holds it.
const NEEDLE: &str = "NEEDLE-7c1e0b5a93d2f468";

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .ok_or("missing argument; see the header")
    };
    let out = match arg(0)? {
        "make" => make(arg(1)?, arg(2)?.parse()?).await?,
        "measure" => {
            let call = Call {
                op: arg(3)?,
                arg: arg(4)?,
                expect: arg(7)?,
            };
            measure(arg(1)?, arg(2)?, call, arg(5)?.parse()?, arg(6)?.parse()?).await?
        }
        "messages" => messages(arg(1)?, arg(2)?.parse()?).await?,
        other => return Err(format!("unknown subcommand {other:?}; see the header").into()),
    };
    println!("{out}");
    Ok(())
}

/// Lines like a service log (~100 bytes), from a fixed-seed xorshift64*, up to `bytes`;
/// the needle line replaces the line that crosses 99.5 % of the size.
fn log_text(bytes: usize) -> (String, usize) {
    let mut text = String::with_capacity(bytes + 200);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let needle_at = bytes / 200 * 199;
    let (mut lines, mut needle_done) = (0usize, false);
    while text.len() < bytes {
        let r = next();
        let n = lines;
        if !needle_done && text.len() >= needle_at {
            let _ = writeln!(
                text,
                "2026-11-23T12:00:00.000Z ERROR worker-0 {NEEDLE} checksum mismatch in segment {n}"
            );
            needle_done = true;
        } else {
            let level = if r % 997 == 0 { "WARN " } else { "INFO " };
            let _ = writeln!(
                text,
                "2026-11-23T{:02}:{:02}:{:02}.{:03}Z {level} worker-{} req={:010} GET /api/items/{} status=200 bytes={} took={}ms",
                (n / 3_600_000) % 24,
                (n / 60_000) % 60,
                (n / 1000) % 60,
                n % 1000,
                r % 8,
                n,
                (r >> 8) % 1_000_000,
                (r >> 28) % 65_536,
                (r >> 44) % 500,
            );
        }
        lines += 1;
    }
    (text, lines)
}

async fn make(dir: &str, bytes: usize) -> Result<Value, Error> {
    let (text, lines) = log_text(bytes);
    let size = text.len();
    let materializer = Materializer::in_dir(dir, CONVERSATION)?;
    let call_id = format!("log-{bytes}");
    let output = Value::String(text);
    let out = ToolOutputInput {
        tool_call_id: &call_id,
        tool_name: "bash",
        server_name: None,
        output: &output,
    };
    let started = Instant::now();
    let done = materializer.materialize(&out).await?;
    let took = started.elapsed().as_secs_f64() * 1e3;
    let Materialized::Artifact {
        reference, path, ..
    } = done
    else {
        return Err("the text stayed inline".into());
    };
    Ok(json!({
        "ref": reference.id, "path": path, "bytes": size, "lines": lines, "needle": NEEDLE,
        "offset": lines.saturating_sub(150), "materializeMs": took,
    }))
}

/// `(VmRSS, VmHWM)` in KiB, from /proc/self/status (None off Linux).
fn memory_kib() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status.lines().find_map(|l| {
            l.strip_prefix(name)?
                .trim()
                .strip_suffix("kB")?
                .trim()
                .parse()
                .ok()
        })
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// One read-back call: the operation, its argument, text its page must contain.
struct Call<'a> {
    op: &'a str,
    arg: &'a str,
    expect: &'a str,
}

async fn measure(
    dir: &str,
    reference: &str,
    call: Call<'_>,
    runs: usize,
    budget_ms: f64,
) -> Result<Value, Error> {
    let Call { op, arg, expect } = call;
    let materializer = Materializer::in_dir(dir, CONVERSATION)?;
    let read_back = || async {
        match op {
            "tail" => {
                materializer
                    .tail(reference, arg.parse().unwrap_or(200))
                    .await
            }
            "read" => {
                materializer
                    .read(reference, arg.parse().unwrap_or(0), 200)
                    .await
            }
            _ => {
                materializer
                    .grep(reference, arg, GrepOptions::default())
                    .await
            }
        }
    };
    let before = memory_kib();
    let (mut samples, mut spent, mut chars, mut error) = (Vec::new(), 0.0, 0, None);
    for i in 0..=runs {
        let started = Instant::now();
        let result = read_back().await;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(page) if !page.contains(expect) => {
                error = Some(format!("WRONG_PAGE: the page lacks {expect:?}"));
                break;
            }
            Ok(page) => chars = page.len(),
            Err(e) => {
                error = Some(format!("{}: {e}", e.code().as_str()));
                break;
            }
        }
        samples.push(ms);
        spent += ms;
        if i >= 2 && spent > budget_ms {
            break;
        }
    }
    let after = memory_kib();
    Ok(json!({
        "first": samples.first(), "later": samples.get(1..).unwrap_or(&[]), "pageBytes": chars, "error": error,
        "baselineKiB": before.map(|m| m.0), "peakKiB": after.map(|m| m.1),
    }))
}

async fn messages(file: &str, runs: usize) -> Result<Value, Error> {
    let given: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(file)?)?;
    let dir = std::env::temp_dir().join(format!(
        "tool-offload-bench-messages-{}",
        std::process::id()
    ));
    let materializer = Materializer::in_dir(&dir, CONVERSATION)?;
    let first = materializer.materialize_messages(&given).await?;
    let written = first.refs.len();
    let steady: Vec<Value> = first.messages.into_iter().map(|m| m.into_owned()).collect();
    let mut samples = Vec::with_capacity(runs);
    for i in 0..runs + 50 {
        let started = Instant::now();
        let done = materializer.materialize_messages(&steady).await?;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        if !done.refs.is_empty() {
            return Err("a second pass wrote artifacts".into());
        }
        if i >= 50 {
            samples.push(ms);
        }
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(json!({ "messages": steady.len(), "written": written, "samples": samples }))
}
