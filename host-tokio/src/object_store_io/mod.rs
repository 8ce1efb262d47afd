//! [`ObjectStoreIo`]: the whole IO contract over an object store (S3 and S3-compatible
//! servers, a local directory, memory), so workers on many machines share artifacts.
//! See docs/object-store.md.

mod keys;

use std::sync::Arc;

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};
use tool_offload_core::object_key::decode_key_segment;
use tool_offload_core::{CreateOutcome, FileReader, FileWriter, IoError};
use tool_offload_core::{FileLifecycle, FileStat};

pub use keys::ObjectStoreIoError;

/// Writes, reads and removes artifacts as objects: the virtual absolute path `/a/b.txt`
/// is the key `<prefix>/a/b.txt`. `write_file` is one put (atomic in S3: readers see the
/// old object or the new one), `create_file` a conditional put (`PutMode::Create`,
/// `If-None-Match: *` in S3) so exactly one of any number of workers creates a name,
/// `read_range` one ranged get, `size` and `stat` a head, `list_dir` one delimited list;
/// `mkdir` does nothing, since object stores have no directories. A path with a `.` or
/// `..` segment is refused before any request is made.
///
/// ```
/// use std::sync::Arc;
/// use tool_offload::{CreateOutcome, FileReader, FileWriter, ObjectStoreIo};
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let store = Arc::new(object_store::memory::InMemory::new());
/// let io = ObjectStoreIo::new(store, "team/agents").unwrap();
/// io.write_file("/a/x.txt", "hello world").await.unwrap();
/// assert_eq!(io.create_file("/a/x.txt", "other").await.unwrap(), CreateOutcome::Exists);
/// assert_eq!(io.read_range("/a/x.txt", 6, 100).await.unwrap(), b"world");
/// assert_eq!(io.list_dir("/a").await.unwrap(), ["x.txt"]);
/// assert!(io.read_file("/a/../../etc/passwd").await.is_err()); // never a request
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct ObjectStoreIo {
    store: Arc<dyn ObjectStore>,
    prefix: Path,
}

impl ObjectStoreIo {
    /// Artifacts in `store` under `prefix` (`""` for the whole store).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// let io = tool_offload::ObjectStoreIo::new(Arc::new(object_store::memory::InMemory::new()), "p").unwrap();
    /// assert_eq!(io.prefix(), "p");
    /// ```
    ///
    /// # Errors
    /// `InvalidLocation` for a prefix that is not a valid object path (`a//b`, `..`).
    pub fn new(store: Arc<dyn ObjectStore>, prefix: &str) -> Result<Self, ObjectStoreIoError> {
        let prefix = keys::parse_prefix(prefix)?;
        Ok(ObjectStoreIo { store, prefix })
    }

    /// The store and prefix a URL names: `s3://bucket/prefix` (credentials, region and
    /// endpoint from the standard `AWS_*` environment: `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT_URL`…; an `http://`
    /// endpoint is allowed), `file:///absolute/dir` or `memory://` (a fresh empty store).
    ///
    /// ```
    /// let io = tool_offload::ObjectStoreIo::from_url("memory:///runs/7").unwrap();
    /// assert_eq!(io.prefix(), "runs/7");
    /// assert!(tool_offload::ObjectStoreIo::from_url("ftp://x/y").is_err());
    /// ```
    ///
    /// # Errors
    /// `InvalidLocation` for a URL that is not one of these or a store that cannot be
    /// configured from it.
    pub fn from_url(location: &str) -> Result<Self, ObjectStoreIoError> {
        let invalid = |reason: String| ObjectStoreIoError::InvalidLocation {
            location: location.to_owned(),
            reason,
        };
        let url = url::Url::parse(location).map_err(|e| invalid(e.to_string()))?;
        let (store, prefix): (Arc<dyn ObjectStore>, Path) = match url.scheme() {
            "s3" | "s3a" => {
                let mut builder = object_store::aws::AmazonS3Builder::from_env().with_url(location);
                let endpoint = std::env::var("AWS_ENDPOINT_URL_S3")
                    .or_else(|_| std::env::var("AWS_ENDPOINT_URL"))
                    .or_else(|_| std::env::var("AWS_ENDPOINT"));
                if endpoint.is_ok_and(|e| e.starts_with("http://")) {
                    builder = builder.with_allow_http(true);
                }
                let store = builder.build().map_err(|e| invalid(e.to_string()))?;
                let prefix = Path::from_url_path(url.path()).map_err(|e| invalid(e.to_string()))?;
                (Arc::new(store), prefix)
            }
            "file" | "memory" => {
                let (store, prefix) =
                    object_store::parse_url(&url).map_err(|e| invalid(e.to_string()))?;
                (Arc::from(store), prefix)
            }
            other => {
                return Err(invalid(format!(
                    "unsupported scheme {other}: (use s3://, file:// or memory://)"
                )))
            }
        };
        Ok(ObjectStoreIo { store, prefix })
    }

    /// The store.
    ///
    /// ```
    /// let io = tool_offload::ObjectStoreIo::from_url("memory://").unwrap();
    /// assert!(io.store().to_string().contains("InMemory"));
    /// ```
    pub fn store(&self) -> &Arc<dyn ObjectStore> {
        &self.store
    }

    /// The prefix every key starts with (`""` for none).
    ///
    /// ```
    /// assert_eq!(tool_offload::ObjectStoreIo::from_url("memory://").unwrap().prefix(), "");
    /// ```
    pub fn prefix(&self) -> &str {
        self.prefix.as_ref()
    }

    /// The object key a virtual absolute path maps to.
    ///
    /// ```
    /// let io = tool_offload::ObjectStoreIo::from_url("memory:///p").unwrap();
    /// assert_eq!(io.key("/context/c1/artifacts/a.txt").unwrap(), "p/context/c1/artifacts/a.txt");
    /// assert!(io.key("/../x").is_err());
    /// ```
    ///
    /// # Errors
    /// `OutsidePrefix` for a `.` or `..` segment, `InvalidPath` for a relative path.
    pub fn key(&self, path: &str) -> Result<String, ObjectStoreIoError> {
        // The `Path` requests use, as text: what is sent is what is shown.
        keys::key_for(&self.prefix, path).map(String::from)
    }

    fn location(&self, path: &str) -> Result<Path, IoError> {
        keys::key_for(&self.prefix, path).map_err(IoError::from_error)
    }

    /// The entries directly under `dir`'s key, or `None` for a key with none.
    async fn entries(&self, dir: &Path) -> Result<Vec<String>, IoError> {
        let listed = self
            .store
            .list_with_delimiter((!dir.as_ref().is_empty()).then_some(dir))
            .await
            .map_err(store_error)?;
        let mut names: Vec<String> = listed
            .common_prefixes
            .iter()
            .chain(listed.objects.iter().map(|o| &o.location))
            .filter_map(|p| p.filename().map(decode_key_segment))
            .collect();
        names.sort_unstable();
        names.dedup();
        Ok(names)
    }
}

fn store_error(err: object_store::Error) -> IoError {
    IoError::from_error(ObjectStoreIoError::Store(err))
}

fn is_not_found(err: &object_store::Error) -> bool {
    matches!(err, object_store::Error::NotFound { .. })
}

impl FileWriter for ObjectStoreIo {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        // No directories in an object store; only refuse what could not be a key.
        self.location(dir).map(drop)
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        let location = self.location(path)?;
        let payload = PutPayload::from(data.to_owned());
        self.store
            .put(&location, payload)
            .await
            .map_err(store_error)?;
        Ok(())
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.create_bytes(path, data.as_bytes()).await
    }

    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        let location = self.location(path)?;
        let options = PutOptions {
            mode: PutMode::Create,
            ..PutOptions::default()
        };
        let payload = PutPayload::from(data.to_owned());
        match self.store.put_opts(&location, payload, options).await {
            Ok(_) => Ok(CreateOutcome::Created),
            Err(object_store::Error::AlreadyExists { .. }) => Ok(CreateOutcome::Exists),
            Err(e) => Err(store_error(e)),
        }
    }
}

impl FileReader for ObjectStoreIo {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        let location = self.location(path)?;
        let bytes = match self.store.get(&location).await {
            Ok(got) => got.bytes().await.map_err(store_error)?,
            Err(e) if is_not_found(&e) => return Ok(None),
            Err(e) => return Err(store_error(e)),
        };
        String::from_utf8(bytes.to_vec()).map(Some).map_err(|_| {
            IoError::from_error(ObjectStoreIoError::NotUtf8 {
                path: path.to_owned(),
            })
        })
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        let location = self.location(dir)?;
        self.entries(&location).await
    }

    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        let location = self.location(path)?;
        match self.store.head(&location).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(store_error(e)),
        }
    }

    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        let location = self.location(path)?;
        if start >= end {
            return Ok(Vec::new());
        }
        match self.store.get_range(&location, start..end).await {
            Ok(bytes) => Ok(bytes.to_vec()),
            Err(e) if is_not_found(&e) => Err(store_error(e)),
            // A range starting at or past the end is refused by stores (S3's 416); the
            // contract says it reads as nothing. Only then is the size asked for.
            Err(e) => match self.store.head(&location).await {
                Ok(meta) if start >= meta.size => Ok(Vec::new()),
                _ => Err(store_error(e)),
            },
        }
    }
}

impl FileLifecycle for ObjectStoreIo {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        let location = self.location(path)?;
        match self.store.head(&location).await {
            Ok(meta) => Ok(Some(FileStat {
                size: meta.size,
                modified_ms: u64::try_from(meta.last_modified.timestamp_millis()).unwrap_or(0),
                is_dir: false,
                // Object stores have no links.
                is_link: false,
            })),
            // A "directory" is a key prefix with objects under it; it has no time.
            Err(e) if is_not_found(&e) => Ok((!self.entries(&location).await?.is_empty())
                .then_some(FileStat {
                    size: 0,
                    modified_ms: 0,
                    is_dir: true,
                    is_link: false,
                })),
            Err(e) => Err(store_error(e)),
        }
    }

    async fn remove(&self, path: &str) -> Result<(), IoError> {
        let location = self.location(path)?;
        match self.store.delete(&location).await {
            Err(e) if !is_not_found(&e) => Err(store_error(e)),
            _ => Ok(()),
        }
    }
}
