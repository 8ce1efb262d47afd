//! Retention (`gc`): TTL, byte quota, the keep-list, dry runs, only our own files, the
//! line index and stale temporary files with their artifact, and a removed ref read back
//! as removed by retention.

use std::collections::HashSet;

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::gc::{gc, referenced, GcOptions};
use tool_offload_core::materialize::{
    Materialized, Materializer, MaterializerOptions, ToolOutputRef,
};
use tool_offload_core::{ErrorCode, FileWriter, MemoryWriter};

const DAY: u64 = 86_400_000;
const ROOT: &str = "/data";

/// A store written over three days: `old` (day 0, with a line index), `mid` (day 1),
/// `new` (day 2) tool artifacts of conv-1, a batch file (day 0), a foreign file, and a
/// writer's temporary file left on day 0.
fn store() -> (MemoryWriter, String) {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new(ROOT, "conv-1", "/")).unwrap();
    let write = |id: &str, day: u64, text: &str| {
        fs.set_now(day * DAY);
        let out = ToolOutputRef {
            tool_call_id: id,
            tool_name: "bash",
            server_name: None,
            text,
            was_value: false,
        };
        match block_on(m.materialize(&out, &fs)).unwrap() {
            Materialized::Artifact { summary, .. } => summary,
            other => unreachable!("over the limits: {other:?}"),
        }
    };
    let summary = write("old", 0, &"old line\n".repeat(1000));
    write("mid", 1, &"mid line\n".repeat(1000));
    write("new", 2, &"new line\n".repeat(1000));
    block_on(async {
        fs.set_now(0);
        fs.mkdir("/data/context/conv-1/index/tool").await.unwrap();
        fs.write_file("/data/context/conv-1/index/tool/old.txt.lines", "index")
            .await
            .unwrap();
        fs.mkdir("/data/batch").await.unwrap();
        fs.write_file("/data/batch/tool-result-x.md", "batch")
            .await
            .unwrap();
        fs.write_file("/data/batch/notes.md", "not ours")
            .await
            .unwrap();
        fs.write_file("/data/batch/.tool-offload-1-a.tmp", "partial")
            .await
            .unwrap();
    });
    (fs, summary)
}

fn options(now_days: u64) -> GcOptions {
    GcOptions {
        now_ms: now_days * DAY,
        ..GcOptions::default()
    }
}

fn paths(fs: &MemoryWriter) -> Vec<String> {
    fs.files().into_keys().collect()
}

#[test]
fn ttl_removes_old_artifacts_with_their_index_and_stale_temporary_files_only() {
    let (fs, _) = store();
    let before = paths(&fs);
    let report = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(DAY + 1),
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    assert_eq!(
        report.removed,
        [
            "/data/batch/.tool-offload-1-a.tmp",
            "/data/batch/tool-result-x.md",
            "/data/context/conv-1/artifacts/tool/old.txt",
            "/data/context/conv-1/index/tool/old.txt.lines",
        ]
    );
    assert_eq!(report.bytes, 7 + 5 + 9000 + 5);
    assert_eq!((report.kept, report.kept_bytes), (2, 18000));
    let after = paths(&fs);
    assert!(
        after.contains(&"/data/batch/notes.md".to_owned()),
        "foreign files stay"
    );
    assert!(after.contains(&"/data/context/conv-1/artifacts/tool/mid.txt".to_owned()));
    assert!(after.contains(&"/data/context/conv-1/artifacts/tool/old.txt.removed".to_owned()));
    assert!(after.contains(&"/data/batch/tool-result-x.md.removed".to_owned()));
    assert_eq!(after.len(), before.len() - 4 + 2);
}

#[test]
fn the_keep_list_protects_what_messages_still_refer_to() {
    let (fs, summary) = store();
    let messages = json!([
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "old", "content": summary}]},
        {"role": "tool", "tool_call_id": "x", "content": "[Content offloaded to: ./tool-result-x.md]"},
    ]);
    let keep = referenced(&messages);
    assert_eq!(
        keep,
        HashSet::from([
            "ctx://conv-1/tool/old.txt".to_owned(),
            "tool-result-x.md".to_owned()
        ])
    );
    let report = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(0),
            keep,
            ..options(3)
        },
        &fs,
    ))
    .unwrap();
    assert_eq!(
        report.removed,
        [
            "/data/batch/.tool-offload-1-a.tmp",
            "/data/context/conv-1/artifacts/tool/mid.txt",
            "/data/context/conv-1/artifacts/tool/new.txt",
        ]
    );
    assert!(fs
        .read("/data/context/conv-1/artifacts/tool/old.txt")
        .is_some());
}

#[test]
fn a_quota_removes_the_least_recently_written_until_under_it() {
    let (fs, _) = store();
    // 27,005 bytes of ours: over 20,000 the oldest go first (batch file and old, both
    // day 0, in path order), and mid and new stay.
    let report = block_on(gc(
        ROOT,
        &GcOptions {
            max_bytes: Some(20_000),
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    assert!(report
        .removed
        .contains(&"/data/context/conv-1/artifacts/tool/old.txt".to_owned()));
    assert!(report
        .removed
        .contains(&"/data/batch/tool-result-x.md".to_owned()));
    assert!(!report
        .removed
        .iter()
        .any(|p| p.ends_with("mid.txt") || p.ends_with("new.txt")));
    assert_eq!(report.kept_bytes, 18000);
    // A quota nothing can meet: referenced artifacts still stay.
    let keep = HashSet::from(["ctx://conv-1/tool/new.txt".to_owned()]);
    let report = block_on(gc(
        ROOT,
        &GcOptions {
            max_bytes: Some(0),
            keep,
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    assert_eq!(
        report.removed,
        ["/data/context/conv-1/artifacts/tool/mid.txt"]
    );
    assert_eq!((report.kept, report.kept_bytes), (1, 9000));
}

#[test]
fn a_dry_run_reports_and_removes_nothing() {
    let (fs, _) = store();
    let before = fs.files();
    let dry = GcOptions {
        older_than_ms: Some(0),
        dry_run: true,
        ..options(5)
    };
    let report = block_on(gc(ROOT, &dry, &fs)).unwrap();
    assert_eq!(report.removed.len(), 6);
    assert_eq!(fs.files(), before);
}

#[test]
fn reading_a_collected_ref_says_it_was_removed_by_retention() {
    let (fs, _) = store();
    let m = Materializer::new(MaterializerOptions::new(ROOT, "conv-1", "/")).unwrap();
    block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(DAY + 1),
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    let err = block_on(m.tail("ctx://conv-1/tool/old.txt", 5, &fs)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert_eq!(
        err.to_string(),
        "the artifact for ref \"ctx://conv-1/tool/old.txt\" was removed by retention (gc): it can no longer be read"
    );
    let err = block_on(m.tail("ctx://conv-1/tool/never.txt", 5, &fs)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no artifact for ref \"ctx://conv-1/tool/never.txt\""
    );
}

#[test]
fn a_failing_removal_is_write_failed() {
    let failing = store()
        .0
        .fail_on("/data/context/conv-1/artifacts/tool/old.txt");
    let err = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(0),
            ..options(9)
        },
        &failing,
    ))
    .unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
}

#[test]
fn terminal_artifacts_are_collected_and_named_by_their_ref() {
    let (fs, _) = store();
    let m = Materializer::new(MaterializerOptions::new(ROOT, "conv-1", "/")).unwrap();
    fs.set_now(0);
    block_on(m.materialize_terminal("snip", &"$ make\n".repeat(1000), &fs)).unwrap();
    let keep = HashSet::from(["ctx://conv-1/terminal/snip.log".to_owned()]);
    let kept = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(0),
            keep,
            dry_run: true,
            ..options(9)
        },
        &fs,
    ))
    .unwrap();
    assert!(
        !kept.removed.iter().any(|p| p.ends_with("snip.log")),
        "{:?}",
        kept.removed
    );
    let all = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(0),
            dry_run: true,
            ..options(9)
        },
        &fs,
    ))
    .unwrap();
    assert!(all
        .removed
        .contains(&"/data/context/conv-1/artifacts/terminal/snip.log".to_owned()));
    assert_eq!(all.removed.len(), kept.removed.len() + 1);
}

#[test]
fn the_ttl_and_the_quota_are_strict_bounds() {
    let (fs, _) = store();
    // `mid` is exactly 1 day old on day 2: not older than 1 day, so it stays.
    let ttl = block_on(gc(
        ROOT,
        &GcOptions {
            older_than_ms: Some(DAY),
            dry_run: true,
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    assert!(
        !ttl.removed.iter().any(|p| p.ends_with("mid.txt")),
        "{:?}",
        ttl.removed
    );
    assert!(ttl.removed.iter().any(|p| p.ends_with("old.txt")));
    // A quota of exactly what is there removes nothing.
    let all = block_on(gc(
        ROOT,
        &GcOptions {
            max_bytes: Some(u64::MAX),
            dry_run: true,
            ..options(2)
        },
        &fs,
    ))
    .unwrap();
    let exact = GcOptions {
        max_bytes: Some(all.kept_bytes),
        dry_run: true,
        ..options(2)
    };
    let report = block_on(gc(ROOT, &exact, &fs)).unwrap();
    assert_eq!(report.removed, ["/data/batch/.tool-offload-1-a.tmp"]);
}

#[test]
fn workspace_knowledge_is_never_collected() {
    use tool_offload_core::workspace::{ToolResultInput, Workspace, WorkspaceOptions};
    let fs = MemoryWriter::new();
    fs.set_now(0);
    let ws = Workspace::new(WorkspaceOptions::new(ROOT, "/")).unwrap();
    let text = "kept\n".repeat(20_000);
    let input = ToolResultInput::text("k1", "bash", &text);
    block_on(ws.offload_tool_result(&input, None, 0.0, &fs)).unwrap();
    let before = fs.files();
    let options = GcOptions {
        older_than_ms: Some(1),
        max_bytes: Some(0),
        now_ms: 10 * DAY,
        ..GcOptions::default()
    };
    let report = block_on(gc(ROOT, &options, &fs)).unwrap();
    assert_eq!(report.removed, Vec::<String>::new());
    assert_eq!(fs.files(), before);
}
