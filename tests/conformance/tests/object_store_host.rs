//! Every vector through core over an [`ObjectStoreIo`] on `object_store`'s in-memory
//! store: the `object-store` host. Its outcomes must equal every other host's; they are
//! recorded in `target/conformance/object-store.json` for `tests/cross-host.mjs`.

mod core_runner;

use std::collections::BTreeMap;

use core_runner::{CoreHost, HostFs};
use tool_offload::{FileReader, ObjectStoreIo};
use tool_offload_conformance::steps as s;

impl HostFs for ObjectStoreIo {
    /// Every object under the prefix, walked through the IO contract itself.
    fn snapshot(&self) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        let mut pending = vec![String::new()];
        while let Some(dir) = pending.pop() {
            let names = at_once(self.list_dir(&format!("{dir}/")));
            for name in names.expect("list") {
                let path = format!("{dir}/{name}");
                match at_once(self.read_file(&path)).expect("read") {
                    Some(text) => drop(files.insert(path, text)),
                    None => pending.push(path),
                }
            }
        }
        files
    }
}

/// The output of a future that is ready at its first poll, as the in-memory store's are
/// (a snapshot is taken inside the runner's executor, which cannot be entered again).
fn at_once<F: std::future::Future>(future: F) -> F::Output {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match std::pin::pin!(future).poll(&mut cx) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("the in-memory store did not answer at once"),
    }
}

#[test]
fn object_store_io_passes_every_vector() {
    if std::env::var_os(s::BLESS).is_some() {
        return;
    }
    let vectors = s::load();
    let mut outcomes = s::Outcomes::new();
    for v in &vectors {
        let io = ObjectStoreIo::from_url("memory:///tenant/a").expect("memory store");
        let host = CoreHost::new(v, io);
        let result = futures_executor::block_on(s::run(v, &host));
        outcomes.insert(v.id.clone(), result);
    }
    s::check("object-store", &vectors, &outcomes);
}
