//! How fast `redact` is: a 10 MB log with no candidate, and one whose every line holds a
//! `password=` (the worst case: every rule's regex runs on every line it can), and one
//! line of minified JSON as long, with a candidate every 80 bytes; then the
//! same logs with one user pattern that matches no line, and one that matches every line.
//!
//! Each time is the best of five runs (after one that compiles the rules), beside a
//! baseline measured in the same process on the same text: `memchr` counting its line
//! feeds, one pass at memory speed. The ratio is what to compare across machines.
//! `cargo run --release -p tool-offload-core --example redact_speed`
use std::time::{Duration, Instant};

use tool_offload_core::redact::{RedactPattern, Redaction};

const RUNS: usize = 5;

/// The best of [`RUNS`] runs of `f`, after one more unmeasured.
fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut out = f();
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed());
    }
    (best, out)
}

fn main() {
    let user = |pattern: &str| {
        Redaction::with_patterns(vec![RedactPattern::new(pattern)], None).expect("valid")
    };
    let runs = [
        ("built-in rules", Redaction::builtin()),
        ("+ ACME-[0-9]{8} (no line)", user("ACME-[0-9]{8}")),
        ("+ worker-[0-9]+ (every line)", user(r"worker-[0-9]+")),
    ];
    for (log, line) in [
        (
            "no candidate",
            "2024-05-14T10:00:01Z INFO worker-3 GET /api/v1/orders/12345 200 1532 bytes in 12ms\n",
        ),
        (
            "password= on every line",
            "2024-05-14T10:00:01Z INFO connect password=hunter2-the-longer api_key=abcdefgh\n",
        ),
        // Minified JSON: one 10 MB line with a candidate every 80 bytes.
        (
            "one line of minified JSON",
            r#"{"user":"ann","password":"hunter2-the-longer","api_key":"abcdefgh12345"},"#,
        ),
    ] {
        let text = line.repeat(10 * 1024 * 1024 / line.len());
        let (base, lines) = best(|| memchr::memchr_iter(b'\n', text.as_bytes()).count());
        println!(
            "{log}, {} MB ({lines} line feeds): baseline (memchr) {base:.2?}",
            text.len() / 1_000_000
        );
        for (name, redaction) in &runs {
            let (took, counts) = best(|| redaction.apply(&text).counts);
            let ratio = took.as_secs_f64() / base.as_secs_f64();
            println!("  {name}: {took:.2?}, {ratio:.1}x baseline, {counts:?}");
        }
    }
}
