//! Shared conformance vectors (`tests/vectors/*.json`) for the native hosts.
//!
//! A vector is a list of steps (offload, materialize, read back, registry, todo), each
//! with its expected result or error, and every file at the end (format:
//! `tests/vectors/README.md`). Each host runs every vector and records a canonical
//! outcome; `tests/cross-host.mjs` then checks all hosts recorded identical bytes. Paths
//! in vectors are virtual (`/work`, `/data`); hosts that write real files map them under
//! a temporary directory with [`Rooted`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_offload_core::{json, CreateOutcome, FileReader, FileWriter, IoError, Map, Value};

pub mod steps;

/// The repository's `tests/vectors` directory.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// A writer that fails on one chosen path (a file, or the directory to create), to
/// exercise `WRITE_FAILED`, and counts the directories it was asked to create.
pub struct Failing<W> {
    inner: W,
    fail_on: Option<String>,
    /// Directories it was asked to create.
    pub mkdirs: AtomicUsize,
}

impl<W> Failing<W> {
    /// `inner`, failing with "injected failure" on `fail_on`.
    pub fn new(inner: W, fail_on: Option<String>) -> Self {
        Failing {
            inner,
            fail_on,
            mkdirs: AtomicUsize::new(0),
        }
    }
}

impl<W: FileWriter> FileWriter for Failing<W> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.mkdirs.fetch_add(1, Ordering::SeqCst);
        if self.fail_on.as_deref() == Some(dir) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.create_file(path, data).await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.create_bytes(path, data).await
    }
}

impl<W: FileReader> FileReader for Failing<W> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(path, start, end).await
    }
}

/// A writer that maps the virtual absolute paths of vectors under a real `root`.
pub struct Rooted<W> {
    /// The real directory standing for `/`.
    pub root: PathBuf,
    /// The writer doing the real work.
    pub inner: W,
}

impl<W> Rooted<W> {
    fn real(&self, path: &str) -> String {
        format!("{}{path}", self.root.display())
    }

    /// Files under the root, by virtual path.
    pub fn written(&self) -> BTreeMap<String, String> {
        let mut found = BTreeMap::new();
        collect(&self.root, &self.root, &mut found);
        found
    }
}

pub(crate) fn collect(root: &Path, dir: &Path, found: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, found);
        } else if entry
            .file_name()
            .to_string_lossy()
            .starts_with("index.sqlite")
        {
            // The tokio workspace's SQLite index (and its WAL): that host's own cache,
            // rebuilt from the records, not part of what every host writes.
        } else {
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .to_str()
                .expect("utf-8 path");
            found.insert(
                format!("/{rel}"),
                std::fs::read_to_string(&path).expect("utf-8 file"),
            );
        }
    }
}

impl<W: FileWriter> FileWriter for Rooted<W> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.inner.mkdir(&self.real(dir)).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.inner.write_file(&self.real(path), data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.inner.create_file(&self.real(path), data).await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        self.inner.create_bytes(&self.real(path), data).await
    }
}

impl<W: FileReader> FileReader for Rooted<W> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(&self.real(path)).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(&self.real(dir)).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(&self.real(path)).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(&self.real(path), start, end).await
    }
}

/// `target/conformance`, where hosts record their outcomes for `tests/cross-host.mjs`.
pub fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/conformance")
}

/// Record `outcomes` (vector id → canonical outcome) for the cross-host comparison in
/// `target/conformance/<host>.json`.
pub fn record(host: &str, outcomes: &BTreeMap<String, String>) {
    let dir = conformance_dir();
    std::fs::create_dir_all(&dir).expect("create target/conformance");
    let map: Map<String, Value> = outcomes
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    std::fs::write(
        dir.join(format!("{host}.json")),
        json::stringify(&Value::Object(map)),
    )
    .expect("record outcomes");
}
