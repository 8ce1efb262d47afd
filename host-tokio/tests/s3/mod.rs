//! The S3 server of the tests ([`Moto`]), clients of it, and a store wrapper that counts
//! what is fetched.

// The tests and the bench each use their own subset of these.
#![allow(dead_code, unused_imports)]

mod flaky;
mod moto;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RetryConfig,
};

pub use flaky::Flaky;
pub use moto::Moto;

/// A client of `bucket` with its own connections (a worker), retrying briefly.
pub fn client(moto: &Moto, bucket: &str) -> AmazonS3Builder {
    AmazonS3Builder::new()
        .with_bucket_name(bucket)
        .with_endpoint(&moto.endpoint)
        .with_allow_http(true)
        .with_region("us-east-1")
        .with_access_key_id("test")
        .with_secret_access_key("test")
        .with_retry(RetryConfig {
            max_retries: 2,
            retry_timeout: Duration::from_secs(5),
            ..RetryConfig::default()
        })
}

/// Requests made through a store, and body bytes fetched by its gets.
#[derive(Debug, Default)]
pub struct Fetched {
    pub puts: AtomicU64,
    pub gets: AtomicU64,
    pub heads: AtomicU64,
    pub bytes: AtomicU64,
}

impl Fetched {
    /// Puts so far.
    pub fn puts(&self) -> u64 {
        self.puts.load(Ordering::SeqCst)
    }

    /// Gets, heads and bytes fetched so far.
    pub fn snapshot(&self) -> (u64, u64, u64) {
        let get = |n: &AtomicU64| n.load(Ordering::SeqCst);
        (get(&self.gets), get(&self.heads), get(&self.bytes))
    }
}

/// A store that counts what is fetched from the one it wraps.
#[derive(Debug)]
pub struct Counting {
    pub inner: Arc<dyn ObjectStore>,
    pub fetched: Arc<Fetched>,
}

impl fmt::Display for Counting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counting({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Counting {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.fetched.puts.fetch_add(1, Ordering::SeqCst);
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        let counter = if options.head {
            &self.fetched.heads
        } else {
            &self.fetched.gets
        };
        counter.fetch_add(1, Ordering::SeqCst);
        let head = options.head;
        let result = self.inner.get_opts(location, options).await?;
        if !head {
            let len = result.range.end - result.range.start;
            self.fetched.bytes.fetch_add(len, Ordering::SeqCst);
        }
        Ok(result)
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}
