//! Every vector through core over an [`ObjectStoreIo`]: on `object_store`'s in-memory
//! store (the `object-store` host) and on a real S3 server, moto on 127.0.0.1 (the
//! `object-store-s3` host). Their outcomes must equal every other host's; they are
//! recorded in `target/conformance/object-store.json` and `object-store-s3.json` for
//! `tests/cross-host.mjs`.

mod core_runner;

#[path = "../../../host-tokio/tests/s3/moto.rs"]
#[allow(dead_code)]
mod moto;

use std::sync::Arc;

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
            let names = wait(self.list_dir(&format!("{dir}/")));
            for name in names.expect("list") {
                let path = format!("{dir}/{name}");
                match wait(self.read_file(&path)).expect("read") {
                    Some(text) => drop(files.insert(path, text)),
                    None => pending.push(path),
                }
            }
        }
        files
    }
}

/// The output of `future`, awaited from inside the runner's executor (which cannot be
/// entered again): on a tokio runtime (the S3 host), by blocking this worker thread;
/// else (the in-memory host) it must be ready at its first poll, as that store's are.
fn wait<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => tokio::task::block_in_place(|| handle.block_on(future)),
        Err(_) => at_once(future),
    }
}

/// The output of a future that is ready at its first poll.
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

/// The same vectors on a real S3 server: each in a prefix of its own in one bucket.
#[test]
fn object_store_io_on_s3_passes_every_vector() {
    if std::env::var_os(s::BLESS).is_some() {
        return;
    }
    let moto = moto::Moto::start("vectors");
    let store: Arc<dyn object_store::ObjectStore> = Arc::new(
        object_store::aws::AmazonS3Builder::new()
            .with_bucket_name("vectors")
            .with_endpoint(&moto.endpoint)
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_access_key_id("test")
            .with_secret_access_key("test")
            .build()
            .expect("s3 client"),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let vectors = s::load();
    let mut outcomes = s::Outcomes::new();
    for (n, v) in vectors.iter().enumerate() {
        let io = ObjectStoreIo::new(store.clone(), &format!("v{n}")).expect("prefix");
        let host = CoreHost::new(v, io);
        let result = runtime.block_on(s::run(v, &host));
        outcomes.insert(v.id.clone(), result);
    }
    s::check("object-store-s3", &vectors, &outcomes);
}
