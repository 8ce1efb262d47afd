//! Every vector (direct and batch) through core (in memory) and through the tokio host's
//! writer (real files).

use std::collections::BTreeMap;

use tool_offload::{MemoryWriter, TokioFileWriter};
use tool_offload_conformance::{load_vectors, record, Call, Rooted};

fn check(host: &str, outcomes: &BTreeMap<String, String>) {
    let vectors = load_vectors();
    let mut failures = Vec::new();
    for v in &vectors {
        let got = &outcomes[&v.id];
        if *got != v.expected() {
            failures.push(format!(
                "{}:\n  expected {}\n  got      {got}",
                v.id,
                v.expected()
            ));
        }
    }
    record(host, outcomes);
    let batch = vectors.iter().filter(|v| v.call == Call::Batch).count();
    assert!(batch > 0, "no batch vectors found");
    assert!(
        failures.is_empty(),
        "{host}: {} of {} vectors ({batch} batch) differ:\n{}",
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
        let got = futures_executor::block_on(v.run(&memory, || memory.files()));
        outcomes.insert(v.id.clone(), got);
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
        let got = v.run(&rooted, || rooted.written()).await;
        outcomes.insert(v.id.clone(), got);
    }
    check("tokio", &outcomes);
}
