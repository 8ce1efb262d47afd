//! Every vector through core (in memory) and through the tokio host (real files).

use std::collections::BTreeMap;

use tool_offload::{MemoryWriter, TokioFileWriter};
use tool_offload_conformance::{load_vectors, record, Rooted};

fn check(host: &str, outcomes: &BTreeMap<String, String>) {
    let vectors = load_vectors();
    let mut failures = Vec::new();
    for v in &vectors {
        let got = &outcomes[&v.name];
        if *got != v.expected() {
            failures.push(format!(
                "{}:\n  expected {}\n  got      {got}",
                v.name,
                v.expected()
            ));
        }
    }
    record(host, outcomes);
    assert!(
        failures.is_empty(),
        "{host}: {} of {} vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}

#[test]
fn core_with_memory_writer_passes_every_vector() {
    let mut outcomes = BTreeMap::new();
    for v in load_vectors() {
        let memory = MemoryWriter::new();
        let writer = v.failing(&memory);
        let got = futures_executor::block_on(v.run(&writer, || memory.files()));
        outcomes.insert(v.name.clone(), got);
    }
    check("core-native", &outcomes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokio_host_with_real_files_passes_every_vector() {
    let mut outcomes = BTreeMap::new();
    for v in load_vectors() {
        let tmp = tempfile::tempdir().unwrap();
        let rooted = Rooted {
            root: tmp.path().to_owned(),
            inner: TokioFileWriter::new(),
        };
        let writer = v.failing(&rooted);
        let got = v.run(&writer, || rooted.written()).await;
        outcomes.insert(v.name.clone(), got);
    }
    check("tokio", &outcomes);
}
