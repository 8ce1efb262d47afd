//! Batch offload over the transcript corpus, native:
//!
//! ```text
//! cargo bench -p tool-offload --bench batch [-- [--json] [--corpus DIR] [--threshold N] [--dir DIR] [--quick]]
//! ```
//!
//! The corpus is `DIR` (default `../shared/corpus` from the repository root, else the
//! generated stand-in `target/bench/corpus`, written by `node bench/gen-corpus.mjs` when
//! missing): `anthropic/*.json` and `openai/*.json`, each one conversation. One iteration
//! offloads every conversation, each into its own directory. Cases:
//!
//! - `core_memory`: `tool_offload::core::offload_tool_results` with a writer that records
//!   each file's path and size but does not copy its content, like plain JS's
//!   `Map.set(path, data)` (compute); `core_null`: the same with a writer that keeps nothing;
//! - `tokio_disk`: `tool_offload::offload_tool_results` with a `TokioFileWriter` (atomic writes);
//! - `raw_tokio_write`: `tokio::fs::create_dir_all` + `tokio::fs::write` of the same bytes to
//!   the same paths (the disk floor); `raw_tokio_atomic`: the same with a temporary file and
//!   `rename`, as `TokioFileWriter` does; `raw_blocking_atomic`: the same in one
//!   `spawn_blocking` per file; `raw_std_write`: `std::fs::write`, no runtime;
//! - `no_offload`: threshold above every result (per-message cost of reading the conversation);
//! - `count_floor`: only counting the UTF-16 units of the offloaded content, which
//!   `freed_chars` reports exactly: the least `core_memory` can cost;
//! - `one_mb_batch` / `one_mb_direct`: latency of offloading one 1 MB result in memory.
//!
//! `--profile core_memory|no_offload` loops that case for 10 s instead, for `perf record`.
//!
//! Numbers, not pass/fail: `bench/run.mjs` runs this with `--json` next to the Node
//! measurements and prints the ratios; bench/README.md records them.

#[path = "common/null_io.rs"]
mod null_io;

use null_io::{NullIo, SizesIo};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tool_offload::core::{self, BatchOptions, MemoryWriter};
use tool_offload::{FileReader, FileWriter, TokioFileWriter};

struct Conversation {
    name: String,
    messages: Vec<Value>,
}

/// What one conversation writes: its directory name and `(file name, content)`s.
struct Files {
    dir: String,
    files: Vec<(String, String)>,
}

struct Args {
    json: bool,
    corpus: Option<PathBuf>,
    threshold: usize,
    quick: bool,
    /// Loop one in-memory case for this long (for `perf record`), then exit.
    profile: Option<String>,
    /// Where the disk cases write; kept (the caller removes it). Default: a temporary
    /// directory, removed at exit.
    dir: Option<PathBuf>,
}

fn args() -> Args {
    let mut args = Args {
        json: false,
        corpus: None,
        threshold: 4000,
        quick: false,
        profile: None,
        dir: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => args.json = true,
            "--quick" => args.quick = true,
            "--corpus" => args.corpus = it.next().map(PathBuf::from),
            "--profile" => args.profile = it.next(),
            "--dir" => args.dir = it.next().map(PathBuf::from),
            "--threshold" => {
                args.threshold = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--threshold takes a number")
            }
            // `cargo bench` passes `--bench`; libtest-style filters are ignored.
            _ => {}
        }
    }
    args
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host-tokio is inside the repository")
        .to_path_buf()
}

fn corpus_dir(given: Option<PathBuf>) -> PathBuf {
    if let Some(dir) = given {
        return dir;
    }
    let root = repo_root();
    let shared = root.join("../shared/corpus");
    if shared.join("anthropic").is_dir() {
        return shared;
    }
    let generated = root.join("target/bench/corpus");
    if !generated.join("anthropic").is_dir() {
        let status = std::process::Command::new("node")
            .arg(root.join("bench/gen-corpus.mjs"))
            .arg(&generated)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run node bench/gen-corpus.mjs");
        assert!(status.success(), "node bench/gen-corpus.mjs failed");
    }
    generated
}

fn load(dir: &Path) -> Vec<Conversation> {
    let mut conversations = Vec::new();
    for format in ["anthropic", "openai"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join(format))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(format).display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let Value::Array(messages) = serde_json::from_str(&text).unwrap() else {
                panic!("{} is not a JSON array", path.display());
            };
            let stem = path.file_stem().unwrap().to_str().unwrap();
            conversations.push(Conversation {
                name: format!("{format}-{stem}"),
                messages,
            });
        }
    }
    conversations
}

/// Median and spread of samples, in the unit `scale` converts seconds to.
fn stats(samples: &mut [Duration], scale: f64) -> Value {
    samples.sort();
    let pct =
        |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize].as_secs_f64() * scale;
    json!({
        "n": samples.len(),
        "median": pct(0.5),
        "p10": pct(0.1),
        "p90": pct(0.9),
        "p99": pct(0.99),
        "min": pct(0.0),
    })
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let t = Instant::now();
    std::hint::black_box(f());
    t.elapsed()
}

/// The compute case: files recorded by path and size, not copied, as the plain-JS
/// baseline's `Map` writer keeps references to its strings. (`MemoryWriter` would copy
/// all 8.6 MB of the corpus's offloaded content each iteration: a third of the time.)
fn memory_batch(conversations: &[Conversation], threshold: usize) -> (usize, u64) {
    batch_with(conversations, threshold, &SizesIo::default())
}

fn batch_with(
    conversations: &[Conversation],
    threshold: usize,
    writer: &(impl FileWriter + FileReader),
) -> (usize, u64) {
    let mut counts = (0, 0);
    for c in conversations {
        let dir = format!("out/{}", c.name);
        let options = BatchOptions {
            output_dir: &dir,
            cwd: "/bench",
            threshold,
            redact: false.into(),
        };
        let done =
            futures_executor::block_on(core::offload_tool_results(&c.messages, &options, writer))
                .unwrap();
        counts.0 += done.offloaded_count;
        counts.1 += done.freed_chars;
        std::hint::black_box(&done.messages);
    }
    counts
}

async fn tokio_batch(conversations: &[Conversation], root: &Path, threshold: usize) {
    let writer = TokioFileWriter::new();
    for c in conversations {
        let dir = root.join(&c.name);
        let options = BatchOptions {
            threshold,
            ..BatchOptions::at(dir.to_str().expect("a UTF-8 path"))
        };
        let done = tool_offload::offload_tool_results(&c.messages, &options, &writer)
            .await
            .unwrap();
        std::hint::black_box(&done.messages);
    }
}

async fn raw_tokio_write(files: &[Files], root: &Path) {
    for f in files.iter().filter(|f| !f.files.is_empty()) {
        let dir = root.join(&f.dir);
        tokio::fs::create_dir_all(&dir).await.unwrap();
        for (name, data) in &f.files {
            tokio::fs::write(dir.join(name), data.as_bytes())
                .await
                .unwrap();
        }
    }
}

async fn raw_tokio_atomic(files: &[Files], root: &Path) {
    for f in files.iter().filter(|f| !f.files.is_empty()) {
        let dir = root.join(&f.dir);
        tokio::fs::create_dir_all(&dir).await.unwrap();
        for (i, (name, data)) in f.files.iter().enumerate() {
            let temp = dir.join(format!(".tmp-{i}"));
            let mut file = tokio::fs::File::create(&temp).await.unwrap();
            file.write_all(data.as_bytes()).await.unwrap();
            file.flush().await.unwrap();
            drop(file);
            tokio::fs::rename(&temp, dir.join(name)).await.unwrap();
        }
    }
}

/// Temporary file + rename like `TokioFileWriter`, but in one `spawn_blocking` hop per file
/// (as `tokio::fs::write` does) instead of one per operation.
async fn raw_blocking_atomic(files: &[Files], root: &Path) {
    for f in files.iter().filter(|f| !f.files.is_empty()) {
        let dir = root.join(&f.dir);
        tokio::fs::create_dir_all(&dir).await.unwrap();
        for (i, (name, data)) in f.files.iter().enumerate() {
            let temp = dir.join(format!(".tmp-{i}"));
            let path = dir.join(name);
            let data = data.clone(); // owned, as tokio::fs::write copies its input too
            tokio::task::spawn_blocking(move || {
                std::fs::write(&temp, data.as_bytes())?;
                std::fs::rename(&temp, &path)
            })
            .await
            .unwrap()
            .unwrap();
        }
    }
}

fn raw_std_write(files: &[Files], root: &Path) {
    for f in files.iter().filter(|f| !f.files.is_empty()) {
        let dir = root.join(&f.dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, data) in &f.files {
            std::fs::write(dir.join(name), data.as_bytes()).unwrap();
        }
    }
}

/// The files each conversation writes, from an in-memory run.
fn planned_files(conversations: &[Conversation], threshold: usize) -> Vec<Files> {
    conversations
        .iter()
        .map(|c| {
            let writer = MemoryWriter::new();
            let options = BatchOptions {
                output_dir: "/o",
                cwd: "/",
                threshold,
                redact: false.into(),
            };
            let done = futures_executor::block_on(core::offload_tool_results(
                &c.messages,
                &options,
                &writer,
            ))
            .unwrap();
            let files = done
                .files
                .iter()
                .map(|p| {
                    (
                        p.strip_prefix("/o/").unwrap().to_owned(),
                        writer.read(p).unwrap(),
                    )
                })
                .collect();
            Files {
                dir: c.name.clone(),
                files,
            }
        })
        .collect()
}

fn one_mb_message() -> Value {
    let line = "   Compiling serde v1.0.219 (build step 17 of 240) — 😀 ok\n";
    let content: String = line.chars().cycle().take(1_000_000).collect();
    json!({"role": "user", "content": [
        {"type": "text", "text": "here is the log"},
        {"type": "tool_result", "tool_use_id": "toolu_bench", "content": content}
    ]})
}

fn main() {
    let args = args();
    let dir = corpus_dir(args.corpus.clone());
    let conversations = load(&dir);
    let threshold = args.threshold;
    // The compute cases take ~1.5 ms each: --quick shortens only the disk and latency
    // cases (10 samples after 5 warm-ups had medians 20-40 % above a 10 s loop's).
    let (disk_n, memory_n, latency_n) = if args.quick {
        (4, 60, 50)
    } else {
        (10, 60, 300)
    };

    if let Some(case) = &args.profile {
        let threshold = match case.as_str() {
            "core_memory" => threshold,
            "no_offload" => usize::MAX,
            other => panic!("--profile takes core_memory or no_offload, not {other}"),
        };
        let start = Instant::now();
        let mut n = 0;
        while start.elapsed() < Duration::from_secs(10) {
            memory_batch(&conversations, threshold);
            n += 1;
        }
        println!("{case}: {n} iterations, {:.3} ms each", 1e4 / n as f64);
        return;
    }
    let messages: usize = conversations.iter().map(|c| c.messages.len()).sum();
    let (mut tool_results, mut tool_result_chars) = (0usize, 0u64);
    for c in &conversations {
        let options = BatchOptions {
            output_dir: "/o",
            cwd: "/",
            threshold: usize::MAX,
            redact: false.into(),
        };
        let done = futures_executor::block_on(core::offload_tool_results(
            &c.messages,
            &options,
            &MemoryWriter::new(),
        ))
        .unwrap();
        tool_results += done.tool_results;
        tool_result_chars += done.tool_result_chars;
    }
    let files = planned_files(&conversations, threshold);
    let offloaded: usize = files.iter().map(|f| f.files.len()).sum();
    let offloaded_bytes: usize = files
        .iter()
        .flat_map(|f| &f.files)
        .map(|(_, d)| d.len())
        .sum();
    let (count, freed) = memory_batch(&conversations, threshold);
    assert_eq!(count, offloaded);

    let mut cases = serde_json::Map::new();

    // Compute: in-memory writer.
    for _ in 0..30 {
        memory_batch(&conversations, threshold);
    }
    let mut samples: Vec<Duration> = (0..memory_n)
        .map(|_| time(|| memory_batch(&conversations, threshold)))
        .collect();
    cases.insert("core_memory".into(), stats(&mut samples, 1e3));

    let mut samples: Vec<Duration> = (0..memory_n)
        .map(|_| time(|| batch_with(&conversations, threshold, &NullIo)))
        .collect();
    cases.insert("core_null".into(), stats(&mut samples, 1e3));

    let mut samples: Vec<Duration> = (0..memory_n)
        .map(|_| time(|| memory_batch(&conversations, usize::MAX)))
        .collect();
    let mut no_offload = stats(&mut samples, 1e3);
    no_offload["per_message_us"] =
        json!(no_offload["median"].as_f64().unwrap() * 1e3 / messages as f64);
    cases.insert("no_offload".into(), no_offload);

    // The least an exact implementation must do: count the UTF-16 units of the content it
    // offloads (`freed_chars`). Plain JS reads `.length`; Rust must read every byte.
    let texts: Vec<&str> = files
        .iter()
        .flat_map(|f| &f.files)
        .map(|(_, d)| d.as_str())
        .collect();
    let count = || texts.iter().map(|t| core::utf16_len(t)).sum::<usize>();
    assert_eq!(count() as u64, freed);
    let mut samples: Vec<Duration> = (0..memory_n).map(|_| time(count)).collect();
    cases.insert("count_floor".into(), stats(&mut samples, 1e3));

    // Disk: the host and the raw floors, interleaved so that drift hits all alike; each
    // iteration writes into a fresh directory. Nothing is deleted until the end: on ext4,
    // creating files right after deleting tens of thousands nearby is several times
    // slower for minutes, which would make the cases measure each other's clean-up.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let temporary;
    let disk_root = match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).unwrap();
            dir.clone()
        }
        None => {
            temporary = tempfile::tempdir().unwrap();
            temporary.path().to_path_buf()
        }
    };
    // Dirty pages of earlier work are not these cases' to write back.
    let _ = std::process::Command::new("sync").status();
    let names = [
        "tokio_disk",
        "raw_tokio_write",
        "raw_tokio_atomic",
        "raw_blocking_atomic",
        "raw_std_write",
    ];
    let mut disk: Vec<Vec<Duration>> = vec![Vec::new(); names.len()];
    for i in 0..disk_n + 2 {
        for k in 0..names.len() {
            let variant = (i + k) % names.len();
            let root = disk_root.join(format!("{i}-{variant}"));
            let elapsed = time(|| match variant {
                0 => rt.block_on(tokio_batch(&conversations, &root, threshold)),
                1 => rt.block_on(raw_tokio_write(&files, &root)),
                2 => rt.block_on(raw_tokio_atomic(&files, &root)),
                3 => rt.block_on(raw_blocking_atomic(&files, &root)),
                _ => raw_std_write(&files, &root),
            });
            if i >= 2 {
                disk[variant].push(elapsed); // the first two rounds warm up
            }
        }
    }
    // The host wrote what the floors wrote.
    let check = disk_root.join("check");
    rt.block_on(tokio_batch(&conversations, &check, threshold));
    for f in &files {
        for (name, data) in &f.files {
            let written = std::fs::read_to_string(check.join(&f.dir).join(name)).unwrap();
            assert!(written == *data, "{}/{name} differs", f.dir);
        }
    }
    for (name, mut samples) in names.iter().zip(disk) {
        cases.insert((*name).into(), stats(&mut samples, 1e3));
    }

    // One 1 MB result, in memory.
    let big = one_mb_message();
    let one = std::slice::from_ref(&big);
    let latency = |f: &dyn Fn()| -> Vec<Duration> {
        for _ in 0..20 {
            f();
        }
        (0..latency_n).map(|_| time(f)).collect()
    };
    let mut samples = latency(&|| {
        let options = BatchOptions::new("out", "/bench");
        let done = futures_executor::block_on(core::offload_tool_results(
            one,
            &options,
            &MemoryWriter::new(),
        ))
        .unwrap();
        assert_eq!(done.offloaded_count, 1);
    });
    cases.insert("one_mb_batch".into(), stats(&mut samples, 1e6));
    let mut samples = latency(&|| {
        let done = futures_executor::block_on(core::offload_tool_result(
            &big,
            "s",
            "out",
            "/bench",
            &MemoryWriter::new(),
        ))
        .unwrap();
        std::hint::black_box(done);
    });
    cases.insert("one_mb_direct".into(), stats(&mut samples, 1e6));

    let report = json!({
        "corpus": {
            "dir": dir.canonicalize().unwrap_or(dir.clone()).display().to_string(),
            "conversations": conversations.len(),
            "messages": messages,
            "tool_results": tool_results,
            "tool_result_chars": tool_result_chars,
            "offloaded": offloaded,
            "freed_chars": freed,
            "offloaded_bytes": offloaded_bytes,
        },
        "threshold": threshold,
        "runtime": "tokio multi-thread (default worker count)",
        "cases": cases,
    });
    if args.json {
        println!("{report}");
    } else {
        print_table(&report);
    }
}

fn print_table(report: &Value) {
    let c = &report["corpus"];
    println!(
        "batch offload, native — {} conversations, {} messages, {} tool results ({} UTF-16 units); threshold {}: {} offloaded ({} bytes)",
        c["conversations"], c["messages"], c["tool_results"], c["tool_result_chars"], report["threshold"], c["offloaded"], c["offloaded_bytes"]
    );
    let cases = &report["cases"];
    for name in [
        "core_memory",
        "core_null",
        "tokio_disk",
        "raw_tokio_write",
        "raw_tokio_atomic",
        "raw_blocking_atomic",
        "raw_std_write",
        "no_offload",
        "count_floor",
    ] {
        let s = &cases[name];
        println!(
            "{name:<18} median {:>8.2} ms   p10 {:>8.2}   p90 {:>8.2}   (n={})",
            s["median"].as_f64().unwrap(),
            s["p10"].as_f64().unwrap(),
            s["p90"].as_f64().unwrap(),
            s["n"]
        );
    }
    println!(
        "no_offload per message: {:.3} µs",
        cases["no_offload"]["per_message_us"].as_f64().unwrap()
    );
    for name in ["one_mb_batch", "one_mb_direct"] {
        let s = &cases[name];
        println!(
            "{name:<18} p50 {:>8.1} µs   p99 {:>8.1} µs   (n={})",
            s["median"].as_f64().unwrap(),
            s["p99"].as_f64().unwrap(),
            s["n"]
        );
    }
    let ratio = |a: &str, b: &str| {
        cases[a]["median"].as_f64().unwrap() / cases[b]["median"].as_f64().unwrap()
    };
    println!(
        "tokio_disk / raw_tokio_write = {:.2}×   tokio_disk / raw_tokio_atomic = {:.2}×",
        ratio("tokio_disk", "raw_tokio_write"),
        ratio("tokio_disk", "raw_tokio_atomic")
    );
}
