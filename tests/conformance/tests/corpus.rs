//! Real agent transcripts (`../shared/corpus` beside the repository, or
//! `$TOOL_OFFLOAD_CORPUS`) through the tokio host's batch offload, with
//! `TokioFileWriter` on a fresh temporary directory per file and threshold. Every result
//! is checked against the format rules independently of the crate, and the canonical
//! outcomes are recorded for `tests/cross-host.mjs` to compare with the npm package
//! (`host-node/test/corpus.test.ts`). Skipped, with a line on stderr, when the corpus is
//! absent.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use tool_offload::{json, offload_tool_results, BatchOptions, TokioFileWriter, Value};
use tool_offload_conformance::conformance_dir;

/// The thresholds every corpus file is offloaded at (`None`: the default, 100).
const THRESHOLDS: [Option<usize>; 2] = [None, Some(4000)];
const DEFAULT: usize = 100;
const PLACEHOLDER_START: &str = "[Content offloaded to: ./";

/// Shown even though libtest captures `eprintln!` of passing tests.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn repo() -> PathBuf {
    normalise(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// `$TOOL_OFFLOAD_CORPUS` (relative to the repository root), else `../shared/corpus`.
fn corpus_dir() -> PathBuf {
    match std::env::var_os("TOOL_OFFLOAD_CORPUS") {
        Some(dir) if !dir.is_empty() => normalise(&repo().join(dir)),
        _ => normalise(&repo().join("../shared/corpus")),
    }
}

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

/// Every `.json` file under `dir`, as `/`-separated relative paths in byte order.
fn corpus_files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable corpus directory") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                walk(root, &path, found);
            } else if path.extension().is_some_and(|e| e == "json") {
                let rel = path.strip_prefix(root).expect("under root");
                let parts: Vec<&str> = rel
                    .components()
                    .map(|c| c.as_os_str().to_str().expect("utf-8 name"))
                    .collect();
                found.push(parts.join("/"));
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, dir, &mut found);
    found.sort();
    found
}

/// Where a tool result's content sits in one message, by the format rules alone.
struct Slot {
    /// Block index in `content` (Anthropic), or `None` for the message itself.
    block: Option<usize>,
    /// `content`, or `output` (OpenAI Responses `function_call_output`).
    field: &'static str,
}

fn slots(message: &Value) -> Vec<Slot> {
    let whole = |field| vec![Slot { block: None, field }];
    if message.get("role").and_then(Value::as_str) == Some("tool") {
        return whole("content");
    }
    if message.get("type").and_then(Value::as_str) == Some("function_call_output") {
        return whole("output");
    }
    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
        return Vec::new();
    };
    (0..blocks.len())
        .filter(|&i| blocks[i].get("type").and_then(Value::as_str) == Some("tool_result"))
        .map(|i| Slot {
            block: Some(i),
            field: "content",
        })
        .collect()
}

fn holder<'a>(message: &'a Value, slot: &Slot) -> &'a Value {
    match slot.block {
        Some(i) => &message["content"][i],
        None => message,
    }
}

/// What is measured and written: a string as is, an array as its JSON (serde_json's
/// compact form, which equals `JSON.stringify` for the text blocks of transcripts),
/// missing as "".
fn text_of(content: Option<&Value>) -> String {
    match content {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(array @ Value::Array(_)) => array.to_string(),
        Some(other) => panic!("content is neither string nor array: {other}"),
    }
}

#[derive(Default)]
struct Totals {
    messages: usize,
    results: usize,
    offloaded: usize,
    freed: u64,
    time: Duration,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokio_host_offloads_every_corpus_transcript() {
    let dir = corpus_dir();
    let record_path = conformance_dir().join("corpus-tokio.json");
    // A stale record must not outlive a skipped or failed run.
    let _ = std::fs::remove_file(&record_path);
    if !dir.exists() {
        say(&format!(
            "corpus not found at {}: skipping (set TOOL_OFFLOAD_CORPUS to run it)",
            dir.display()
        ));
        return;
    }
    let files = corpus_files(&dir);
    assert!(
        !files.is_empty(),
        "no .json files in the corpus at {}",
        dir.display()
    );
    let mut outcomes = BTreeMap::new();
    let mut problems = Vec::new();
    for threshold in THRESHOLDS {
        let limit = threshold.unwrap_or(DEFAULT);
        let mut totals = Totals::default();
        for file in &files {
            let key = format!("{file}@{limit}");
            let mut problem = |what: String| problems.push(format!("{key}: {what}"));
            let text = std::fs::read_to_string(dir.join(file)).expect("readable corpus file");
            let input = json::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
            let input = input
                .as_array()
                .unwrap_or_else(|| panic!("{file} is not a JSON array"));
            let before = json::stringify(&Value::Array(input.clone()));
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().to_str().expect("utf-8 temp dir").to_owned();
            let mut options = BatchOptions::at(&out);
            if let Some(t) = threshold {
                options.threshold = t;
            }

            let started = Instant::now();
            let r = offload_tool_results(input, &options, &TokioFileWriter::new())
                .await
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            totals.time += started.elapsed();
            totals.messages += input.len();

            if json::stringify(&Value::Array(input.clone())) != before {
                problem("the input was modified".into());
            }
            assert_eq!(r.messages.len(), input.len(), "{key}: message count");
            let mut names = Vec::new();
            let mut freed = 0u64;
            for (i, (message, result)) in input.iter().zip(&r.messages).enumerate() {
                let mut restored = result.as_ref().clone();
                let mut changed = false;
                for slot in slots(message) {
                    let original_value = holder(message, &slot).get(slot.field);
                    let original = text_of(original_value);
                    let chars = original.encode_utf16().count();
                    totals.results += 1;
                    let got = holder(result, &slot)
                        .get(slot.field)
                        .and_then(Value::as_str);
                    let name = got
                        .and_then(|g| g.strip_prefix(PLACEHOLDER_START))
                        .and_then(|g| g.strip_suffix(']'))
                        .filter(|n| !n.contains('/'));
                    if (chars > 0 && chars >= limit) != name.is_some() {
                        let what = if name.is_some() { "offloaded" } else { "kept" };
                        problem(format!("messages[{i}] result of {chars} units: {what}"));
                    }
                    let Some(name) = name else { continue };
                    changed = true;
                    names.push(name.to_owned());
                    freed += chars as u64;
                    match std::fs::read(tmp.path().join(name)) {
                        Err(e) => problem(format!("messages[{i}]: placeholder names {name}: {e}")),
                        Ok(bytes) if bytes != original.as_bytes() => {
                            problem(format!("{name} differs from the original content"))
                        }
                        Ok(_) => {}
                    }
                    let target = match slot.block {
                        Some(b) => &mut restored["content"][b],
                        None => &mut restored,
                    };
                    target[slot.field] = original_value.cloned().unwrap_or(Value::Null);
                }
                let same_object = matches!(result, Cow::Borrowed(b) if std::ptr::eq(*b, message));
                if !changed && !same_object {
                    problem(format!("messages[{i}] is unchanged but not borrowed"));
                }
                if changed && json::stringify(&restored) != json::stringify(message) {
                    problem(format!(
                        "messages[{i}] differs from the input beyond its offloaded contents"
                    ));
                }
            }
            if r.offloaded_count != names.len() || r.files.len() != names.len() {
                problem(format!(
                    "offloaded_count {}, files {}, placeholders {}",
                    r.offloaded_count,
                    r.files.len(),
                    names.len()
                ));
            }
            if r.freed_chars != freed {
                problem(format!(
                    "freed_chars {}, original contents {freed}",
                    r.freed_chars
                ));
            }
            let expected_files: Vec<String> = names.iter().map(|n| format!("{out}/{n}")).collect();
            assert_eq!(
                r.files, expected_files,
                "{key}: files are the placeholders' files, in walk order"
            );
            let mut on_disk: Vec<String> = std::fs::read_dir(tmp.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            on_disk.sort();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(
                on_disk, sorted,
                "{key}: exactly the named files are on disk, none overwritten"
            );
            totals.offloaded += r.offloaded_count;
            totals.freed += r.freed_chars;

            let mut outcome = tool_offload_core::Map::new();
            let messages = r.messages.iter().map(|m| m.as_ref().clone()).collect();
            outcome.insert("messages".into(), Value::Array(messages));
            outcome.insert("offloadedCount".into(), r.offloaded_count.into());
            outcome.insert("freedChars".into(), r.freed_chars.into());
            outcome.insert(
                "files".into(),
                names.iter().map(|n| Value::from(n.as_str())).collect(),
            );
            outcomes.insert(key, json::stringify(&Value::Object(outcome)));
        }
        say(&format!(
            "corpus, threshold {limit}: {} files, {} messages, {} tool results, {} offloaded, \
             {} chars freed, {} ms in offload_tool_results",
            files.len(),
            totals.messages,
            totals.results,
            totals.offloaded,
            totals.freed,
            totals.time.as_millis()
        ));
    }
    record(&record_path, &dir, &files, &outcomes);
    let shown: Vec<_> = problems.iter().take(20).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{shown:#?}",
        problems.len()
    );
}

/// `{"corpus": <names and sizes>, "outcomes": {<file>@<threshold>: <outcome>}}`.
fn record(path: &Path, dir: &Path, files: &[String], outcomes: &BTreeMap<String, String>) {
    let fingerprint: Vec<String> = files
        .iter()
        .map(|f| format!("{f}:{}", std::fs::metadata(dir.join(f)).unwrap().len()))
        .collect();
    let outcomes = outcomes
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let mut map = tool_offload_core::Map::new();
    map.insert("corpus".into(), fingerprint.join("\n").into());
    map.insert("outcomes".into(), Value::Object(outcomes));
    std::fs::create_dir_all(path.parent().unwrap()).expect("create target/conformance");
    std::fs::write(path, json::stringify(&Value::Object(map))).expect("record corpus outcomes");
}
