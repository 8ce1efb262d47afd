//! `<persisted-output>` previews in Claude Code logs copied without their `tool-results/`
//! folder: the full text comes back from the `toolUseResult` object Claude Code wrote
//! beside each result (Bash, Read, Grep, Glob, Task, …), as the model saw it.
mod common;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};
use tool_offload::json::{parse, stringify};

use common::*;

/// The `<persisted-output>` block Claude Code 2.1 shows instead of `full`.
fn preview(id: &str, full: &str) -> String {
    let shown: String = full.chars().take(2_000).collect();
    format!(
        "<persisted-output>\nOutput too large ({:.1}KB). Full output saved to: /home/u/.claude/projects/p/s/tool-results/{id}.txt\n\nPreview (first 2KB):\n{shown}\n...\n</persisted-output>",
        full.len() as f64 / 1024.0
    )
}

/// The tool results of the conversation `offload` printed, by id, as text.
fn results(conversation: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for message in parse(conversation).unwrap().as_array().unwrap() {
        for block in message["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" {
                let text = match &block["content"] {
                    Value::String(s) => s.clone(),
                    other => stringify(other),
                };
                out.insert(block["tool_use_id"].as_str().unwrap().to_owned(), text);
            }
        }
    }
    out
}

/// Convert `log` (its lines) with `offload`, nothing offloaded; stderr too.
fn converted(root: &Path, lines: &[Value]) -> (BTreeMap<String, String>, String) {
    let text: String = lines.iter().map(|l| stringify(l) + "\n").collect();
    std::fs::write(root.join("s.jsonl"), text).unwrap();
    let out = run(
        root,
        &[
            "offload",
            "s.jsonl",
            "--out",
            "art",
            "--threshold",
            "100000000",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (results(stdout(&out)), stderr(&out).to_owned())
}

/// A Read and a Bash result persisted by Claude Code, their previews in the log, no
/// `tool-results/` beside it: both come back whole, the Read numbered as the model saw
/// it; an Edit's (not recoverable) is still named as a preview on stderr.
#[test]
fn object_tool_use_results_restore_persisted_previews_without_the_folder() {
    let (_tmp, root) = tempdir();
    let content: String = (1..=4000).map(|i| format!("row {i}\n")).collect();
    let read: String = content
        .split('\n')
        .enumerate()
        .map(|(i, l)| format!("{:>6}→{l}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
        + tool_offload::core::transcript::READ_REMINDER;
    let stdout_text = "compiling crate\n".repeat(3000);
    let event = |content: Value, full: Value| {
        json!({"type": "user", "uuid": "u", "isSidechain": false, "toolUseResult": full,
               "message": {"role": "user", "content": content}})
    };
    let lines = vec![
        json!({"type": "assistant", "uuid": "a", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t_read", "name": "Read", "input": {}},
            {"type": "tool_use", "id": "t_bash", "name": "Bash", "input": {}},
            {"type": "tool_use", "id": "t_edit", "name": "Edit", "input": {}}]}}),
        event(
            json!([{"type": "tool_result", "tool_use_id": "t_read", "content": preview("t_read", &read)}]),
            json!({"type": "text", "file": {"filePath": "/p/r.txt", "content": content, "numLines": 4001, "startLine": 1, "totalLines": 4001}}),
        ),
        event(
            json!([{"type": "tool_result", "tool_use_id": "t_bash", "content": preview("t_bash", &stdout_text)}]),
            json!({"stdout": stdout_text, "stderr": "", "interrupted": false, "isImage": false}),
        ),
        event(
            json!([{"type": "tool_result", "tool_use_id": "t_edit", "content": preview("t_edit", &"e".repeat(60_000))}]),
            json!({"filePath": "/p/e.rs", "oldString": "a", "newString": "b", "originalFile": "a", "structuredPatch": [], "userModified": false, "replaceAll": false}),
        ),
    ];
    let (got, err) = converted(&root, &lines);
    assert_eq!(got["t_read"], read);
    assert_eq!(got["t_bash"], stdout_text);
    assert!(got["t_edit"].starts_with("<persisted-output>"));
    assert!(
        err.contains("1 tool result is a <persisted-output> preview whose"),
        "{err}"
    );
    assert!(err.contains("t_edit") && !err.contains("t_read"), "{err}");
}

/// The real logs of `../shared/corpus/claude-code-persisted` (skipped when absent): each
/// output Claude Code persisted (a file in `tool-results/`) is put back as a preview, the
/// log copied without its folder, and what the conversion restores from the log alone is
/// compared with the persisted file.
#[test]
fn real_persisted_outputs_restore_from_the_log_alone() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let dir = corpus.join("claude-code-persisted");
    if !dir.is_dir() {
        eprintln!("corpus absent: skipped");
        return;
    }
    let (mut total, mut starts, mut exact) = (0, 0, 0);
    let mut logs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    for log in logs {
        let folder = log.with_extension("").join("tool-results");
        let mut persisted = BTreeMap::new();
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let id = path.file_stem().unwrap().to_string_lossy().into_owned();
            persisted.insert(id, std::fs::read_to_string(&path).unwrap());
        }
        let mut lines: Vec<Value> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| parse(l).unwrap())
            .collect();
        for line in &mut lines {
            let Some(blocks) = line["message"]["content"].as_array_mut() else {
                continue;
            };
            for block in blocks {
                let id = block["tool_use_id"].as_str().unwrap_or("").to_owned();
                if block["type"] == "tool_result" && persisted.contains_key(&id) {
                    block["content"] = json!(preview(&id, &persisted[&id]));
                }
            }
        }
        let (_tmp, root) = tempdir();
        let (got, _) = converted(&root, &lines);
        for (id, full) in &persisted {
            let Some(text) = got.get(id) else { continue };
            total += 1;
            let shown: String = full.chars().take(2_000).collect();
            starts += usize::from(text.starts_with(&shown));
            exact += usize::from(text == full);
        }
    }
    eprintln!("{total} persisted outputs: {starts} restore to a text that starts as the preview, {exact} exactly to the persisted file");
    assert_eq!(total, 53, "the corpus's persisted main-chain outputs");
    assert_eq!((starts, exact), (total, total));
}
