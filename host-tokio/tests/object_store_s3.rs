//! `ObjectStoreIo` against a real S3-compatible server (moto's server mode on
//! 127.0.0.1): the IO contract, the no-clobber create, workers sharing a conversation,
//! a big artifact's tail fetched by range, and a server that goes away.

mod s3;

use std::sync::Arc;

use object_store::ObjectStore;
use serde_json::json;
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    CreateOutcome, ErrorCode, FileLifecycle, FileReader, FileWriter, Materializer,
    MaterializerOptions, ObjectStoreIo, ToolOutputInput,
};

use s3::{Counting, Fetched, Flaky, Moto};

const BUCKET: &str = "artifacts";

fn io(moto: &Moto, prefix: &str) -> ObjectStoreIo {
    let store = s3::client(moto, BUCKET).build().expect("s3 client");
    ObjectStoreIo::new(Arc::new(store), prefix).expect("prefix")
}

/// `bash`'s output of call `id`.
fn bash<'a>(id: &'a str, output: &'a serde_json::Value) -> ToolOutputInput<'a> {
    ToolOutputInput {
        tool_call_id: id,
        tool_name: "bash",
        server_name: None,
        output,
    }
}

fn materializer(io: ObjectStoreIo, conversation: &str) -> Materializer<ObjectStoreIo> {
    Materializer::with_io(MaterializerOptions::at("/", conversation), io).expect("materializer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_io_contract_on_a_real_s3_server() {
    let moto = Moto::start(BUCKET);
    let fs = io(&moto, "team/a");
    fs.mkdir("/d/e").await.unwrap();
    fs.write_file("/d/x.txt", "hello world").await.unwrap();
    fs.write_file("/d/x.txt", "hello again").await.unwrap();
    assert_eq!(
        fs.read_file("/d/x.txt").await.unwrap().as_deref(),
        Some("hello again")
    );
    assert_eq!(fs.read_file("/d/none").await.unwrap(), None);
    // The no-clobber create is S3's conditional put (If-None-Match: *).
    assert_eq!(
        fs.create_file("/d/y.txt", "one").await.unwrap(),
        CreateOutcome::Created
    );
    assert_eq!(
        fs.create_file("/d/y.txt", "two").await.unwrap(),
        CreateOutcome::Exists
    );
    assert_eq!(
        fs.read_file("/d/y.txt").await.unwrap().as_deref(),
        Some("one")
    );
    fs.write_file("/d/sub/z.txt", "z").await.unwrap();
    assert_eq!(fs.list_dir("/d").await.unwrap(), ["sub", "x.txt", "y.txt"]);
    assert_eq!(fs.list_dir("/").await.unwrap(), ["d"]);
    assert!(fs.list_dir("/nothing").await.unwrap().is_empty());
    assert_eq!(fs.size("/d/x.txt").await.unwrap(), Some(11));
    assert_eq!(fs.size("/d/none").await.unwrap(), None);
    // Ranges: inside, cut at the end, from past the end; a missing object is an error.
    assert_eq!(fs.read_range("/d/x.txt", 6, 9).await.unwrap(), b"aga");
    assert_eq!(fs.read_range("/d/x.txt", 6, 100).await.unwrap(), b"again");
    assert!(fs.read_range("/d/x.txt", 11, 20).await.unwrap().is_empty());
    assert!(fs.read_range("/d/x.txt", 50, 60).await.unwrap().is_empty());
    assert!(fs.read_range("/d/none", 0, 5).await.is_err());
    let stat = fs.stat("/d/x.txt").await.unwrap().unwrap();
    assert_eq!((stat.size, stat.is_dir), (11, false));
    assert!(stat.modified_ms > 1_700_000_000_000);
    assert!(fs.stat("/d/sub").await.unwrap().unwrap().is_dir);
    assert_eq!(fs.stat("/d/none").await.unwrap(), None);
    fs.remove("/d/x.txt").await.unwrap();
    fs.remove("/d/x.txt").await.unwrap();
    assert_eq!(fs.size("/d/x.txt").await.unwrap(), None);
    // Keys live under the prefix; nothing can name one outside it.
    let other = io(&moto, "");
    assert_eq!(other.list_dir("/").await.unwrap(), ["team"]);
    assert_eq!(
        other.read_file("/team/a/d/y.txt").await.unwrap().as_deref(),
        Some("one")
    );
    let escape = fs.read_file("/d/../../b/secret").await.unwrap_err();
    assert_eq!(
        escape.to_string(),
        "path leaves the object store prefix: /d/../../b/secret"
    );
}

/// Outputs over the inline limit: `n` of them, with ids both workers use.
fn output(worker: usize, n: usize) -> serde_json::Value {
    let line = format!("worker {worker} output {n} ");
    json!(line.repeat(600))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_share_a_conversation_and_lose_nothing() {
    let moto = Moto::start(BUCKET);
    let workers: Vec<_> = (0..2)
        .map(|_| Arc::new(materializer(io(&moto, "p"), "conv-1")))
        .collect();
    let tasks = workers.iter().enumerate().map(|(w, m)| {
        let m = m.clone();
        tokio::spawn(async move {
            let mut refs = Vec::new();
            for n in 0..8 {
                let out = output(w, n);
                let id = format!("call_{n}");
                let input = bash(&id, &out);
                match m.materialize(&input).await.expect("materialize") {
                    Materialized::Artifact { reference, .. } => refs.push((reference.id, out)),
                    other => panic!("not materialized: {other:?}"),
                }
            }
            refs
        })
    });
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    let ids: std::collections::BTreeSet<_> = all.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids.len(), 16, "every output has its own artifact: {ids:?}");
    // Each worker reads every ref, its own and the other's, whole.
    for reader in &workers {
        for (id, out) in &all {
            let page = reader.read(id, 0, 100_000).await.expect("read");
            assert!(
                page.contains(&out.as_str().unwrap()[..40]),
                "{id}: {page:.200}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_artifact_tails_by_range() {
    let moto = Moto::start(BUCKET);
    let writer = materializer(io(&moto, "big"), "conv-big");
    let text: String = (0..400_000)
        .map(|i| format!("line {i:07} of the build log\n"))
        .collect();
    let size = text.len() as u64;
    let out = json!(text);
    let input = bash("call_big", &out);
    let Materialized::Artifact { reference, .. } = writer.materialize(&input).await.unwrap() else {
        panic!("not materialized");
    };
    // Another worker, whose store counts what it fetches.
    let fetched = Arc::new(Fetched::default());
    let inner: Arc<dyn ObjectStore> = Arc::new(s3::client(&moto, BUCKET).build().unwrap());
    let counting = Counting {
        inner,
        fetched: fetched.clone(),
    };
    let reader = materializer(
        ObjectStoreIo::new(Arc::new(counting), "big").unwrap(),
        "conv-big",
    );
    let page = reader.tail(&reference.id, 20).await.unwrap();
    assert!(
        page.contains("line 0399999 of the build log"),
        "{page:.300}"
    );
    let (gets, heads, bytes) = fetched.snapshot();
    eprintln!("tail of {size} bytes: {gets} ranged gets, {heads} heads, {bytes} bytes fetched");
    assert!(bytes < 1 << 20, "fetched {bytes} of {size} bytes");
    assert!(gets <= 4, "{gets} gets");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_is_a_clear_write_failed() {
    let mut moto = Moto::start(BUCKET);
    let m = materializer(io(&moto, "gone"), "conv-1");
    moto.stop();
    let out = output(0, 0);
    let input = bash("call_1", &out);
    let err = m.materialize(&input).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed, "{err}");
    assert!(err.to_string().contains("object store"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspaces_of_two_workers_share_records_in_s3() {
    use tool_offload::core::workspace::Query;
    use tool_offload::{ToolResultCall, Workspace, WorkspaceOptions};
    let moto = Moto::start(BUCKET);
    let workspace = |agent: &str| {
        let options = WorkspaceOptions {
            agent_id: Some(agent.to_owned()),
            task_id: Some("task-1".to_owned()),
            ..WorkspaceOptions::at("/")
        };
        Workspace::with_io(options, io(&moto, "ws")).unwrap()
    };
    let (a, b) = (workspace("a"), workspace("b"));
    let log = json!("build step ok\n".repeat(5000));
    for (ws, id) in [(&a, "call_a"), (&b, "call_b")] {
        let call = ToolResultCall {
            tool_call_id: id,
            tool_name: "bash",
            action_name: None,
            content: &log,
            metadata: None,
        };
        assert!(ws.offload_tool_result(&call).await.unwrap().offloaded);
    }
    // A third worker finds both records (no index: the records under the prefix are read).
    let third = workspace("c");
    let mut filter = tool_offload::core::Map::new();
    filter.insert("task_id".into(), json!("task-1"));
    let found = third.query_artifacts(&Query::new(filter)).await.unwrap();
    let mut ids: Vec<_> = found.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["tool_result_call_a", "tool_result_call_b"]);
    let knowledge = third.get_by_id("tool_result_call_b").await.unwrap();
    assert!(format!("{knowledge:?}").contains("build step ok"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gc_removes_artifacts_from_the_bucket() {
    use tool_offload::{gc_dir_with, GcOptions};
    let moto = Moto::start(BUCKET);
    let m = materializer(io(&moto, "gc"), "conv-1");
    let out = output(0, 0);
    let input = bash("call_1", &out);
    let Materialized::Artifact { path, .. } = m.materialize(&input).await.unwrap() else {
        panic!("not materialized");
    };
    let options = GcOptions {
        max_bytes: Some(0),
        ..GcOptions::default()
    };
    let report = gc_dir_with("/", &options, m.io()).await.unwrap();
    assert_eq!(report.removed.len(), 1, "{report:?}");
    assert_eq!(m.io().size(&path).await.unwrap(), None, "{path}");
    assert_eq!(
        m.io().size(&format!("{path}.removed")).await.unwrap(),
        Some(0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn throttling_is_retried_by_the_store() {
    let moto = Moto::start(BUCKET);
    let flaky = Flaky::start(moto.endpoint.trim_start_matches("http://"), 2);
    let store = s3::client(&moto, BUCKET)
        .with_endpoint(&flaky.endpoint)
        .build()
        .unwrap();
    let m = materializer(
        ObjectStoreIo::new(Arc::new(store), "slow").unwrap(),
        "conv-1",
    );
    let out = output(0, 0);
    let done = m.materialize(&bash("call_1", &out)).await.unwrap();
    assert_eq!(flaky.refused.load(std::sync::atomic::Ordering::SeqCst), 2);
    let Materialized::Artifact { reference, .. } = done else {
        panic!("not materialized");
    };
    assert!(m
        .tail(&reference.id, 1)
        .await
        .unwrap()
        .contains("worker 0 output 0"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_gone_mid_put_leaves_no_half_object() {
    let moto = Moto::start(BUCKET);
    let cut = Flaky::cutting(moto.endpoint.trim_start_matches("http://"));
    let store = s3::client(&moto, BUCKET)
        .with_endpoint(&cut.endpoint)
        .build()
        .unwrap();
    let m = materializer(
        ObjectStoreIo::new(Arc::new(store), "cut").unwrap(),
        "conv-1",
    );
    let out = output(0, 0);
    let err = m.materialize(&bash("call_1", &out)).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed, "{err}");
    eprintln!("a server gone mid-put: {err}");
    assert!(cut.refused.load(std::sync::atomic::Ordering::SeqCst) >= 1);
    // Seen straight from the server: nothing under the prefix, not even part of it.
    let direct = io(&moto, "cut");
    assert!(direct.list_dir("/").await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_credentials_are_a_clear_error() {
    let moto = Moto::start(BUCKET);
    let m = materializer(io(&moto, "denied"), "conv-1");
    moto.require_auth();
    let out = output(0, 0);
    let err = m.materialize(&bash("call_1", &out)).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed, "{err}");
    eprintln!("wrong credentials, write: {err}");
    assert!(err.to_string().contains("InvalidAccessKeyId"), "{err}");
    let err = m.tail("ctx://conv-1/tool/call_1.txt", 1).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::ReadFailed, "{err}");
    eprintln!("wrong credentials, read: {err}");
    // A HEAD's refusal has no body to name the reason; the status and the store's
    // words say it.
    for words in ["lacked the necessary privileges", "403 Forbidden"] {
        assert!(err.to_string().contains(words), "{err}");
    }
}
