//! `replay --svg`: one colour per policy, ours told from the others' by the stroke and the
//! legend's words, thousands separators, a rule between conversations, plurals.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{run, stderr, tempdir};
use serde_json::{json, Value};

/// A conversation of `n` Bash calls, each result `size` characters.
fn conversation(n: usize, size: usize) -> Value {
    let mut messages = vec![json!({"role": "user", "content": "build it"})];
    for i in 0..n {
        let id = format!("toolu_{i:02}");
        messages.push(json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "make"}}]}));
        let log = format!("step {i}: compiling ok\n").repeat(size / 20);
        messages.push(json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": log}]}));
    }
    messages.push(json!({"role": "assistant", "content": "Done."}));
    Value::Array(messages)
}

const POLICIES: [&str; 7] = [
    "offload",
    "materialize",
    "budget",
    "clear-tool-uses",
    "claude-code",
    "headtail",
    "agents-trimmer",
];

/// Replay the conversations `names` (written in `dir`) under every policy into an SVG.
fn svg(dir: &Path, names: &[&str]) -> String {
    let mut args = vec!["replay"];
    args.extend(names);
    for p in POLICIES {
        args.extend(["--policy", p]);
    }
    args.extend(["--svg", "turns.svg"]);
    let out = run(dir, &args, b"");
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(dir.join("turns.svg")).unwrap()
}

/// An attribute's value in one SVG element.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let at = element.find(&format!(" {name}=\""))? + name.len() + 3;
    element[at..].split('"').next()
}

/// The legend: each label with its line sample's colour and dash pattern (`None`:
/// solid). The samples are the last polylines, one per label, in the labels' order.
fn legend(svg: &str) -> Vec<(String, String, Option<String>)> {
    let side = &svg[svg.find("\nPolicies\n").expect("a legend")..];
    let labels: Vec<String> = side
        .lines()
        .filter(|l| !l.starts_with('<') && l.ends_with(')') && !l.contains(':'))
        .map(|l| l.replace("&apos;", "'"))
        .collect();
    let polylines: Vec<&str> = svg.lines().filter(|l| l.starts_with("<polyline")).collect();
    let samples = &polylines[polylines.len() - labels.len()..];
    labels
        .into_iter()
        .zip(samples)
        .map(|(label, line)| {
            let colour = attr(line, "stroke").unwrap().to_owned();
            (
                label,
                colour,
                attr(line, "stroke-dasharray").map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn every_policy_has_its_own_colour_and_ours_are_solid() {
    let (_tmp, dir) = tempdir();
    std::fs::write(dir.join("a.json"), conversation(4, 6_000).to_string()).unwrap();
    let svg = svg(&dir, &["a.json"]);
    let legend = legend(&svg);
    assert_eq!(legend.len(), 8, "{legend:?}");
    let colours: BTreeSet<&String> = legend.iter().map(|(_, c, _)| c).collect();
    assert_eq!(colours.len(), 8, "one colour each: {legend:?}");
    let ours = ["offload (ours)", "materialize (ours)", "budget (ours)"];
    for (label, colour, dash) in &legend {
        assert_eq!(
            dash.is_none(),
            ours.contains(&label.as_str()),
            "{label}: {dash:?}"
        );
        // Each colour of the legend is a line of the chart too, in the same stroke.
        let drawn = svg
            .lines()
            .filter(|l| l.starts_with("<polyline") && attr(l, "stroke") == Some(colour))
            .filter(|l| attr(l, "stroke-dasharray") == dash.as_deref())
            .count();
        assert_eq!(drawn, 2, "{label}: its line and its legend sample");
    }
    let labels: Vec<&str> = legend.iter().map(|(l, _, _)| l.as_str()).collect();
    assert!(labels.contains(&"claude-code (others')"), "{labels:?}");
    assert!(labels.contains(&"none (raw history)"), "{labels:?}");
    assert!(svg.contains("solid: ours (tool-offload)"));
    assert!(svg.contains("dashed: others&apos;, for comparison"));
    // One conversation: singular, no rule.
    assert!(svg.contains("(1 conversation, 5 turns)"), "caption");
    assert!(
        !svg.contains(r##"stroke="#999999""##),
        "no rule with one conversation"
    );
}

#[test]
fn axis_labels_have_thousands_separators_and_conversations_are_ruled_apart() {
    let (_tmp, dir) = tempdir();
    std::fs::write(dir.join("a.json"), conversation(4, 6_000).to_string()).unwrap();
    std::fs::write(dir.join("b.json"), conversation(3, 8_000).to_string()).unwrap();
    let svg = svg(&dir, &["a.json", "b.json"]);
    assert!(svg.contains("(2 conversations, 9 turns)"), "caption");
    let labels: Vec<&str> = svg
        .lines()
        .filter(|l| !l.starts_with('<'))
        .filter(|l| l.contains(',') && l.replace(',', "").bytes().all(|b| b.is_ascii_digit()))
        .collect();
    assert!(labels.contains(&"10,000"), "{labels:?}");
    assert!(
        !svg.lines().any(|l| l == "10000"),
        "no number without separators"
    );
    // The rule: one x, between turn 5 (the first conversation's last) and turn 6.
    let rule_xs: BTreeSet<&str> = svg
        .lines()
        .filter(|l| attr(l, "stroke") == Some("#999999"))
        .map(|l| {
            let points = attr(l, "points").unwrap();
            points.split(',').next().unwrap()
        })
        .collect();
    assert_eq!(rule_xs.len(), 1, "{rule_xs:?}");
}
