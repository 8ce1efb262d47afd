//! `tool-offload gc` on real files: TTL, quota, keep-list and dry run on a tree that also
//! holds foreign files, and a collected ref read back as removed by retention.
mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::json;
use tool_offload::json::{parse, stringify};

use common::*;

const DAY: Duration = Duration::from_secs(86_400);

/// A conversation with tool results `a`, `b`, `c` of 10 KB each.
fn conversation() -> String {
    let result = |id: &str| json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": format!("{id} line\n").repeat(1500)}]});
    stringify(&json!([result("a"), result("b"), result("c")]))
}

fn age(path: &Path, days: u32) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - DAY * days).unwrap();
}

/// A user-data tree: artifacts a (10 days old), b (5), c (new), a foreign file (30 days
/// old) and a materialized conversation that refers to all three.
fn tree(root: &Path) {
    std::fs::write(root.join("conv-1.json"), conversation()).unwrap();
    let out = run(
        root,
        &[
            "materialize",
            "conv-1.json",
            "--user-data",
            "data",
            "-o",
            "m.json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let tool = root.join("data/context/conv-1/artifacts/tool");
    age(&tool.join("a.txt"), 10);
    age(&tool.join("b.txt"), 5);
    std::fs::write(root.join("data/mine.txt"), "foreign").unwrap();
    age(&root.join("data/mine.txt"), 30);
}

fn report(root: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["gc", "data", "--json"];
    all.extend(args);
    let out = run(root, &all, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    parse(stdout(&out).trim_end()).unwrap()
}

#[test]
fn ttl_quota_keep_and_dry_run() {
    let (_tmp, root) = tempdir();
    tree(&root);
    let tool = "data/context/conv-1/artifacts/tool";
    let removed = |r: &serde_json::Value| -> Vec<String> {
        r["removed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().rsplit('/').next().unwrap().to_owned())
            .collect()
    };

    let dry = report(&root, &["--older-than", "7d", "--dry-run"]);
    assert_eq!(removed(&dry), ["a.txt"]);
    assert_eq!(dry["dryRun"], true);
    assert!(root.join(tool).join("a.txt").exists());

    // Still in use: nothing it refers to goes.
    let kept = report(&root, &["--older-than", "1d", "--keep", "m.json"]);
    assert_eq!(removed(&kept), Vec::<String>::new());
    assert_eq!(kept["kept"], 3);

    let ttl = report(&root, &["--older-than", "7d"]);
    assert_eq!(removed(&ttl), ["a.txt"]);
    assert!(!root.join(tool).join("a.txt").exists());
    assert!(
        root.join("data/mine.txt").exists(),
        "foreign files are never touched"
    );

    let quota = report(&root, &["--max-size", "12K"]);
    assert_eq!(removed(&quota), ["b.txt"]);
    assert_eq!(quota["keptBytes"], 10_500);

    // The model (and the CLI) hear why the ref is gone.
    let out = run(
        &root,
        &["tail", "ctx://conv-1/tool/a.txt", "--user-data", "data"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("was removed by retention (gc)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn gc_needs_a_rule_and_a_directory() {
    let (_tmp, root) = tempdir();
    std::fs::create_dir(root.join("data")).unwrap();
    let out = run(&root, &["gc", "data"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--older-than DURATION and/or --max-size SIZE"));
    let out = run(&root, &["gc", "nope", "--older-than", "1d"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&root, &["gc", "data", "--older-than", "1 day"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn batch_output_directories_are_collected_too() {
    let (_tmp, root) = tempdir();
    std::fs::write(root.join("in.json"), conversation()).unwrap();
    let out = run(
        &root,
        &["offload", "in.json", "--out", "art", "-o", "out.json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for name in ["tool-result-a.md", "tool-result-b.md", "tool-result-c.md"] {
        age(&root.join("art").join(name), 3);
    }
    std::fs::write(root.join("art/README.md"), "mine").unwrap();
    age(&root.join("art/README.md"), 3);
    let out = run(&root, &["gc", "art", "--older-than", "1d", "--json"], b"");
    let r = parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(r["removed"].as_array().unwrap().len(), 3, "{r}");
    assert!(root.join("art/README.md").exists());
}
