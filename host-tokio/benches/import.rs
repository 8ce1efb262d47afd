//! Export and import of a large conversation bundle, in memory:
//! `cargo bench -p tool-offload --bench import [-- --artifacts N --rounds R]`
//! (default 100,000 artifacts, 5 rounds). Prints the minimum and median wall time of
//! each phase, and of the time on a CPU (Linux); numbers, not pass/fail. bench/README.md records them.
//!
//! The bundle is what `export_conversation` makes of N tool messages, each a summary
//! naming its own artifact. "validation" imports it through an IO where no file exists
//! and writes cost nothing, so it times only the checks (format, SHA-256 of every
//! artifact, every ref in scope and unique, every ref the messages name present);
//! the other import phases write into a fresh `MemoryWriter`, then over identical files.

#[path = "common/null_io.rs"]
mod null_io;

use null_io::NullIo;

use std::time::{Duration, Instant};

use futures_executor::block_on;
use serde_json::json;
use tool_offload::core::materialize::{import_conversation, Materializer, MaterializerOptions};
use tool_offload::{FileWriter, MemoryWriter, Value};

const CONVERSATION: &str = "bench-conv";

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut n, mut rounds) = (100_000, 5);
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse().ok());
        match arg.as_str() {
            "--artifacts" => n = value().expect("--artifacts N"),
            "--rounds" => rounds = value().expect("--rounds R"),
            _ => {}
        }
    }
    println!(
        "conversation export/import, {n} artifacts, in memory (tool-offload-core); min / median of {rounds}"
    );

    let source = MemoryWriter::new();
    let dir = format!("/a/context/{CONVERSATION}/artifacts/tool");
    block_on(source.mkdir(&dir)).unwrap();
    let mut messages = Vec::with_capacity(n);
    for i in 0..n {
        let id = format!("call_{i}");
        let content = format!("line one of output {i}\nline two\n{}\n", "x".repeat(120));
        block_on(source.write_file(&format!("{dir}/{id}.txt"), &content)).unwrap();
        let reference = format!("ctx://{CONVERSATION}/tool/{id}.txt");
        messages.push(json!({
            "role": "tool",
            "tool_call_id": id,
            "content": format!(
                "[Output of bash (call {id}) stored as {reference} and not shown in full: read it with context_read, context_tail or context_grep.]\nIf you need more: context_tail(\"{reference}\", 200)"
            ),
        }));
    }
    let messages = Value::Array(messages);
    let m = Materializer::new(MaterializerOptions::new("/a", CONVERSATION, "/")).unwrap();

    let bundle = block_on(m.export_conversation(&messages, &source)).unwrap();
    assert_eq!(bundle["artifacts"].as_array().map(Vec::len), Some(n));
    report("export_conversation", rounds, || {
        block_on(m.export_conversation(&messages, &source)).unwrap();
    });
    report("import: validation only (no-op IO)", rounds, || {
        let imported = block_on(import_conversation(&bundle, "/b", "/", &NullIo)).unwrap();
        assert_eq!(imported.paths.len(), n);
    });
    report("import into an empty MemoryWriter", rounds, || {
        block_on(import_conversation(
            &bundle,
            "/b",
            "/",
            &MemoryWriter::new(),
        ))
        .unwrap();
    });
    let target = MemoryWriter::new();
    block_on(import_conversation(&bundle, "/b", "/", &target)).unwrap();
    report("import again (files identical, read back)", rounds, || {
        block_on(import_conversation(&bundle, "/b", "/", &target)).unwrap();
    });
}

fn report(what: &str, rounds: usize, mut run: impl FnMut()) {
    let (mut wall, mut cpu): (Vec<Duration>, Vec<Option<Duration>>) = (0..rounds.max(1))
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_time());
            run();
            (t.elapsed(), c.zip(cpu_time()).map(|(a, b)| b - a))
        })
        .unzip();
    wall.sort();
    cpu.sort();
    let ms = |d: Duration| format!("{:>8.1} ms", d.as_secs_f64() * 1e3);
    let cpu = match (cpu[0], cpu[cpu.len() / 2]) {
        (Some(min), Some(median)) => format!("   CPU {}  {}", ms(min), ms(median)),
        _ => String::new(),
    };
    println!(
        "{what:<42} wall {}  {}{cpu}",
        ms(wall[0]),
        ms(wall[wall.len() / 2])
    );
}

/// Time this thread has spent on a CPU (Linux schedstat), so that other processes on a
/// shared machine weigh less on the figures than in wall time.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
