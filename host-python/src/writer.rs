//! The writer behind the extension's offloads: files or an object store (`Storage`),
//! optionally failing on one path and rooted under a directory (the conformance vectors'
//! `failOn` and virtual paths, given by the test suite only; `None` in use).

use tool_offload::{CreateOutcome, FileReader, FileWriter, IoError};

use crate::storage::Storage;

/// A [`Storage`] that fails with `injected failure` on `fail_on` (a file, or a
/// directory to create), and with `root`, writes every path under that directory (the
/// vectors' virtual absolute paths on real files; empty in use).
pub(crate) struct Writer {
    inner: Storage,
    fail_on: Option<String>,
    root: String,
}

impl Writer {
    pub(crate) fn new(inner: Storage, fail_on: Option<String>, root: Option<String>) -> Self {
        Writer {
            inner,
            fail_on,
            root: root.unwrap_or_default(),
        }
    }

    /// The real path of `path`, or `injected failure` when it is the one to fail on.
    fn real(&self, path: &str) -> Result<String, IoError> {
        match self.fail_on.as_deref() == Some(path) {
            true => Err(IoError::new("injected failure")),
            false => Ok(format!("{}{path}", self.root)),
        }
    }
}

impl FileWriter for Writer {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.inner.mkdir(&self.real(dir)?).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.inner.write_file(&self.real(path)?, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.inner.create_file(&self.real(path)?, data).await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        self.inner.create_bytes(&self.real(path)?, data).await
    }
}

impl FileReader for Writer {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(&format!("{}{path}", self.root)).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(&format!("{}{dir}", self.root)).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(&format!("{}{path}", self.root)).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner
            .read_range(&format!("{}{path}", self.root), start, end)
            .await
    }
}
