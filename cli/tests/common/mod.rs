//! Helpers shared by the CLI's test files: run the binary, read what it wrote, and what
//! the library would write for the same input.
// Each test file uses its own subset of these.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::json;
use tool_offload::json::stringify;
use tool_offload::{BatchOptions, MemoryWriter, Value};

/// Run the tool in `dir` with `args`, feeding `stdin`.
pub fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tool-offload"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The CLI may exit (rightly) before reading all of stdin, e.g. on an early error.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(out: &Output) -> &str {
    std::str::from_utf8(&out.stdout).unwrap()
}

pub fn stderr(out: &Output) -> &str {
    std::str::from_utf8(&out.stderr).unwrap()
}

/// A canonical temporary directory, so paths compare equal to what `getcwd` returns.
pub fn tempdir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    (tmp, root)
}

/// Every file under `dir` (recursively), by path relative to it, with its contents.
pub fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_str().unwrap().to_owned();
                found.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    found
}

pub fn anthropic(id: &str, content: &str) -> Value {
    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content}]})
}

pub fn write_json(path: &Path, messages: &[Value]) {
    std::fs::write(path, stringify(&Value::Array(messages.to_vec()))).unwrap();
}

pub fn write_jsonl(path: &Path, messages: &[Value]) {
    let lines: Vec<String> = messages.iter().map(stringify).collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// What the library does with `messages`: the output text and the files by path.
pub fn library(
    messages: &[Value],
    out: &Path,
    threshold: usize,
) -> (String, BTreeMap<String, String>) {
    let writer = MemoryWriter::new();
    let out = out.to_str().expect("a UTF-8 path");
    let options = BatchOptions {
        threshold,
        ..BatchOptions::at(out)
    };
    let done = futures_executor::block_on(tool_offload::offload_tool_results(
        messages, &options, &writer,
    ))
    .unwrap();
    let output: Vec<Value> = done
        .messages
        .iter()
        .map(|m| m.clone().into_owned())
        .collect();
    let files = done
        .files
        .iter()
        .map(|f| (f.clone(), writer.read(f).unwrap()))
        .collect();
    (stringify(&Value::Array(output)) + "\n", files)
}

/// A conversation in all three formats, with a repeated id and a non-content number.
pub fn mixed() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "hi", "n": 1.0}),
        anthropic("t1", &"a".repeat(150)),
        json!({"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "b".repeat(120)}]}),
        json!({"type": "function_call_output", "call_id": "t1", "output": "c".repeat(99)}),
        json!({"role": "user", "content": [
            {"type": "text", "text": "é"},
            {"type": "tool_result", "tool_use_id": "t1", "content": "d".repeat(100)},
            {"type": "tool_result", "tool_use_id": "t2", "content": "short"}
        ]}),
    ]
}

pub fn assert_one_line_error(out: &Output, code: i32, contains: &[&str]) {
    assert_eq!(out.status.code(), Some(code), "stderr: {}", stderr(out));
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("tool-offload: "), "{err}");
    for part in contains {
        assert!(err.contains(part), "{err:?} lacks {part:?}");
    }
}
