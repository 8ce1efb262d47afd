//! The workspace index in a real PostgreSQL (a throwaway cluster, see `pg/cluster.rs`):
//! many workers over one object store and one database, rebuilds from object storage,
//! and clear errors.

#[path = "pg/cluster.rs"]
mod cluster;

use std::sync::Arc;
use std::time::{Duration, Instant};

use cluster::Cluster;
use object_store::memory::InMemory;
use object_store::{ObjectStore, ObjectStoreExt};
use serde_json::json;
use tool_offload::core::workspace::{KnowledgeRecord, KnowledgeType, Query};
use tool_offload::{
    ErrorCode, ObjectStoreIo, OffloadError, PostgresIndex, RecordIndex, Workspace, WorkspaceOptions,
};
use tool_offload_core::{Map, Value};

fn io(store: &Arc<dyn ObjectStore>) -> ObjectStoreIo {
    ObjectStoreIo::new(store.clone(), "tenant").expect("an io over the store")
}

fn options(task: &str) -> WorkspaceOptions {
    WorkspaceOptions {
        task_id: Some(task.into()),
        ..WorkspaceOptions::at("/srv/agent")
    }
}

/// A worker: its own connection to the database, the shared store.
async fn worker(
    cluster: &Cluster,
    store: &Arc<dyn ObjectStore>,
    namespace: &str,
    clock: f64,
) -> Workspace<ObjectStoreIo> {
    let index = PostgresIndex::connect(&cluster.config(), namespace)
        .await
        .expect("connect");
    Workspace::with_io(options("t1"), io(store))
        .expect("workspace")
        .with_index(Arc::new(index))
        .with_clock(Arc::new(move || clock))
}

/// A process with no index: queries scan the records.
fn scanner(store: &Arc<dyn ObjectStore>, clock: f64) -> Workspace<ObjectStoreIo> {
    Workspace::with_io(options("t1"), io(store))
        .expect("workspace")
        .with_clock(Arc::new(move || clock))
}

fn filter(value: Value) -> Query {
    let mut q = Query::new(value.as_object().expect("an object").clone());
    q.limit = 1000;
    q
}

/// The queries every index must answer as the scan does.
fn queries() -> Vec<Query> {
    let mut paged = filter(json!({"context_type": "note"}));
    (paged.offset, paged.limit) = (7, 5);
    vec![
        filter(json!({})),
        filter(json!({"worker": 1})),
        filter(json!({"worker": 2, "parity": "odd"})),
        filter(json!({"n": 3.0})),
        filter(json!({"n": "3"})),
        filter(json!({"tags": ["a", 1.0]})),
        filter(json!({"long": "x".repeat(3000)})),
        filter(json!({"missing": null})),
        paged,
    ]
}

async fn same_answers(indexed: &Workspace<ObjectStoreIo>, scan: &Workspace<ObjectStoreIo>) {
    for q in queries() {
        let want: Vec<KnowledgeRecord> = scan.query_artifacts(&q).await.expect("scan");
        let got = indexed.query_artifacts(&q).await.expect("index");
        assert_eq!(got, want, "{:?}", q.filter);
    }
}

fn metadata(worker: usize, n: usize) -> Map<String, Value> {
    let parity = if n.is_multiple_of(2) { "even" } else { "odd" };
    json!({"context_type": "note", "worker": worker, "n": n, "parity": parity,
           "tags": ["a", n % 3], "long": "x".repeat(3000)})
    .as_object()
    .expect("an object")
    .clone()
}

async fn write(ws: &Workspace<ObjectStoreIo>, worker: usize, count: usize) {
    for n in 0..count {
        let content = json!(format!("note {n} of worker {worker}"));
        ws.add(
            &format!("w{worker}-{n}"),
            &content,
            None,
            &metadata(worker, n),
        )
        .await
        .expect("add");
        // Both workers store this one: one creates it, the other finds it.
        ws.add("shared", &json!("the same"), None, &metadata(0, 0))
            .await
            .expect("a colliding add of the same content");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_write_concurrently_and_a_third_sees_everything() {
    let cluster = Cluster::start();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let one = worker(&cluster, &store, "default", 1000.0).await;
    let two = worker(&cluster, &store, "default", 2000.0).await;
    tokio::join!(write(&one, 1, 40), write(&two, 2, 40));
    let third = worker(&cluster, &store, "default", 3000.0).await;
    let all = third.query_artifacts(&filter(json!({}))).await.unwrap();
    assert_eq!(
        all.len(),
        81,
        "every record of both workers, and the shared one once"
    );
    for pair in all.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let ordered = (b.created_at(), a.id.as_str()) < (a.created_at(), b.id.as_str());
        assert!(
            ordered,
            "newest first, then by id: {} before {}",
            a.id, b.id
        );
    }
    assert_ne!(all[0].created_at(), all[80].created_at(), "two clocks");
    same_answers(&third, &scanner(&store, 0.0)).await;
    let odd_two = third
        .query_artifacts(&filter(json!({"worker": 2, "parity": "odd"})))
        .await
        .unwrap();
    assert_eq!(odd_two.len(), 20);
    // Namespaces share the tables, not their rows.
    let other = PostgresIndex::connect(&cluster.config(), "elsewhere")
        .await
        .unwrap();
    assert!(other.ids().await.unwrap().is_empty());
    let same = other.namespace("default");
    assert_eq!(same.ids().await.unwrap().len(), 81);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_trusts_its_writers_and_rebuilds_from_object_storage() {
    let cluster = Cluster::start();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let plain = scanner(&store, 500.0);
    write(&plain, 1, 10).await;
    let indexed = worker(&cluster, &store, "default", 1000.0).await;
    // Never synced: the first query catches up with what is in the store.
    same_answers(&indexed, &plain).await;
    write(&indexed, 2, 5).await;
    same_answers(&indexed, &plain).await;
    // A process without the index writes: a shared index does not list the store again.
    let late = scanner(&store, 1500.0);
    write(&late, 3, 4).await;
    let all = filter(json!({}));
    assert_eq!(indexed.query_artifacts(&all).await.unwrap().len(), 16);
    assert_eq!(plain.query_artifacts(&all).await.unwrap().len(), 20);
    // A record gone from the store (removed by hand) …
    let key = io(&store)
        .key("/srv/agent/context/default/records/w1-0.json")
        .unwrap();
    store.delete(&key.into()).await.expect("delete a record");
    indexed.rebuild_index().await.expect("rebuild");
    // … and the late ones: the rebuild read the records back from object storage.
    assert_eq!(indexed.query_artifacts(&all).await.unwrap().len(), 19);
    same_answers(&indexed, &scanner(&store, 0.0)).await;
    // A new worker trusts the rebuilt index.
    let fresh = worker(&cluster, &store, "default", 2000.0).await;
    same_answers(&fresh, &scanner(&store, 0.0)).await;
}

fn assert_read_failed(e: &OffloadError, words: &str) {
    assert_eq!(e.code(), ErrorCode::ReadFailed, "{e}");
    let text = e.to_string();
    assert!(
        text.contains("cannot connect to the PostgreSQL index"),
        "{text}"
    );
    assert!(text.contains(words), "{text} should say {words:?}");
    assert!(
        !text.contains(cluster::PASSWORD),
        "never the password: {text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_refused_and_silent_servers_are_clear_errors() {
    let cluster = Cluster::start();
    let e = PostgresIndex::connect(&cluster.config_with("wrong"), "default")
        .await
        .unwrap_err();
    assert_read_failed(&e, "password authentication failed");
    // Nothing listening.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let e = PostgresIndex::connect(&format!("host=127.0.0.1 port={port} user=u dbname=d"), "n")
        .await
        .unwrap_err();
    assert_read_failed(&e, "error connecting to server");
    assert!(
        e.to_string()
            .contains(&format!("postgresql://u@127.0.0.1:{port}/d")),
        "{e}"
    );
    // A server that accepts and never answers: the connect timeout ends the wait.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let started = Instant::now();
    let e = PostgresIndex::connect(
        &format!("host=127.0.0.1 port={port} user=u dbname=d connect_timeout=1"),
        "n",
    )
    .await
    .unwrap_err();
    assert_read_failed(&e, "no answer within 1s");
    assert!(started.elapsed() < Duration::from_secs(10));
    drop(silent);
    let e = PostgresIndex::connect("host=127.0.0.1 port=notaport", "n")
        .await
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_gone_after_connecting_is_a_read_failed() {
    let mut cluster = Cluster::start();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let ws = worker(&cluster, &store, "default", 1000.0).await;
    write(&ws, 1, 2).await;
    cluster.stop();
    let e = ws
        .query_artifacts(&filter(json!({"worker": 1})))
        .await
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::ReadFailed, "{e}");
    assert!(
        e.to_string()
            .contains("postgresql://tool_offload@127.0.0.1"),
        "{e}"
    );
    let e = ws
        .add("after", &json!("x"), None, &metadata(1, 9))
        .await
        .unwrap_err();
    assert!(
        matches!(e.code(), ErrorCode::ReadFailed | ErrorCode::WriteFailed),
        "{e}"
    );
}

/// End every other session of the cluster's user, as an administrator, a failover or a
/// proxy's idle timeout would.
async fn terminate_other_sessions(cluster: &Cluster) -> u64 {
    let (admin, connection) = tokio_postgres::connect(&cluster.config(), tokio_postgres::NoTls)
        .await
        .expect("an admin connection");
    tokio::spawn(connection);
    let ended = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE usename = current_user AND pid <> pg_backend_pid()",
            &[],
        )
        .await
        .expect("terminate the index's session");
    ended.get::<_, i64>(0) as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_connection_is_made_again() {
    let mut cluster = Cluster::start();
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let ws = worker(&cluster, &store, "default", 1000.0).await;
    write(&ws, 1, 3).await;
    let everything = filter(json!({"worker": 1}));
    assert_eq!(ws.query_artifacts(&everything).await.unwrap().len(), 3);
    // The session ended under it: the next calls connect again, reads and writes alike.
    assert!(terminate_other_sessions(&cluster).await >= 1);
    assert_eq!(ws.query_artifacts(&everything).await.unwrap().len(), 3);
    assert!(terminate_other_sessions(&cluster).await >= 1);
    ws.add("after-loss", &json!("x"), None, &metadata(1, 7))
        .await
        .expect("an add after the loss");
    assert_eq!(ws.query_artifacts(&everything).await.unwrap().len(), 4);
    // The server restarted: the same.
    cluster.restart();
    assert_eq!(ws.query_artifacts(&everything).await.unwrap().len(), 4);
    // A client brought by the caller is theirs to renew: its loss is an error.
    let (client, connection) = tokio_postgres::connect(&cluster.config(), tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let index = PostgresIndex::from_client(client, "default").await.unwrap();
    assert!(index.ids().await.unwrap().len() >= 4);
    terminate_other_sessions(&cluster).await;
    let e = index.ids().await.unwrap_err();
    assert_eq!(e.code(), ErrorCode::ReadFailed, "{e}");
}

fn record(id: &str, created_at: &str, metadata: Value) -> KnowledgeRecord {
    let mut metadata = metadata.as_object().expect("an object").clone();
    metadata.insert("created_at".into(), json!(created_at));
    KnowledgeRecord {
        id: id.into(),
        kind: KnowledgeType::Text,
        metadata,
    }
}

async fn ids_of(index: &PostgresIndex, query: Value) -> Vec<String> {
    let found = index.query(&filter(query)).await.expect("query");
    found.into_iter().map(|r| r.id).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_index_call_does_what_it_says() {
    let cluster = Cluster::start();
    let index = PostgresIndex::connect(&cluster.config(), "direct")
        .await
        .unwrap();
    assert_eq!(
        index.changed().await.unwrap().as_deref(),
        Some("shared"),
        "never synced"
    );
    index.synced("shared").await.unwrap();
    assert_eq!(index.changed().await.unwrap(), None);
    let fresh = index.namespace("direct");
    assert_eq!(
        fresh.changed().await.unwrap(),
        None,
        "the mark is in the database"
    );
    let a = record("a", "2026-01-02T00:00:00.000Z", json!({"k": "old", "n": 1}));
    let b = record("b", "2026-01-01T00:00:00.000Z", json!({"k": "old", "n": 1}));
    index.insert(&[a, b.clone(), b]).await.unwrap();
    assert_eq!(
        ids_of(&index, json!({"k": "old", "n": 1.0})).await,
        ["a", "b"]
    );
    // Replacing a record replaces its fields.
    let a = record("a", "2026-01-02T00:00:00.000Z", json!({"k": "new"}));
    index.insert(std::slice::from_ref(&a)).await.unwrap();
    assert_eq!(ids_of(&index, json!({"k": "old"})).await, ["b"]);
    assert_eq!(
        index.query(&filter(json!({"k": "new"}))).await.unwrap(),
        [a]
    );
    index.remove(&["b".to_owned()]).await.unwrap();
    assert_eq!(index.ids().await.unwrap(), ["a".to_owned()].into());
    assert!(
        ids_of(&index, json!({"k": "old"})).await.is_empty(),
        "its fields went too"
    );
    index.clear().await.unwrap();
    assert!(index.ids().await.unwrap().is_empty());
    assert!(ids_of(&index, json!({"k": "new"})).await.is_empty());
    assert!(
        index.changed().await.unwrap().is_some(),
        "a cleared index is behind"
    );
    assert!(index.namespace("direct").changed().await.unwrap().is_some());
}
