//! The workspace's queries over many records, on disk: SQLite index beside the scan.
//! `cargo bench -p tool-offload --bench workspace [-- --records N --queries Q]`
//! (default 100,000 records, 300 queries of each kind). Numbers, not pass/fail;
//! bench/README.md records them, and `make bench` writes target/bench/workspace.json.
//!
//! Records are stored through `Workspace::add` (one line of content each, 100 tasks, 5
//! tools), so each store writes its content, its record and its index row as it would in
//! production. Then, for each query kind, the latency of `query_artifacts` (limit 50):
//! through the SQLite index (`Workspace::new`), and by scanning the records
//! (`Workspace::with_io`: first query reads every record, later ones list the directory
//! and use the cache).
//!
//! With feature `postgres` and PostgreSQL's binaries installed (`make bench` builds it so;
//! skipped with a message otherwise), the same records go into a `PostgresIndex` on a
//! throwaway local cluster (by `rebuild_index`, then VACUUM ANALYZE) and the same queries run
//! through it; beside them, for each kind, the one-statement query PostgreSQL's planner
//! plans on its own (no rarest-field count first), to show what our plan is worth
//! (`postgres_planner`), and our plan counting the fields at every query instead of
//! reusing counts for `POSTGRES_COUNT_TTL` (`postgres_counting`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Map, Value};
use tool_offload::core::workspace::Query;
use tool_offload::{TokioFileWriter, Workspace, WorkspaceOptions};

#[cfg(feature = "postgres")]
#[path = "../tests/pg/cluster.rs"]
mod cluster;
#[cfg(feature = "postgres")]
#[path = "workspace/postgres.rs"]
mod postgres;

const TASKS: u64 = 100;

/// A query kind's filter for its `q`-th query.
pub(crate) type MakeFilter = Box<dyn Fn(usize) -> Value>;
const TOOLS: [&str; 5] = ["bash", "read_file", "grep", "web_fetch", "sql"];

pub(crate) fn percentile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

pub(crate) fn filter(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (mut n, mut queries) = (100_000u64, 300usize);
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse().ok());
        match arg.as_str() {
            "--records" => n = value().expect("--records N"),
            "--queries" => queries = value().expect("--queries Q") as usize,
            _ => {}
        }
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let clock = Arc::new(AtomicU64::new(1_795_000_000_000));
    let now = clock.clone();
    let options = WorkspaceOptions::at(dir.path().to_str().expect("a UTF-8 path"));
    let indexed = Workspace::new(options.clone())
        .expect("workspace")
        .with_clock(Arc::new(move || now.load(Ordering::Relaxed) as f64));
    let started = Instant::now();
    for i in 0..n {
        clock.fetch_add(1, Ordering::Relaxed);
        let metadata = filter(json!({
            "context_type": "tool_result", "biz_id": format!("call_{i}"),
            "task_id": format!("task-{}", i % TASKS), "tool_name": TOOLS[(i % 5) as usize],
        }));
        let content = json!(format!("output of call {i}"));
        indexed
            .add(&format!("k{i}"), &content, None, &metadata)
            .await
            .expect("store");
    }
    let store_s = started.elapsed().as_secs_f64();
    eprintln!(
        "stored {n} records in {store_s:.1} s ({:.0} µs each)",
        store_s * 1e6 / n as f64
    );

    let scanning = Workspace::with_io(options.clone(), TokioFileWriter::new()).expect("workspace");
    let started = Instant::now();
    let first = scanning
        .query_artifacts(&Query::new(Map::new()))
        .await
        .expect("scan");
    let first_scan_ms = started.elapsed().as_secs_f64() * 1e3;
    assert_eq!(first.len(), 50);

    #[cfg(feature = "postgres")]
    let pg = postgres::Bench::start(options.clone(), n).await;
    #[cfg(not(feature = "postgres"))]
    println!("postgres: skipped (build the bench with --features postgres, as make bench does)");

    let kinds: [(&str, MakeFilter); 3] = [
        (
            "task_id (1% of records)",
            Box::new(|q| json!({"task_id": format!("task-{}", q as u64 % TASKS)})),
        ),
        (
            "biz_id (one record)",
            Box::new(move |q| json!({"biz_id": format!("call_{}", (q as u64 * 7919) % n)})),
        ),
        (
            "context_type + tool_name (20%)",
            Box::new(|q| json!({"context_type": "tool_result", "tool_name": TOOLS[q % 5]})),
        ),
    ];
    let mut results = Vec::new();
    println!("workspace queries over {n} records on disk, limit 50: p50 / p99 ms over {queries} queries each");
    for (name, make) in &kinds {
        let mut row = json!({"query": name});
        #[allow(unused_mut)]
        let mut hosts = vec![("sqlite", &indexed), ("scan", &scanning)];
        #[cfg(feature = "postgres")]
        if let Some(pg) = &pg {
            hosts.push(("postgres", &pg.workspace));
            hosts.push(("postgres_counting", &pg.counting));
        }
        for (host, ws) in hosts {
            let count = if host == "scan" {
                queries.min(30)
            } else {
                queries
            };
            let mut samples = Vec::with_capacity(count);
            for q in 0..count {
                let query = Query::new(filter(make(q)));
                let t = Instant::now();
                let hits = ws.query_artifacts(&query).await.expect("query");
                samples.push(t.elapsed().as_secs_f64() * 1e3);
                assert!(!hits.is_empty());
            }
            let (p50, p99) = (
                percentile(&mut samples, 0.5),
                percentile(&mut samples, 0.99),
            );
            row[host] = json!({"p50_ms": p50, "p99_ms": p99, "n": count});
            println!("  {name:<32} {host:<17} p50 {p50:>8.3}  p99 {p99:>8.3}");
        }
        #[cfg(feature = "postgres")]
        if let Some(pg) = &pg {
            let (p50, p99) = pg.planner_plan(make, queries).await;
            row["postgres_planner"] = json!({"p50_ms": p50, "p99_ms": p99, "n": queries});
            let host = "postgres_planner";
            println!("  {name:<32} {host:<17} p50 {p50:>8.3}  p99 {p99:>8.3}");
        }
        results.push(row);
    }
    println!("  scan's first query (reads every record): {first_scan_ms:.0} ms");
    #[allow(unused_mut)]
    let mut report = json!({
        "records": n, "store_seconds": store_s, "first_scan_ms": first_scan_ms, "queries": results,
    });
    #[cfg(feature = "postgres")]
    if let Some(pg) = &pg {
        report["postgres"] = pg.report();
    }
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&out).expect("target/bench");
    std::fs::write(out.join("workspace.json"), report.to_string()).expect("workspace.json");
}
