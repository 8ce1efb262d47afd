//! Export and import of a large conversation bundle, in memory:
//! `cargo bench -p tool-offload --bench import [-- --artifacts N]` (default 100,000).
//! Prints the wall time of each phase; numbers, not pass/fail. bench/README.md records them.
//!
//! The bundle is what `export_conversation` makes of N tool messages, each a summary
//! naming its own artifact; import validates it (SHA-256 of every artifact, every ref in
//! scope, every ref the messages name present) and writes it into a fresh `MemoryWriter`.

use std::time::{Duration, Instant};

use futures_executor::block_on;
use serde_json::json;
use tool_offload::core::materialize::{import_conversation, Materializer, MaterializerOptions};
use tool_offload::{FileWriter, MemoryWriter, Value};

const CONVERSATION: &str = "bench-conv";

fn main() {
    let mut args = std::env::args().skip(1);
    let mut n = 100_000;
    while let Some(arg) = args.next() {
        if arg == "--artifacts" {
            n = args
                .next()
                .and_then(|v| v.parse().ok())
                .expect("--artifacts N");
        }
    }
    println!("conversation export/import, {n} artifacts, in memory (tool-offload-core)");

    let t = Instant::now();
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
    report("set-up (artifacts and messages)", t.elapsed());

    let m = Materializer::new(MaterializerOptions::new("/a", CONVERSATION, "/")).unwrap();
    let t = Instant::now();
    let bundle = block_on(m.export_conversation(&messages, &source)).unwrap();
    report("export_conversation", t.elapsed());
    assert_eq!(bundle["artifacts"].as_array().map(Vec::len), Some(n));

    let target = MemoryWriter::new();
    let t = Instant::now();
    let imported = block_on(import_conversation(&bundle, "/b", "/", &target)).unwrap();
    report("import_conversation into an empty writer", t.elapsed());
    assert_eq!(imported.paths.len(), n);

    // Again over the identical files: validation plus one read per artifact, no writes.
    let t = Instant::now();
    block_on(import_conversation(&bundle, "/b", "/", &target)).unwrap();
    report("import_conversation again (files identical)", t.elapsed());
}

fn report(what: &str, took: Duration) {
    println!("{what:<48} {:>9.1} ms", took.as_secs_f64() * 1e3);
}
