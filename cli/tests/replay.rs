//! `tool-offload replay`: its JSON against a straightforward recount, its inputs, its
//! files (an SVG; nothing under the inputs), its errors.

mod common;

use std::path::Path;

use common::{files, run, stderr, stdout, tempdir};
use serde_json::{json, Value};

/// A conversation of `n` tool calls whose results are `size` characters of log lines.
fn conversation(n: usize, size: usize) -> Value {
    let mut messages = vec![json!({"role": "user", "content": "build it and fix what fails"})];
    for i in 0..n {
        let id = format!("toolu_{i:02}");
        messages.push(json!({"role": "assistant", "content": [
            {"type": "text", "text": format!("Running step {i}.")},
            {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("make step_{i}")}}
        ]}));
        let mut log = String::new();
        let mut line = 0;
        while log.len() < size {
            log.push_str(&format!(
                "step_{i} line {line:05}: compiling crate_{line} ok\n"
            ));
            line += 1;
        }
        messages.push(json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": log}
        ]}));
    }
    messages.push(json!({"role": "assistant", "content": "Fixed step_1 line 00007 in crate_7."}));
    Value::Array(messages)
}

fn write(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

/// Σ over turns of the serialised history's length: the straightforward recount.
fn chars_over_turns(messages: &[Value]) -> u64 {
    (1..messages.len())
        .filter(|&i| messages[i]["role"] == "assistant")
        .map(|at| {
            serde_json::to_string(&messages[..at])
                .unwrap()
                .encode_utf16()
                .count() as u64
        })
        .sum()
}

fn replay_json(dir: &Path, args: &[&str]) -> Value {
    let out = run(dir, &[&["replay"], args, &["--json"]].concat(), b"");
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(stdout(&out)).unwrap()
}

#[test]
fn totals_are_the_recount_and_the_sum_of_conversations() {
    let (_tmp, dir) = tempdir();
    let a = conversation(4, 9_000);
    let b = conversation(2, 300);
    let pa = write(&dir, "a.json", &a);
    let pb = write(&dir, "b.json", &b);
    let report = replay_json(
        &dir,
        &[&pa, &pb, "--policy", "offload", "--policy", "materialize"],
    );

    let conversations = report["conversations"].as_array().unwrap();
    assert_eq!(conversations.len(), 2);
    assert_eq!(conversations[0]["input"], pa.as_str());
    assert_eq!(conversations[0]["turns"], 5);
    let none = &conversations[0]["policies"]["none"];
    assert_eq!(none["chars"], chars_over_turns(a.as_array().unwrap()));
    assert_eq!(none["shrunk"], 0);
    assert_eq!(none["prefixStableTurns"], 4);
    // Every result of the first is over the default limits; none of the second is.
    let m = &conversations[0]["policies"]["materialize"];
    assert_eq!(m["shrunk"], 4);
    assert_eq!(m["artifacts"], 4);
    assert_eq!(m["needles"], json!({"found": 12, "total": 12}));
    assert!(m["chars"].as_u64().unwrap() < none["chars"].as_u64().unwrap() / 2);
    assert_eq!(conversations[1]["policies"]["materialize"]["shrunk"], 0);
    // The agent used `step_1`, `crate_7` and `00007` later: the summary shows `step_1`.
    let s = &m["previewSufficiency"];
    assert!(s["used"].as_u64().unwrap() >= 1, "{s}");

    let totals = &report["totals"];
    assert_eq!(totals["turns"], 5 + 3);
    for policy in ["none", "offload", "materialize"] {
        let sum = |field: &str| -> u64 {
            conversations
                .iter()
                .map(|c| c["policies"][policy][field].as_u64().unwrap())
                .sum()
        };
        let total = &totals["policies"][policy];
        for field in ["chars", "tokens", "prefixStableTurns", "shrunk", "results"] {
            assert_eq!(
                total[field].as_u64().unwrap(),
                sum(field),
                "{policy} {field}"
            );
        }
    }
    let total_none = &totals["policies"]["none"];
    assert_eq!(total_none["charsSaved"], 0.0);
    let saved = totals["policies"]["offload"]["charsSaved"]
        .as_f64()
        .unwrap();
    assert!(saved > 0.5 && saved < 1.0, "{saved}");
    // Cache cost: read 0.1, write 1.25 of the estimated tokens.
    let read = total_none["cacheReadTokens"].as_f64().unwrap();
    let tokens = total_none["tokens"].as_f64().unwrap();
    let cost = total_none["cacheCost"].as_f64().unwrap();
    assert!((cost - (0.1 * read + 1.25 * (tokens - read))).abs() < 0.01);
}

#[test]
fn prices_change_the_cache_cost_only() {
    let (_tmp, dir) = tempdir();
    let p = write(&dir, "a.json", &conversation(3, 5_000));
    let cheap = replay_json(&dir, &[&p, "--cache-read", "0", "--cache-write", "1"]);
    let none = &cheap["totals"]["policies"]["none"];
    let written = none["tokens"].as_f64().unwrap() - none["cacheReadTokens"].as_f64().unwrap();
    assert!((none["cacheCost"].as_f64().unwrap() - written).abs() < 0.01);
    let out = run(&dir, &["replay", &p, "--cache-read", "-1"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("must be a non-negative number"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_table_names_every_policy() {
    let (_tmp, dir) = tempdir();
    let p = write(&dir, "a.json", &conversation(3, 6_000));
    let out = run(
        &dir,
        &[
            "replay",
            &p,
            "--policy",
            "headtail",
            "--policy",
            "materialize",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("1 conversation, 4 turns"), "{text}");
    let policies: Vec<&str> = text
        .lines()
        .skip(4)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(policies, ["none", "headtail", "materialize"], "{text}");
}

#[test]
fn directories_are_read_recursively_and_nothing_is_written_under_them() {
    let (_tmp, dir) = tempdir();
    let inputs = dir.join("sessions");
    std::fs::create_dir_all(inputs.join("deeper")).unwrap();
    write(&inputs, "a.json", &conversation(2, 5_000));
    write(&inputs.join("deeper"), "b.json", &conversation(2, 5_000));
    let before = listing(&inputs);
    let flat = replay_json(&dir, &["sessions"]);
    assert_eq!(flat["conversations"].as_array().unwrap().len(), 1);
    let deep = replay_json(&dir, &["sessions", "-r"]);
    let names: Vec<&str> = deep["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["input"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sessions/a.json", "sessions/deeper/b.json"]);
    assert_eq!(listing(&inputs), before);
    assert_eq!(listing(&dir).len(), 2, "{:?}", listing(&dir));
}

#[test]
fn user_data_keeps_the_artifacts_where_asked() {
    let (_tmp, dir) = tempdir();
    let p = write(&dir, "a.json", &conversation(2, 5_000));
    let report = replay_json(&dir, &[&p, "--user-data", "kept"]);
    assert_eq!(report["totals"]["policies"]["materialize"]["artifacts"], 2);
    let stored = listing(&dir.join("kept"));
    assert_eq!(
        stored.iter().filter(|p| p.ends_with(".txt")).count(),
        2,
        "{stored:?}"
    );
}

#[test]
fn bad_inputs_are_refused_with_exit_2() {
    let (_tmp, dir) = tempdir();
    let out = run(&dir, &["replay", "missing.json"], b"");
    assert_eq!(out.status.code(), Some(2));
    let only_user = write(&dir, "u.json", &json!([{"role": "user", "content": "hi"}]));
    let out = run(&dir, &["replay", &only_user], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no assistant turn after the first message, skipped"));
    assert!(stderr(&out).contains("no conversation with an assistant turn to replay"));
    let out = run(&dir, &["replay", &only_user, "--policy", "everything"], b"");
    assert_eq!(out.status.code(), Some(2));
}

/// Every file under `dir`, relative, sorted.
fn listing(dir: &Path) -> Vec<String> {
    files(dir).into_keys().collect()
}

#[test]
fn the_budget_clears_old_results_and_reports_its_rewrites() {
    let (_tmp, dir) = tempdir();
    let p = write(&dir, "a.json", &conversation(8, 9_000));
    let report = replay_json(
        &dir,
        &[
            &p,
            "--policy",
            "materialize",
            "--policy",
            "budget",
            "--trigger-tokens",
            "3000",
        ],
    );
    let policies = &report["totals"]["policies"];
    let (m, b) = (&policies["materialize"], &policies["budget"]);
    let rewrites = b["plannedRewrites"].as_u64().unwrap();
    assert!(rewrites >= 1, "{b}");
    // Every turn that is not a prefix extension is a planned rewrite.
    assert_eq!(
        b["prefixStableTurns"].as_u64().unwrap() + rewrites,
        b["laterTurns"].as_u64().unwrap()
    );
    assert!(
        b["chars"].as_u64().unwrap() < m["chars"].as_u64().unwrap(),
        "{b} {m}"
    );
    assert_eq!(m.get("plannedRewrites"), None);
    // Cleared results were summaries already: their artifacts, no new ones.
    assert_eq!(b["artifacts"], m["artifacts"]);
    assert_eq!(b["needles"]["found"], b["needles"]["total"]);
}

#[test]
fn the_peers_policies_are_replayed_beside_ours() {
    let (_tmp, dir) = tempdir();
    // Two results over Claude Code's 30,000 characters for Bash, two under.
    let mut messages = conversation(2, 40_000).as_array().unwrap().clone();
    messages.pop();
    messages.extend(
        conversation(2, 1_000).as_array().unwrap()[1..]
            .iter()
            .cloned(),
    );
    let p = write(&dir, "a.json", &Value::Array(messages));
    let report = replay_json(
        &dir,
        &[&p, "--policy", "claude-code", "--policy", "clear-tool-uses"],
    );
    let policies = &report["totals"]["policies"];
    assert_eq!(policies["claude-code"]["shrunk"], 2, "{policies}");
    assert!(
        policies["claude-code"]["chars"].as_u64().unwrap()
            < policies["none"]["chars"].as_u64().unwrap() / 4
    );
    // Never past 100,000 tokens here: Anthropic's clearing does nothing.
    assert_eq!(
        policies["clear-tool-uses"]["chars"],
        policies["none"]["chars"]
    );
}

#[test]
fn the_agents_sdk_trimmer_cuts_results_older_than_two_user_turns() {
    let (_tmp, dir) = tempdir();
    let one_turn = write(&dir, "a.json", &conversation(2, 2_000));
    let report = replay_json(&dir, &[&one_turn, "--policy", "agents-trimmer"]);
    let policies = &report["totals"]["policies"];
    // One user turn: nothing is older than the last two.
    assert_eq!(
        policies["agents-trimmer"]["chars"],
        policies["none"]["chars"]
    );
    let mut messages = conversation(2, 2_000).as_array().unwrap().clone();
    for text in ["and the tests?", "and the docs?"] {
        messages.push(json!({"role": "user", "content": text}));
        messages.push(json!({"role": "assistant", "content": "Done."}));
    }
    let later = write(&dir, "b.json", &Value::Array(messages));
    let report = replay_json(&dir, &[&later, "--policy", "agents-trimmer"]);
    let policies = &report["totals"]["policies"];
    let (trimmed, none) = (
        policies["agents-trimmer"]["chars"].as_u64().unwrap(),
        policies["none"]["chars"].as_u64().unwrap(),
    );
    // The last turn sends both 2,000-character results as 200-character previews.
    assert!(none - trimmed > 2 * 1_700, "{trimmed} {none}");
    assert!(
        policies["agents-trimmer"]["prefixStableTurns"]
            .as_u64()
            .unwrap()
            < policies["none"]["prefixStableTurns"].as_u64().unwrap()
    );
}

#[test]
fn per_tool_figures_split_the_totals_by_the_calls_tool() {
    let (_tmp, dir) = tempdir();
    // Two Bash results over the limits, then a small Read result that stays inline.
    let mut messages = conversation(2, 9_000).as_array().unwrap().clone();
    let last = messages.pop().unwrap();
    messages.push(json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_r", "name": "Read", "input": {"file_path": "src/lib.rs"}}
    ]}));
    let read = "     1→pub fn parse_args() {}\n";
    messages.push(json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_r", "content": read}
    ]}));
    messages.push(last);
    let p = write(&dir, "a.json", &Value::Array(messages.clone()));
    let report = replay_json(&dir, &[&p, "--policy", "materialize"]);
    let m = &report["totals"]["policies"]["materialize"];
    let tools = m["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2, "{tools:?}");
    let (bash, read_figures) = (&tools[0], &tools[1]);
    assert_eq!(bash["tool"], "Bash");
    assert_eq!(
        (bash["results"].as_u64(), bash["shrunk"].as_u64()),
        (Some(2), Some(2))
    );
    let raw: u64 = messages
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result" && b["tool_use_id"] != "toolu_r")
        .map(|b| {
            serde_json::to_string(&b["content"])
                .unwrap()
                .encode_utf16()
                .count() as u64
        })
        .sum();
    assert_eq!(bash["charsBefore"].as_u64(), Some(raw));
    let after = bash["charsAfter"].as_u64().unwrap();
    assert!(after > 0 && after < raw / 3, "{after} of {raw}");
    assert_eq!(read_figures["tool"], "Read");
    assert_eq!(read_figures["shrunk"], 0);
    assert_eq!(read_figures["charsBefore"], read_figures["charsAfter"]);
    // The tools' sufficiency sums to the total's.
    for key in ["used", "visible", "newUsed", "newVisible"] {
        let sum: u64 = tools
            .iter()
            .map(|t| t["previewSufficiency"][key].as_u64().unwrap())
            .sum();
        assert_eq!(Some(sum), m["previewSufficiency"][key].as_u64(), "{key}");
    }
    // A conversation's own figures carry them too.
    let c = &report["conversations"][0]["policies"]["materialize"]["tools"];
    assert_eq!(c, &m["tools"]);
}
