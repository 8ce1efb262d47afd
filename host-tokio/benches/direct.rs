//! Direct-offload latency, native: `cargo bench -p tool-offload --bench direct`.
//! Prints p50/p99 per case; numbers, not pass/fail. bench/README.md records them.

use std::time::{Duration, Instant};

use serde_json::json;
use tool_offload::core::offload_tool_result;
use tool_offload::{MemoryWriter, TokioFileWriter, Value};

fn message(chars: usize) -> Value {
    let line = "   Compiling serde v1.0.219 (build step 17 of 240) — 😀 ok\n";
    let content: String = line.chars().cycle().take(chars).collect();
    json!({"role": "user", "content": [
        {"type": "text", "text": "here is the log"},
        {"type": "tool_result", "tool_use_id": "toolu_bench", "content": content}
    ]})
}

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name:<44} p50 {:>9.1} µs   p99 {:>9.1} µs   (n={})",
        pct(0.5).as_secs_f64() * 1e6,
        pct(0.99).as_secs_f64() * 1e6,
        samples.len()
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap().to_owned();
    println!("direct offload, native (tool-offload crate)");
    for (label, chars, n) in [("1 KB", 1_000, 2_000), ("1 MB", 1_000_000, 300)] {
        let msg = message(chars);
        let memory = MemoryWriter::new();
        let samples = (0..n)
            .map(|_| {
                let t = Instant::now();
                rt.block_on(offload_tool_result(&msg, "s", "out", "/bench", &memory))
                    .unwrap();
                t.elapsed()
            })
            .collect();
        report(
            &format!("{label} result, in-memory writer (compute)"),
            samples,
        );
        let disk = TokioFileWriter::new();
        let samples = (0..n)
            .map(|_| {
                let t = Instant::now();
                rt.block_on(offload_tool_result(&msg, "s", &out, "/", &disk))
                    .unwrap();
                t.elapsed()
            })
            .collect();
        report(&format!("{label} result, TokioFileWriter (disk)"), samples);
    }
}
