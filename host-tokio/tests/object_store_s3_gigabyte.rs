//! A 1 GB artifact in a real S3-compatible server (moto on 127.0.0.1): one worker
//! materializes it (the artifact and its line index, as objects); another tails it,
//! fetching a few kilobytes of the gigabyte by range.

mod s3;

use std::sync::Arc;

use object_store::ObjectStore;
use serde_json::Value;
use tool_offload::core::materialize::Materialized;
use tool_offload::{Materializer, MaterializerOptions, ObjectStoreIo, ToolOutputInput};

use s3::{Counting, Fetched, Moto};

const BUCKET: &str = "gigabyte";

/// The artifact's size: a gigabyte, in lines of 50 bytes.
const SIZE: usize = 1_000_000_000;
const LINE: usize = 50;

/// Line `n` of the artifact (0-based), 50 bytes with its newline.
fn line(n: usize) -> String {
    format!("line {n:010} of a gigabyte of build output....\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gigabyte_artifact_tails_without_downloading_it() {
    let moto = Moto::start(BUCKET);
    let store: Arc<dyn ObjectStore> = Arc::new(s3::client(&moto, BUCKET).build().unwrap());
    let mut text = String::with_capacity(SIZE);
    for n in 0..SIZE / LINE {
        text.push_str(&line(n));
    }
    assert_eq!(text.len(), SIZE);
    let started = std::time::Instant::now();
    let writer = Materializer::with_io(
        MaterializerOptions::at("/", "conv-1"),
        ObjectStoreIo::new(store.clone(), "fleet").unwrap(),
    )
    .unwrap();
    let output = Value::String(text);
    let input = ToolOutputInput {
        tool_call_id: "call_1",
        tool_name: "bash",
        server_name: None,
        output: &output,
    };
    let Materialized::Artifact { reference, .. } = writer.materialize(&input).await.unwrap() else {
        panic!("not materialized");
    };
    drop(output);
    eprintln!("materialize 1 GB: {:?}", started.elapsed());

    // Another worker, whose store counts what it fetches, reads it back.
    let fetched = Arc::new(Fetched::default());
    let counting = Counting {
        inner: store,
        fetched: fetched.clone(),
    };
    let io = ObjectStoreIo::new(Arc::new(counting), "fleet").unwrap();
    let reader = Materializer::with_io(MaterializerOptions::at("/", "conv-1"), io).unwrap();
    let started = std::time::Instant::now();
    let page = reader.tail(&reference.id, 200).await.unwrap();
    eprintln!("tail: {:?}", started.elapsed());
    let last = SIZE / LINE - 1;
    // 200 lines asked; the page's budget holds the last 62 of them.
    assert!(
        page.starts_with(&format!(
            "[{}: lines 19999939-20000000 of 20,000,000, the end.]\n19999939| {}",
            reference.id,
            line(last - 61)
        )),
        "{page:.300}"
    );
    assert!(page.ends_with(line(last).trim_end()), "{page:.300}");
    let (gets, heads, bytes) = fetched.snapshot();
    eprintln!("tail 200 of {SIZE} bytes: {gets} ranged gets, {heads} heads, {bytes} bytes");
    assert!(bytes < 1 << 20, "fetched {bytes} of {SIZE} bytes");
    assert!(gets <= 4, "{gets} gets");
}
