//! What an exact token count costs beside core's estimate:
//! `cargo bench -p tool-offload --features tokenizer --bench tokens [-- --corpus DIR]`.
//! Counts the tool results of the corpus (every string of over 200 bytes in its JSON
//! files; default `../shared/corpus`, else generated tool output: build logs, JSON and
//! source), with o200k_base and with `estimate_tokens`, 3 rounds each, in this process.
//! Prints MB/s, the ratio of the two, and how far the estimate is from the exact total;
//! numbers, not pass/fail. docs/tokens.md records them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;
use tool_offload::core::estimate_tokens;
use tool_offload::{token_counter, Vocabulary};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut corpus = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    while let Some(arg) = args.next() {
        if arg == "--corpus" {
            corpus = args.next().expect("--corpus DIR").into();
        }
    }
    let (texts, source) = match corpus_texts(&corpus) {
        Some(texts) if !texts.is_empty() => (texts, corpus.display().to_string()),
        _ => (generated(), "generated tool output".to_owned()),
    };
    let bytes: usize = texts.iter().map(String::len).sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "token counts of {} texts, {mb:.1} MB ({source})",
        texts.len()
    );
    let count = token_counter(Vocabulary::O200kBase);
    let started = Instant::now();
    count("warm up: load the vocabulary");
    println!(
        "  o200k_base loaded in {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    let best = |f: &dyn Fn(&str) -> usize| {
        let mut best = f64::MAX;
        let mut total = 0;
        for _ in 0..3 {
            let started = Instant::now();
            total = texts.iter().map(|t| f(t)).sum::<usize>();
            best = best.min(started.elapsed().as_secs_f64());
        }
        (total, mb / best)
    };
    let (exact, exact_speed) = best(&|t| count(t));
    let (estimated, estimate_speed) = best(&|t| estimate_tokens(t));
    println!("  o200k_base:      {exact:>10} tokens, {exact_speed:>6.1} MB/s");
    println!(
        "  estimate_tokens: {estimated:>10} tokens, {estimate_speed:>6.1} MB/s ({:.1}× as fast; total {:+.1} % of exact)",
        estimate_speed / exact_speed,
        (estimated as f64 / exact as f64 - 1.0) * 100.0
    );
}

/// Every string of over 200 bytes in the JSON files under `dir`.
fn corpus_texts(dir: &Path) -> Option<Vec<String>> {
    let mut texts = Vec::new();
    let mut dirs = vec![dir.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                if let Ok(value) = serde_json::from_str::<Value>(&text) {
                    strings(&value, &mut texts);
                }
            }
        }
    }
    Some(texts)
}

fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if s.len() > 200 => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// 10 MB of tool output without a corpus: compiler logs, JSON rows, numbered source.
fn generated() -> Vec<String> {
    (0..300)
        .map(|i| match i % 3 {
            0 => (0..400)
                .map(|l| format!("   Compiling crate-{l} v0.{i}.{l} (/home/dev/src/crate-{l})\nwarning: unused variable: `x{l}` --> src/lib.rs:{l}:9\n"))
                .collect(),
            1 => (0..600)
                .map(|r| format!("{{\"id\":{r},\"sku\":\"SKU-{i}-{r}\",\"price\":{}.{:02},\"tags\":[\"a\",\"b\"]}}\n", r * 7, r % 100))
                .collect(),
            _ => (0..700)
                .map(|l| format!("{l:>6}\u{2192}    let value_{l} = compute(&input[{l}..], Options::default())?;\n"))
                .collect(),
        })
        .collect()
}
