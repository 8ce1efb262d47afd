//! Every vector through core with an in-memory file system: the `core-native` host.
//! Outcomes are recorded in `target/conformance/core-native.json` for
//! `tests/cross-host.mjs`.
//!
//! Bless mode (`TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test
//! core_host`) fills in the `$core` texts (summaries, pages, error messages) of the
//! vectors from core, refusing when any other fact differs; then rerun the generators
//! (see `tests/vectors/README.md`).

mod core_runner;

use core_runner::CoreHost;
use tool_offload::MemoryWriter;
use tool_offload_conformance::steps as s;

#[test]
fn core_in_memory_passes_every_vector() {
    let vectors = s::load();
    let bless = std::env::var_os(s::BLESS).is_some_and(|v| v == "1");
    let mut outcomes = s::Outcomes::new();
    let mut refused = Vec::new();
    for v in &vectors {
        let host = CoreHost::new(v, MemoryWriter::new());
        let (outcome, actual, steps) = futures_executor::block_on(s::run(v, &host));
        if bless {
            refused.extend(v.bless(&actual, &steps, &outcome).err());
        }
        outcomes.insert(v.id.clone(), (outcome, actual, steps));
    }
    if bless {
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        eprintln!(
            "blessed {} vectors: now rerun the generators (tests/vectors/README.md)",
            vectors.len()
        );
        return;
    }
    s::check("core-native", &vectors, &outcomes);
}
