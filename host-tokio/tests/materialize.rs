//! The tokio host's Materializer on real files.

use serde_json::json;
use tool_offload::core::materialize::Materialized;
use tool_offload::{ErrorCode, GrepOptions, Materializer, ToolOutputInput};

fn build_log() -> String {
    (1..=3000)
        .map(|i| {
            if i == 1234 {
                "error[E0308]: mismatched types".to_owned()
            } else {
                format!("   Compiling crate_{i}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn materializes_to_disk_and_reads_back_with_regex_grep() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "conv-1").unwrap();
    let log = json!(build_log());
    let out = ToolOutputInput {
        tool_call_id: "call_1",
        tool_name: "cargo",
        server_name: Some("ci"),
        output: &log,
    };
    let Materialized::Artifact {
        summary,
        reference,
        path,
    } = m.materialize(&out).await.unwrap()
    else {
        panic!("expected an artifact")
    };
    assert_eq!(
        path,
        format!(
            "{}/context/conv-1/artifacts/tool/call_1.txt",
            root.path().display()
        )
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), build_log());
    assert!(
        summary.contains("1234| error[E0308]: mismatched types"),
        "{summary}"
    );
    assert_eq!(
        (reference.hint.lines, reference.hint.is_json),
        (3000, false)
    );

    let grep = m
        .grep(
            &reference.id,
            r"E0\d+",
            GrepOptions {
                context: 0,
                ..GrepOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(grep, "[ctx://conv-1/tool/call_1.txt: 1 matching row in 3,000 lines, with 0 rows of context; all shown.]\n1234| error[E0308]: mismatched types");
    let insensitive = m
        .grep(
            &reference.id,
            "ERROR",
            GrepOptions {
                ignore_case: true,
                context: 0,
                ..GrepOptions::default()
            },
        )
        .await
        .unwrap();
    assert!(insensitive.contains("1234| error"));
    let err = m
        .grep(&reference.id, "(unclosed", GrepOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidPattern);

    let tail = m.tail(&reference.id, 1).await.unwrap();
    assert!(tail.ends_with("3000|    Compiling crate_3000"));
    let page = m.read(&reference.id, 1233, 1).await.unwrap();
    assert!(page.ends_with("1234| error[E0308]: mismatched types"));

    assert_eq!(
        m.read("ctx://conv-2/tool/call_1.txt", 0, 1)
            .await
            .unwrap_err()
            .code(),
        ErrorCode::RefOutOfScope
    );
    assert_eq!(
        m.read("ctx://conv-1/tool/nope.txt", 0, 1)
            .await
            .unwrap_err()
            .code(),
        ErrorCode::RefNotFound
    );
}

#[tokio::test]
async fn small_outputs_stay_inline_and_values_become_json_artifacts() {
    let root = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(root.path(), "c").unwrap();
    let small = json!({"ok": true});
    let out = ToolOutputInput {
        tool_call_id: "call_s",
        tool_name: "t",
        server_name: None,
        output: &small,
    };
    assert_eq!(m.materialize(&out).await.unwrap(), Materialized::Inline);
    let rows: Vec<_> = (0..2000).map(|i| json!({"id": i, "v": 1.0})).collect();
    let big = json!(rows);
    let out = ToolOutputInput {
        tool_call_id: "call_b",
        tool_name: "t",
        server_name: None,
        output: &big,
    };
    let Materialized::Artifact {
        reference, path, ..
    } = m.materialize(&out).await.unwrap()
    else {
        panic!()
    };
    assert!(reference.id.ends_with("/tool/call_b.json") && reference.hint.is_json);
    assert!(std::fs::read_to_string(path)
        .unwrap()
        .starts_with(r#"[{"id":0,"v":1},{"id":1,"v":1}"#));
    let stats = m.stats();
    assert_eq!((stats.hits, stats.inlined), (1, 1));
}

/// The budget counts each message by the materializer's token counter when it has one.
#[tokio::test]
async fn the_budget_counts_by_the_materializers_counter() {
    use tool_offload::BudgetOptions;
    let dir = tempfile::tempdir().unwrap();
    let history = vec![serde_json::json!({"role": "user", "content": "hello"})];
    let options = BudgetOptions::new(1_000);
    let plain = Materializer::in_dir(dir.path(), "c1").unwrap();
    let estimated = plain.budget(&history, &options).await.unwrap();
    assert!(estimated.tokens_before < 100);
    let counted = plain.with_token_counter(std::sync::Arc::new(|_: &str| 5_000));
    let done = counted.budget(&history, &options).await.unwrap();
    assert_eq!(done.tokens_before, 5_000);
}
