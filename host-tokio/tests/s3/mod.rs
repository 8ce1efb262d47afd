//! A real S3-compatible server for the tests: moto's server mode (`moto_server`, from
//! PyPI's `moto[server]`, installed by scripts/setup.sh), started on a free port of
//! 127.0.0.1 and stopped when dropped; and a store wrapper that counts what is fetched.

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use futures_util::stream::BoxStream;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RetryConfig,
};

/// A moto server; killed (by its process id) when dropped.
pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
}

impl Moto {
    /// Start one and create `bucket` in it.
    pub fn start(bucket: &str) -> Moto {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("moto_server")
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server (pip install 'moto[server]'; make test runs scripts/setup.sh)");
        let moto = Moto {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(status) = moto.request(&format!("PUT /{bucket} HTTP/1.1")) {
                assert!(status.contains(" 200 "), "creating the bucket: {status}");
                return moto;
            }
            assert!(Instant::now() < deadline, "moto_server did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One bodiless request; the status line.
    fn request(&self, line: &str) -> std::io::Result<String> {
        let host = self.endpoint.trim_start_matches("http://");
        let mut stream = TcpStream::connect(host)?;
        write!(
            stream,
            "{line}\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )?;
        let mut response = String::new();
        stream.read_to_string(&mut response)?;
        Ok(response.lines().next().unwrap_or_default().to_owned())
    }

    /// A client of `bucket` with its own connections (a worker), retrying briefly.
    pub fn store(&self, bucket: &str) -> AmazonS3Builder {
        AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_endpoint(&self.endpoint)
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

    /// Stop the server now.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Requests and body bytes fetched through a store (gets and heads).
#[derive(Debug, Default)]
pub struct Fetched {
    pub gets: AtomicU64,
    pub heads: AtomicU64,
    pub bytes: AtomicU64,
}

impl Fetched {
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
