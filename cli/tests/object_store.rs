//! `--out s3://…` and `--user-data s3://…` against a real S3-compatible server (moto on
//! 127.0.0.1): two worker processes materialize into one conversation at once with
//! colliding ids and lose nothing, each reads the other's refs, and batch offload writes
//! its files as objects.
mod common;

#[path = "../../host-tokio/tests/s3/moto.rs"]
mod moto;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::json;
use tool_offload::json::{parse, stringify};
use tool_offload::{FileReader, ObjectStoreIo};

use common::*;
use moto::Moto;

const BUCKET: &str = "workers";

/// The tool with `args` in `dir`, the store's endpoint and credentials in its environment.
fn tool(moto: &Moto, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tool-offload"));
    command
        .args(args)
        .current_dir(dir)
        .env("AWS_ENDPOINT_URL", &moto.endpoint)
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// A conversation of `calls` tool results, each over the inline limit, told apart by `worker`.
fn conversation(worker: usize, calls: usize) -> serde_json::Value {
    let messages: Vec<_> = (0..calls)
        .flat_map(|n| {
            let id = format!("call_{n}");
            let log = format!("worker {worker} call {n}\n").repeat(400);
            [
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "bash", "input": {}}]}),
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": log}]}),
            ]
        })
        .collect();
    json!(messages)
}

fn finished(child: Child) -> (String, String) {
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (stdout(&out).to_owned(), stderr(&out).to_owned())
}

/// One test: the environment set at its end is the process's.
#[test]
fn workers_share_artifacts_through_s3() {
    let moto = Moto::start(BUCKET);
    let (_tmp, dir) = tempdir();
    let user_data = format!("s3://{BUCKET}/agents");
    for worker in 0..2 {
        let input = dir.join(format!("w{worker}.json"));
        std::fs::write(&input, stringify(&conversation(worker, 6))).unwrap();
    }
    // Two processes, one conversation, the same call ids, at the same time.
    let workers: Vec<Child> = (0..2)
        .map(|w| {
            let input = format!("w{w}.json");
            let args = [
                "materialize",
                &input,
                "--conversation",
                "conv-1",
                "--user-data",
                &user_data,
                "--json",
            ];
            tool(&moto, &dir, &args).spawn().unwrap()
        })
        .collect();
    let mut refs = Vec::new();
    for (worker, child) in workers.into_iter().enumerate() {
        let (_, summary) = finished(child);
        let summary = parse(summary.trim()).unwrap();
        let worker_refs: Vec<String> = summary["refs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(worker_refs.len(), 6, "{summary}");
        refs.extend(worker_refs.into_iter().map(|r| (worker, r)));
    }
    let distinct: std::collections::BTreeSet<_> = refs.iter().map(|(_, r)| r).collect();
    assert_eq!(distinct.len(), 12, "nothing overwritten: {distinct:?}");
    // Every ref read back by a process that did not write it.
    for (worker, reference) in &refs {
        let n: usize = reference.rsplit("call_").next().unwrap()[..1]
            .parse()
            .unwrap();
        let args = [
            "tail",
            reference.as_str(),
            "--lines",
            "1",
            "--user-data",
            &user_data,
        ];
        let (page, _) = finished(tool(&moto, &dir, &args).spawn().unwrap());
        assert!(
            page.contains(&format!("worker {worker} call {n}")),
            "{reference}: {page}"
        );
    }

    // Batch offload into the bucket: the files are objects under the prefix.
    let input = dir.join("w0.json");
    let args = [
        "offload",
        input.to_str().unwrap(),
        "--out",
        "s3://workers/batch",
        "-o",
        "out.json",
    ];
    let (_, summary) = finished(tool(&moto, &dir, &args).spawn().unwrap());
    assert!(summary.contains("s3://workers/batch"), "{summary}");
    assert!(!dir.join("batch").exists() && !Path::new("/tool-result-call_0.md").exists());
    // A location that is no store: a clear error, exit 2.
    let out = run(
        &dir,
        &["tail", "ctx://c/tool/x.txt", "--user-data", "ftp://host/x"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--user-data ftp://host/x: invalid object store location"),
        "{}",
        stderr(&out)
    );

    // Read the objects back here (the last step: the environment is set for this process).
    std::env::set_var("AWS_ENDPOINT_URL", &moto.endpoint);
    std::env::set_var("AWS_ACCESS_KEY_ID", "test");
    std::env::set_var("AWS_SECRET_ACCESS_KEY", "test");
    std::env::set_var("AWS_REGION", "us-east-1");
    let io = ObjectStoreIo::from_url("s3://workers/batch").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let names = runtime.block_on(io.list_dir("/")).unwrap();
    assert_eq!(names.len(), 6, "{names:?}");
    let text = runtime
        .block_on(io.read_file("/tool-result-call_3.md"))
        .unwrap()
        .unwrap();
    assert!(text.starts_with("worker 0 call 3\n"), "{text:.100}");
    let offloaded = std::fs::read_to_string(dir.join("out.json")).unwrap();
    assert!(
        offloaded.contains("[Content offloaded to: ./tool-result-call_3.md]"),
        "{offloaded:.300}"
    );
}

/// `mcp serve` reads a conversation's artifacts back from the bucket, `gc` collects them
/// there, and refused credentials are a clear failure.
#[test]
fn mcp_serve_and_gc_work_on_s3() {
    let moto = Moto::start(BUCKET);
    let (_tmp, dir) = tempdir();
    let user_data = format!("s3://{BUCKET}/served");
    std::fs::write(dir.join("c.json"), stringify(&conversation(7, 2))).unwrap();
    let args = [
        "materialize",
        "c.json",
        "--conversation",
        "conv-7",
        "--user-data",
        &user_data,
        "--json",
    ];
    let (_, summary) = finished(tool(&moto, &dir, &args).spawn().unwrap());
    let summary = parse(summary.trim()).unwrap();
    let reference = summary["refs"][1].as_str().unwrap().to_owned();

    // The read-back server over the bucket: a whole session on stdin, answers by id.
    let requests = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "context_tail", "arguments": { "ref": reference, "lines": 1 } } }),
        json!({ "jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": { "uri": reference } }),
    ];
    let session: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let args = [
        "mcp",
        "serve",
        "--user-data",
        &user_data,
        "--conversation",
        "conv-7",
    ];
    let mut serve = tool(&moto, &dir, &args);
    let mut child = serve.stdin(Stdio::piped()).spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(session.as_bytes())
        .unwrap();
    let (out, _) = finished(child);
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answer = |id: u64| answers.iter().find(|a| a["id"] == id).unwrap();
    let tail = answer(2)["result"]["content"][0]["text"].as_str().unwrap();
    assert!(tail.ends_with("| worker 7 call 1"), "{tail}");
    let text = answer(3)["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("worker 7 call 1\n"), "{text:.100}");

    // gc over the bucket: a dry run removes nothing, then everything goes.
    let gc = |extra: &[&str]| {
        let mut args = vec!["gc", &user_data, "--max-size", "0", "--json"];
        args.extend_from_slice(extra);
        let (out, _) = finished(tool(&moto, &dir, &args).spawn().unwrap());
        parse(out.trim()).unwrap()
    };
    let dry = gc(&["--dry-run"]);
    assert_eq!(dry["removed"].as_array().unwrap().len(), 2, "{dry}");
    assert_eq!(gc(&[])["removed"], dry["removed"]);
    let args = ["tail", reference.as_str(), "--user-data", &user_data];
    let out = tool(&moto, &dir, &args).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("was removed"), "{}", stderr(&out));

    // Credentials the store refuses: a failure (exit 1) that says so.
    moto.require_auth();
    let out = tool(&moto, &dir, &args).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    for words in ["lacked the necessary privileges", "403 Forbidden"] {
        assert!(stderr(&out).contains(words), "{}", stderr(&out));
    }
}
