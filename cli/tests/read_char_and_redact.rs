//! This round's flags: `read --char N` prints the page `context_read` gives with `char`
//! (a grep window's `57.3@4010`), and `offload --redact` writes no secret.
mod common;

use std::sync::Arc;

use serde_json::json;
use tool_offload::json::stringify;
use tool_offload::{Materializer, ToolRegistry};

use common::*;

const REF: &str = "ctx://conv-1/tool/call_line.txt";

/// `content` as the one tool result (call `id`) of conv-1, materialized into `root/data`.
fn materialized(root: &std::path::Path, id: &str, content: &str) {
    let conversation = json!([
        {"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content}]},
    ]);
    std::fs::write(root.join("conv-1.json"), stringify(&conversation)).unwrap();
    let args = ["materialize", "conv-1.json", "--user-data", "data"];
    let out = run(root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn read_from_a_character_prints_the_tools_page() {
    let (_tmp, root) = tempdir();
    let line: String = (0..3000).map(|i| format!("{i:04},")).collect();
    materialized(&root, "call_line", &format!("head\n{line}\n"));
    // The grep window names where it starts; read --char starts there.
    let out = run(&root, &["grep", REF, "1300,", "--user-data", "data"], b"");
    let grep = stdout(&out);
    let label = grep.lines().nth(1).unwrap().split('|').next().unwrap();
    let (_, at) = label.split_once('@').expect(grep);
    let out = run(
        &root,
        &[
            "read",
            REF,
            "--offset",
            "1",
            "--char",
            at,
            "--limit",
            "1",
            "--json",
            "--user-data",
            "data",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = tool_offload::json::parse(stdout(&out).trim_end()).unwrap()["page"]
        .as_str()
        .unwrap()
        .to_owned();
    let materializer = Arc::new(Materializer::in_dir(root.join("data"), "conv-1").unwrap());
    let mut registry = ToolRegistry::new();
    materializer.register_tools(&mut registry).unwrap();
    let at: usize = at.parse().unwrap();
    let params = json!({"ref": REF, "offset": 1, "char": at, "limit": 1});
    let tool = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(registry.execute_tool("t", "context_read", params))
        .unwrap();
    assert_eq!(page, tool.content);
    assert!(page.contains(&format!("@{at}| ")), "{page}");
}

#[test]
fn offload_redact_writes_no_secret() {
    let (_tmp, root) = tempdir();
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let content = format!("token {secret}\n{}", "ok\n".repeat(100));
    write_json(&root.join("conv.json"), &[anthropic("t1", &content)]);
    let out = run(
        &root,
        &["offload", "conv.json", "--out", "art", "--redact"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = files(&root.join("art"));
    assert_eq!(written.len(), 1);
    let text = written.values().next().unwrap();
    assert!(text.starts_with("token [REDACTED:github-token]\n") && !text.contains(secret));
}

/// `--redact-pattern` and `--redact-replace` reach `offload` and `redact DIR`; a pattern
/// the engine refuses is bad input (exit 2) naming the flag.
#[test]
fn user_patterns_reach_offload_and_redact() {
    let (_tmp, root) = tempdir();
    let content = format!("order ACME-20261202 shipped\n{}", "ok\n".repeat(100));
    let conv = json!([{"role": "tool", "tool_call_id": "c1", "content": content}]);
    std::fs::write(root.join("conv.json"), stringify(&conv)).unwrap();
    let args = [
        "offload",
        "conv.json",
        "--out",
        "art",
        "--redact-pattern",
        "ACME-[0-9]{8}",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = files(&root.join("art"));
    let text = written.values().next().unwrap();
    assert!(
        text.starts_with("order [REDACTED:custom] shipped\n"),
        "{text}"
    );

    let bad = run(
        &root,
        &[
            "offload",
            "conv.json",
            "--out",
            "x",
            "--redact-pattern",
            "(?=a)",
        ],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--redact-pattern: invalid pattern \"(?=a)\": look-around"));

    materialized(
        &root,
        "call_ord",
        &format!("id ACME-12345678\n{}", "step ok\n".repeat(2000)),
    );
    let artifact = root.join("data/context/conv-1/artifacts/tool/call_ord.txt");
    let args = [
        "redact",
        "data",
        "--redact-pattern",
        "ACME-[0-9]{8}",
        "--redact-replace",
        "***",
    ];
    let out = run(&root, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().last(),
        Some("rewrote 1 of 1 artifact; 1 secret: custom 1")
    );
    assert!(std::fs::read_to_string(&artifact)
        .unwrap()
        .starts_with("id ***\nstep ok\n"));
}

#[test]
fn redact_rewrites_stored_artifacts_in_place() {
    let (_tmp, root) = tempdir();
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    // Over 1 MiB: the artifact gets a line index beside it, which the rewrite must drop.
    let log: String = (0..100_000).map(|i| format!("step {i} ok\n")).collect();
    materialized(&root, "call_env", &format!("token {secret}\n{log}"));
    let artifact = root.join("data/context/conv-1/artifacts/tool/call_env.txt");
    assert!(std::fs::read_to_string(&artifact).unwrap().contains(secret));
    let index = root.join("data/context/conv-1/index/tool/call_env.txt.lines");
    assert!(index.exists());

    let dry = run(&root, &["redact", "data", "--dry-run"], b"");
    assert_eq!(
        stdout(&dry).lines().last(),
        Some("would rewrite 1 of 1 artifact; 1 secret: github-token 1")
    );
    assert!(
        std::fs::read_to_string(&artifact).unwrap().contains(secret),
        "a dry run writes nothing"
    );

    let out = run(&root, &["redact", "data", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = tool_offload::json::parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(report["secrets"], json!({"github-token": 1}));
    assert_eq!(report["rewritten"].as_array().unwrap().len(), 1);
    let text = std::fs::read_to_string(&artifact).unwrap();
    assert!(
        text.starts_with("token [REDACTED:github-token]\nstep 0 ok\n") && !text.contains(secret)
    );
    assert!(!index.exists());
    // Read back by line after the rewrite: the numbering is the new text's.
    let out = run(
        &root,
        &[
            "read",
            "ctx://conv-1/tool/call_env.txt",
            "--offset",
            "99999",
            "--limit",
            "2",
            "--user-data",
            "data",
        ],
        b"",
    );
    assert!(
        stdout(&out).contains("\n100000| step 99998 ok\n100001| step 99999 ok"),
        "{}",
        stdout(&out)
    );
    let missing = run(&root, &["redact", "nope"], b"");
    assert_eq!(missing.status.code(), Some(2));
}

/// Workspace knowledge is redacted with its record (sizes, hash, metadata), and the
/// namespace's SQLite index, which held the old record, is given the new one: a workspace
/// opened afterwards answers with the redacted record. An index that cannot be opened is
/// removed instead (rebuilt from the records on open).
#[test]
fn redact_rewrites_knowledge_and_its_record_and_keeps_the_index_in_step() {
    use tool_offload::core::workspace::Query;
    use tool_offload::{Workspace, WorkspaceOptions};
    let (_tmp, root) = tempdir();
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let data = root.join("data");
    let open = || Workspace::new(WorkspaceOptions::at(data.to_str().unwrap())).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let metadata = json!({"context_type": "note", "source": format!("token {secret}")});
    let content = json!(format!("cloned with {secret}\nok\n"));
    rt.block_on(open().add("env", &content, None, metadata.as_object().unwrap()))
        .unwrap();
    let ns = data.join("context/default");
    assert!(ns.join("index.sqlite").exists());

    let out = run(&root, &["redact", "data", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = tool_offload::json::parse(stdout(&out).trim_end()).unwrap();
    assert_eq!(report["secrets"], json!({"github-token": 2}));
    assert_eq!(report["namespaces"], json!(["default"]));
    assert_eq!(report["skipped"], json!([]));
    assert!(
        ns.join("index.sqlite").exists(),
        "the index is kept, in step"
    );
    let text = std::fs::read_to_string(ns.join("artifacts/knowledge/env.txt")).unwrap();
    assert_eq!(text, "cloned with [REDACTED:github-token]\nok\n");

    let found = rt
        .block_on(open().query_artifacts(&Query::new(Default::default())))
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].metadata["source"], "token [REDACTED:github-token]");
    assert_eq!(found[0].metadata["chars"], json!(text.len()));
    let again = run(&root, &["redact", "data"], b"");
    assert_eq!(
        stdout(&again).lines().last(),
        Some("rewrote 0 of 1 artifact; 0 secrets")
    );

    // An index that is no SQLite database: removed, and rebuilt by the next workspace.
    let more = json!({"context_type": "note", "source": format!("token {secret}")});
    rt.block_on(open().add("two", &content, None, more.as_object().unwrap()))
        .unwrap();
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(ns.join(format!("index.sqlite{suffix}")));
    }
    std::fs::write(ns.join("index.sqlite"), "not a database").unwrap();
    let out = run(&root, &["redact", "data"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("its SQLite index removed"),
        "{}",
        stdout(&out)
    );
    assert!(!ns.join("index.sqlite").exists());
    let found = rt
        .block_on(open().query_artifacts(&Query::new(Default::default())))
        .unwrap();
    assert_eq!(found.len(), 2);
    assert!(found
        .iter()
        .all(|r| r.metadata["source"] == "token [REDACTED:github-token]"));
}
