//! The failure detector on real-shaped logs of many ecosystems (`tests/logs/`, each
//! labelled with its root-cause line): the summary at the default limits shows the root
//! cause, names it, and its grep hint finds it; passing runs raise no error.
//! `cargo test -p tool-offload-core --test failure_logs -- --nocapture` prints the
//! figures.

use tool_offload_core::materialize::detect::{detect, Level};
use tool_offload_core::materialize::{
    compile_pattern, plain, summary, ArtifactKind, Measure, SummaryInput, ToolOutputRef,
};
use tool_offload_core::Value;

struct Log {
    file: String,
    text: String,
    root: Option<usize>,
    also: Vec<usize>,
}

fn logs() -> Vec<Log> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/logs");
    let labels: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/labels.json")).unwrap())
            .unwrap();
    labels
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let file = l["file"].as_str().unwrap().to_owned();
            Log {
                text: std::fs::read_to_string(format!("{dir}/{file}")).unwrap(),
                file,
                root: l["rootCause"].as_u64().map(|n| n as usize),
                also: l["also"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap() as usize)
                    .collect(),
            }
        })
        .collect()
}

fn summarise(log: &Log, max_chars: usize) -> String {
    summary(&SummaryInput {
        repeated_end: None,
        reference: "ctx://c/tool/call_1.txt",
        output: ToolOutputRef {
            tool_call_id: "call_1",
            tool_name: "bash",
            server_name: None,
            text: &log.text,
            was_value: false,
        },
        kind: ArtifactKind::Tool,
        measure: Measure::of(&log.text),
        is_json: false,
        snippet_lines: 40,
        snippet_bytes: None,
        max_chars,
    })
}

/// Whether line `n` (1-based) of `log` is shown in `summary`, as summaries show lines.
fn shows(summary: &str, log: &Log, n: usize) -> bool {
    let line = log.text.lines().nth(n - 1).unwrap();
    let shown = tool_offload_core::materialize::cut(&plain(line), 500);
    summary.contains(&format!("\n{n}| {shown}\n"))
}

/// The pattern of the summary's `context_grep` hint.
fn hint(summary: &str) -> &str {
    let end = summary.strip_suffix("\", ignore_case: true).").unwrap();
    &end[end.rfind('"').unwrap() + 1..]
}

#[test]
fn the_root_cause_is_shown_named_and_found_by_the_hint() {
    let logs = logs();
    assert!(logs.len() >= 40, "{} logs", logs.len());
    let (mut named, mut failing, mut also, mut also_shown) = (0, 0, 0, 0);
    let mut shown_at = [0; 3];
    let mut problems = Vec::new();
    for log in &logs {
        let s = summarise(log, 4000);
        let Some(root) = log.root else {
            // A passing run: nothing at the level of an error or a verdict.
            let found = detect(&log.text);
            if let Some(d) = found.iter().find(|d| d.level > Level::Mention) {
                problems.push(format!(
                    "{}: passing run, yet line {} reads as {:?}: {:?}",
                    log.file,
                    d.line + 1,
                    d.level,
                    &log.text[d.start..d.end]
                ));
            }
            if s.contains("likely root cause") {
                problems.push(format!("{}: passing run named a root cause", log.file));
            }
            continue;
        };
        failing += 1;
        for (k, max) in [4000, 2000, 1000].into_iter().enumerate() {
            shown_at[k] += usize::from(shows(&summarise(log, max), log, root));
        }
        if !shows(&s, log, root) {
            problems.push(format!(
                "{}: root cause line {root} not shown:\n{s}",
                log.file
            ));
        }
        if s.contains(&format!("likely root cause at line {root} ---")) {
            named += 1;
        } else {
            eprintln!(
                "{}: root cause {root}, named {:?}",
                log.file,
                s.lines().find(|l| l.contains("root cause"))
            );
        }
        for &n in &log.also {
            also += 1;
            also_shown += usize::from(shows(&s, log, n));
        }
        // The hint finds it: see the next test.
    }
    eprintln!(
        "{} logs, {failing} failing: root cause shown at 4000 / 2000 / 1000 chars: {} / {} / {}; named as the likely root cause: {named}; other labelled lines shown at 4000: {also_shown} of {also}",
        logs.len(),
        shown_at[0],
        shown_at[1],
        shown_at[2]
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The first-ranked line is the labelled root cause in most logs (the rest show it as
    // another excerpt: a chained exception's first cause, a cascade's first error).
    assert!(named * 10 >= failing * 8, "named {named} of {failing}");
}

/// The summary's hint, run as the model would run it (the Materializer's `grep` at its
/// default limits): its first page shows the line the summary names as the likely root
/// cause, and the labelled one (as a match or in a match's context). A generic
/// `error|fail` would not: in a run whose test names hold `error`, the first page fills
/// with passing tests.
#[test]
fn the_hints_first_grep_page_reaches_the_named_root_cause() {
    use futures_executor::block_on;
    use tool_offload_core::materialize::{
        Materialized, Materializer, MaterializerOptions, DEFAULT_CONTEXT, DEFAULT_MAX_MATCHES,
    };
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let fs = tool_offload_core::MemoryWriter::new();
    let mut problems = Vec::new();
    for log in logs().iter().filter(|l| l.root.is_some()) {
        let id = log.file.trim_end_matches(".log");
        let output = ToolOutputRef {
            tool_call_id: id,
            tool_name: "bash",
            server_name: None,
            text: &log.text,
            was_value: false,
        };
        let Materialized::Artifact {
            summary, reference, ..
        } = block_on(m.materialize(&output, &fs)).unwrap()
        else {
            continue;
        };
        let named = summary
            .split_once("likely root cause at line ")
            .and_then(|(_, rest)| rest.split_once(' '))
            .and_then(|(n, _)| n.parse::<usize>().ok());
        let pattern = compile_pattern(hint(&summary), true).unwrap();
        let page = block_on(m.grep(
            &reference.id,
            &pattern,
            DEFAULT_CONTEXT,
            DEFAULT_MAX_MATCHES,
            &fs,
        ))
        .unwrap();
        for n in named.into_iter().chain(log.root) {
            if !page.contains(&format!("\n{n}| ")) {
                problems.push(format!(
                    "{}: hint {:?} misses line {n} on its first page:\n{page}",
                    log.file,
                    hint(&summary)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A pytest run of 427 tests, most named after errors (`test_error_handling_…`): the
/// hint is made of the markers found (`AssertionError`, `FAILED`), not `error|fail`,
/// which matches nearly every line.
#[test]
fn a_pytest_runs_hint_is_made_of_its_markers() {
    let log = logs()
        .into_iter()
        .find(|l| l.file == "pytest-verbose-error-names.log")
        .unwrap();
    let s = summarise(&log, 4000);
    assert!(s.contains("likely root cause at line 450 ---"), "{s}");
    let generic = compile_pattern("error|fail", true).unwrap();
    let lines = log.text.lines().count();
    let decoys = log.text.lines().filter(|l| generic.is_match(l)).count();
    assert!(decoys * 10 > lines * 9, "{decoys} of {lines}");
    let pattern = compile_pattern(hint(&s), true).unwrap();
    let hits = log.text.lines().filter(|l| pattern.is_match(l)).count();
    assert!(hits <= 12, "{:?} matches {hits} lines", hint(&s));
    assert_eq!(hint(&s), "AssertionError|failed|AttributeError");
}
