//! Nothing is ever overwritten: concurrent materializations of one id, two materializers
//! (standing for two processes) on one conversation, batch offload re-run into the same
//! directory, and the writer's exclusive create itself.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::json;
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    BatchOptions, CreateOutcome, FileWriter, Materializer, TokioFileWriter, ToolOutputInput,
};

/// `n` different outputs, each over the default inline limit.
fn outputs(n: usize, tag: &str) -> Vec<serde_json::Value> {
    (0..n)
        .map(|i| json!(format!("{tag} output {i}\n").repeat(3000)))
        .collect()
}

fn artifact(done: Materialized) -> (String, String) {
    match done {
        Materialized::Artifact {
            reference, path, ..
        } => (reference.id, path),
        other => panic!("expected an artifact, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_materializations_of_one_id_each_keep_their_output() {
    let root = tempfile::tempdir().unwrap();
    let m = Arc::new(Materializer::in_dir(root.path(), "conv").unwrap());
    let texts = outputs(16, "a");
    let tasks: Vec<_> = texts
        .iter()
        .cloned()
        .map(|text| {
            let m = m.clone();
            tokio::spawn(async move {
                let out = ToolOutputInput {
                    tool_call_id: "same",
                    tool_name: "t",
                    server_name: None,
                    output: &text,
                };
                (artifact(m.materialize(&out).await.unwrap()), text)
            })
        })
        .collect();
    let mut refs = BTreeSet::new();
    for task in tasks {
        let ((reference, path), text) = task.await.unwrap();
        // Each ref reads back its own output, and its file holds exactly it.
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text.as_str().unwrap()
        );
        let page = m.read(&reference, 0, 1).await.unwrap();
        let first_line = text.as_str().unwrap().lines().next().unwrap().to_owned();
        assert!(page.contains(&first_line), "{reference}: {page}");
        refs.insert(reference);
    }
    assert_eq!(refs.len(), 16, "{refs:?}");
    let dir = root.path().join("context/conv/artifacts/tool");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        files, 16,
        "one artifact per output, no temporary files left"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_materializers_on_one_conversation_never_overwrite_each_other() {
    let root = tempfile::tempdir().unwrap();
    let new = || Arc::new(Materializer::in_dir(root.path(), "conv").unwrap());
    let (first, second) = (new(), new());
    let mut tasks = Vec::new();
    for (m, tag) in [(first, "first"), (second, "second")] {
        for (i, text) in outputs(20, tag).into_iter().enumerate() {
            let m = m.clone();
            tasks.push(tokio::spawn(async move {
                let out = ToolOutputInput {
                    tool_call_id: &format!("call_{}", i % 5),
                    tool_name: "t",
                    server_name: None,
                    output: &text,
                };
                let (_, path) = artifact(m.materialize(&out).await.unwrap());
                (path, text)
            }));
        }
    }
    let mut paths = BTreeSet::new();
    for task in tasks {
        let (path, text) = task.await.unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text.as_str().unwrap()
        );
        paths.insert(path);
    }
    assert_eq!(paths.len(), 40);
}

#[tokio::test]
async fn identical_output_reuses_its_artifact_and_a_terminal_snippet_never_overwrites() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv").unwrap();
    let (a, b) = ("a\n".repeat(30_000), "b\n".repeat(30_000));
    let (first, _) = artifact(m.materialize_terminal("snip", &a).await.unwrap());
    let (again, _) = artifact(m.materialize_terminal("snip", &a).await.unwrap());
    let (other, path) = artifact(m.materialize_terminal("snip", &b).await.unwrap());
    assert_eq!(first, "ctx://conv/terminal/snip.log");
    assert_eq!(again, first);
    assert_eq!(other, "ctx://conv/terminal/snip-1.log");
    assert_eq!(std::fs::read_to_string(path).unwrap(), b);
}

#[tokio::test]
async fn batch_offload_rerun_reuses_same_content_and_moves_different_content() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let options = BatchOptions::at(out.to_str().unwrap());
    let conversation =
        |content: &str| vec![json!({"role": "tool", "tool_call_id": "call_0", "content": content})];
    let (s1, s2) = (
        conversation(&"one ".repeat(100)),
        conversation(&"two ".repeat(100)),
    );
    let writer = TokioFileWriter::new();

    let first = tool_offload::offload_tool_results(&s1, &options, &writer)
        .await
        .unwrap();
    let rerun = tool_offload::offload_tool_results(&s1, &options, &writer)
        .await
        .unwrap();
    let second = tool_offload::offload_tool_results(&s2, &options, &writer)
        .await
        .unwrap();

    assert_eq!(
        first.messages[0]["content"],
        "[Content offloaded to: ./tool-result-call_0.md]"
    );
    assert_eq!(rerun.messages, first.messages, "a re-run is identical");
    assert_eq!(
        second.messages[0]["content"],
        "[Content offloaded to: ./tool-result-call_0-1.md]"
    );
    let read = |name: &str| std::fs::read_to_string(root.path().join("out").join(name)).unwrap();
    assert_eq!(read("tool-result-call_0.md"), "one ".repeat(100));
    assert_eq!(read("tool-result-call_0-1.md"), "two ".repeat(100));
    assert_eq!(
        second.files,
        [root
            .path()
            .join("out/tool-result-call_0-1.md")
            .to_str()
            .unwrap()]
    );
}

#[test]
fn exclusive_create_has_exactly_one_winner_across_threads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.txt").to_str().unwrap().to_owned();
    let runtime = tokio::runtime::Builder::new_multi_thread().build().unwrap();
    let outcomes: Vec<CreateOutcome> = runtime.block_on(async {
        let tasks: Vec<_> = (0..32)
            .map(|i| {
                let path = path.clone();
                tokio::spawn(async move {
                    TokioFileWriter::durable()
                        .create_file(&path, &format!("writer {i}"))
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut outcomes = Vec::new();
        for task in tasks {
            outcomes.push(task.await.unwrap());
        }
        outcomes
    });
    let winners = outcomes
        .iter()
        .filter(|o| **o == CreateOutcome::Created)
        .count();
    assert_eq!(winners, 1);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("writer "));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["x.txt"], "no temporary file left behind");
}
