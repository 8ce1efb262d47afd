//! Materialize and tail against a local S3 server (moto on 127.0.0.1, as in the tests):
//! `cargo bench -p tool-offload --features object-store --bench object_store`. Prints
//! requests and bytes per operation and p50/p99 latency; numbers, not pass/fail (moto is
//! a Python server: its latency is far from S3's, the request counts are what carry over).

#[path = "../tests/s3/mod.rs"]
mod s3;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tool_offload::core::materialize::Materialized;
use tool_offload::{Materializer, MaterializerOptions, ObjectStoreIo, ToolOutputInput};

use s3::{Counting, Fetched, Moto};

fn report(name: &str, mut samples: Vec<Duration>, per_op: String) {
    samples.sort();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name:<34} p50 {:>8.2} ms  p99 {:>8.2} ms  (n={})  {per_op}",
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        samples.len()
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let moto = Moto::start("bench");
    let fetched = Arc::new(Fetched::default());
    let inner: Arc<dyn object_store::ObjectStore> =
        Arc::new(s3::client(&moto, "bench").build().unwrap());
    let store = Arc::new(Counting {
        inner,
        fetched: fetched.clone(),
    });
    let io = ObjectStoreIo::new(store, "bench").unwrap();
    let m = Materializer::with_io(MaterializerOptions::at("/", "conv-bench"), io).unwrap();
    println!("object store (moto_server on 127.0.0.1), tool-offload crate");
    rt.block_on(async {
        for (label, bytes, n) in [("100 KB", 100_000, 60), ("12 MB", 12_000_000, 5)] {
            let line = "   Compiling serde v1.0.219 (build step 17 of 240) ok\n";
            let text: String = line.repeat(bytes / line.len());
            let out = json!(text);
            let (mut samples, mut refs) = (Vec::new(), Vec::new());
            let (puts0, (gets0, heads0, _)) = (fetched.puts(), fetched.snapshot());
            for i in 0..n {
                let id = format!("call_{label}_{i}").replace(' ', "");
                let input = ToolOutputInput {
                    tool_call_id: &id,
                    tool_name: "bash",
                    server_name: None,
                    output: &out,
                };
                let start = Instant::now();
                let done = m.materialize(&input).await.unwrap();
                samples.push(start.elapsed());
                if let Materialized::Artifact { reference, .. } = done {
                    refs.push(reference.id);
                }
            }
            let (gets, heads, _) = fetched.snapshot();
            let per = |a: u64, b: u64| (a - b) as f64 / n as f64;
            let ops = format!(
                "{:.1} puts, {:.1} gets, {:.1} heads per op",
                per(fetched.puts(), puts0),
                per(gets, gets0),
                per(heads, heads0)
            );
            report(&format!("materialize {label}"), samples, ops);

            let mut samples = Vec::new();
            let (gets0, heads0, bytes0) = fetched.snapshot();
            for reference in &refs {
                let start = Instant::now();
                m.tail(reference, 20).await.unwrap();
                samples.push(start.elapsed());
            }
            let (gets, heads, bytes) = fetched.snapshot();
            let ops = format!(
                "{:.1} gets, {:.1} heads, {:.0} bytes fetched per op",
                per(gets, gets0),
                per(heads, heads0),
                per(bytes, bytes0)
            );
            report(&format!("tail 20 lines of {label}"), samples, ops);
        }
    });
}
