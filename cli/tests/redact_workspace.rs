//! `tool-offload redact DIR` over a real workspace folder with its SQLite index: every
//! record a workspace gives afterwards describes the content on disk (its SHA-256 and
//! sizes), whether the workspace was opened afterwards or kept open across the run (as
//! `mcp serve` keeps one).
mod common;

use serde_json::json;
use tool_offload::core::materialize::sha256_hex;
use tool_offload::core::workspace::Query;
use tool_offload::{Workspace, WorkspaceOptions};

use common::*;

const SECRET: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

/// Each record `ws` gives, through its index, beside the content file it describes.
fn assert_records_describe_their_content(ws: &Workspace, rt: &tokio::runtime::Runtime) {
    let records = rt
        .block_on(ws.query_artifacts(&Query::new(Default::default())))
        .unwrap();
    let mut ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["env", "notes", "plain"]);
    for record in &records {
        let path = format!("{}/artifacts/knowledge/{}.txt", ws.core().dir(), record.id);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(SECRET), "{path} holds the secret");
        let facts = |r: &tool_offload::core::workspace::KnowledgeRecord| {
            let m = &r.metadata;
            (
                m["sha256"].clone(),
                m["bytes"].clone(),
                m["chars"].clone(),
                m["lines"].clone(),
            )
        };
        let on_disk = (
            json!(sha256_hex(&text)),
            json!(text.len()),
            json!(text.chars().count()),
            json!(text.lines().count()),
        );
        assert_eq!(
            facts(record),
            on_disk,
            "the query's record of {}",
            record.id
        );
        assert!(!tool_offload::json::stringify(&record.metadata.clone().into()).contains(SECRET));
        // Read back: the record that comes with the content is the same.
        let read = rt.block_on(ws.get_by_id(&record.id)).unwrap();
        assert_eq!(read.content, text);
        assert_eq!(
            facts(&read.record),
            on_disk,
            "get_by_id's record of {}",
            record.id
        );
    }
}

#[test]
fn records_describe_the_redacted_content_in_open_and_new_workspaces() {
    let (_tmp, root) = tempdir();
    let data = root.join("data");
    let open = || Workspace::new(WorkspaceOptions::at(data.to_str().unwrap())).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // The workspace a long-running process holds: it stores, queries (the index has
    // every record) and reads before the run.
    let live = open();
    let store = |id: &str, text: String, metadata: serde_json::Value| {
        let metadata = metadata.as_object().unwrap().clone();
        rt.block_on(live.add(id, &json!(text), None, &metadata))
            .unwrap();
    };
    store(
        "env",
        format!("cloned with {SECRET}\nok\n"),
        json!({"context_type": "note"}),
    );
    store(
        "notes",
        "nothing secret here\n".into(),
        json!({"context_type": "note", "source": format!("token {SECRET}")}),
    );
    store(
        "plain",
        "just text\n".into(),
        json!({"context_type": "note"}),
    );
    for id in ["env", "notes", "plain"] {
        rt.block_on(live.get_by_id(id)).unwrap();
    }
    let index = data.join("context/default/index.sqlite");
    assert!(index.exists());

    let out = run(&root, &["redact", "data", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = tool_offload::json::parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(report["secrets"], json!({"github-token": 2}));
    assert_eq!(report["namespaces"], json!(["default"]));

    assert_records_describe_their_content(&open(), &rt);
    assert_records_describe_their_content(&live, &rt);
    // The live workspace goes on storing, and a new one sees that too.
    store(
        "later",
        "after the run\n".into(),
        json!({"context_type": "note"}),
    );
    let all = rt
        .block_on(open().query_artifacts(&Query::new(Default::default())))
        .unwrap();
    assert_eq!(all.len(), 4);
}
