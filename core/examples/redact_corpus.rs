//! What `redact` changes in real transcripts: every tool result of the conversations in
//! a folder of JSON message arrays (Anthropic or OpenAI shape; default
//! `../shared/corpus`, see its README) through the built-in rules, each changed line
//! shown, then how many outputs changed. Issue 49's closing note: none should be a
//! non-secret. `cargo run --release -p tool-offload-core --example redact_corpus [DIR]`
use serde_json::Value;

/// The text of every tool result in `v`: `tool_result` blocks, `role: "tool"` messages.
fn texts(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let is_result = m.get("type").and_then(Value::as_str) == Some("tool_result")
                || m.get("role").and_then(Value::as_str) == Some("tool");
            if is_result {
                match m.get("content") {
                    Some(Value::String(s)) => out.push(s.clone()),
                    Some(Value::Array(a)) => {
                        for b in a {
                            if let Some(s) = b.get("text").and_then(Value::as_str) {
                                out.push(s.to_owned());
                            }
                        }
                    }
                    _ => {}
                }
                return;
            }
            for v in m.values() {
                texts(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| texts(v, out)),
        _ => {}
    }
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus".into());
    let mut outputs = Vec::new();
    for dir in ["anthropic", "openai"] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                texts(&v, &mut outputs);
            }
        }
    }
    let mut changed = 0;
    for text in &outputs {
        let r = tool_offload_core::redact::redact(text);
        if r.counts.is_empty() {
            continue;
        }
        changed += 1;
        println!("== {:?}", r.counts);
        for (a, b) in text.lines().zip(r.text.lines()) {
            if a != b {
                let cut = |s: &str| s.chars().take(220).collect::<String>();
                println!("- {}\n+ {}", cut(a), cut(b));
            }
        }
    }
    println!("tool results changed: {changed} of {}", outputs.len());
}
